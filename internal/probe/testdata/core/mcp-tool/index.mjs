// A core-export-v1 test server: open input schemas, pass-through results,
// and an isError result when the (fictional) backend cannot be reached.
// CORE_FAULT=closed-input closes its input schemas.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const closed = process.env.CORE_FAULT === "closed-input";
const shape = (fields) => (closed ? z.strictObject(fields) : z.looseObject(fields));
const result = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value });
const hints = { destructiveHint: false, openWorldHint: true };

const server = new McpServer({ name: "sample-shelf", version: "1.0.0" });
server.registerTool("list_sample_shelves", {
  title: "List sample shelves",
  description: "Lists the shelves of the sample library.",
  inputSchema: shape({ room: z.string().optional().describe("Room to list") }),
  annotations: { ...hints, readOnlyHint: true, idempotentHint: true },
}, async () => result({ httpStatus: 200, bodyText: "[]" }));
server.registerTool("add_sample_shelf", {
  title: "Add a sample shelf",
  description: "Adds one shelf to the sample library.",
  inputSchema: shape({ label: z.string().describe("Label of the shelf") }),
  annotations: { ...hints, readOnlyHint: false, idempotentHint: false },
}, async ({ label }) => {
  if (label === "unreachable") {
    const error = { error: { name: "TypeError", message: "fetch failed" } };
    return { ...result(error), isError: true };
  }
  return result({ httpStatus: 201, bodyText: "{}" });
});
await server.connect(new StdioServerTransport());
