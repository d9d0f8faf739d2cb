// A core-export-v1 test server: open input schemas, pass-through results
// ({httpStatus, bodyText}), and an isError result when the (fictional)
// backend cannot be reached. CORE_FAULT=closed-input closes its input
// schemas; CORE_FAULT=ignore-dry-run makes add_sample_shelf write even
// under CODE2SKILL_DRY_RUN=1.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const closed = process.env.CORE_FAULT === "closed-input";
const dryRun = process.env.CODE2SKILL_DRY_RUN === "1" && process.env.CORE_FAULT !== "ignore-dry-run";
const shape = (fields) => (closed ? z.strictObject(fields) : z.looseObject(fields));
const result = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value });
const failure = (code) => ({
  ...result({ error: { name: "TypeError", message: "fetch failed", cause: { name: "Error", message: `connect ${code}`, code } } }),
  isError: true,
});
const hints = { destructiveHint: false, openWorldHint: true };

// The answers of the fictional shelf service, by room.
const rooms = {
  locked: { httpStatus: 401, bodyText: '{"error":"who are you?"}' },
  forbidden: { httpStatus: 403, bodyText: '{"error":"not yours"}' },
  missing: { httpStatus: 404, bodyText: '{"error":"no such room"}' },
};

const server = new McpServer({ name: "sample-shelf", version: "1.0.0" });
server.registerTool("list_sample_shelves", {
  title: "List sample shelves",
  description: "Lists the shelves of the sample library.",
  inputSchema: shape({ room: z.string().optional().describe("Room to list") }),
  annotations: { ...hints, readOnlyHint: true, idempotentHint: true },
}, async ({ room }) => {
  if (room === "offline") {
    return failure("ENETUNREACH");
  }
  return result(rooms[room] ?? { httpStatus: 200, bodyText: "[]" });
});
server.registerTool("add_sample_shelf", {
  title: "Add a sample shelf",
  description: "Adds one shelf to the sample library.",
  inputSchema: shape({ label: z.string().describe("Label of the shelf") }),
  annotations: { ...hints, readOnlyHint: false, idempotentHint: false },
}, async ({ label }) => {
  if (dryRun) {
    return result({ dryRun: true, request: { method: "POST", path: "shelves", body: { label } } });
  }
  if (label === "unreachable") {
    return failure("ECONNREFUSED");
  }
  if (label === "taken") {
    return result({ httpStatus: 409, bodyText: '{"error":"label taken"}' });
  }
  return result({ httpStatus: 201, bodyText: "{}" });
});
await server.connect(new StdioServerTransport());
