// A well-behaved core-export-v1 server: two tools with open input schemas,
// titles, descriptions and all four hints.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "sample-catalog", version: "1.0.0" });
server.registerTool("list_sample_items", {
  title: "List sample items",
  description: "Lists the items of the sample catalog, optionally filtered by kind.",
  inputSchema: { kind: z.string().optional().describe("Item kind to filter by") },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
}, async () => {
  const result = { httpStatus: 200, bodyText: "[]" };
  return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
});
server.registerTool("create_sample_item", {
  title: "Create a sample item",
  description: "Creates one item in the sample catalog.",
  inputSchema: { label: z.string().describe("Label of the new item") },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
}, async () => {
  const result = { httpStatus: 201, bodyText: "{}" };
  return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
});
await server.connect(new StdioServerTransport());
