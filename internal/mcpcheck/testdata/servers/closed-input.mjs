// Closes its input schema (z.strictObject) and declares a closed output
// schema: wrong for core-export-v1, right for strict-export-v1.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "strict-shape", version: "1.0.0" });
server.registerTool("get_sample_item", {
  title: "Get a sample item",
  description: "Reads one item of the sample catalog.",
  inputSchema: z.strictObject({ itemId: z.string().describe("Item ID") }),
  outputSchema: z.strictObject({ status: z.number(), data: z.strictObject({ label: z.string() }) }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
}, async () => {
  const result = { status: 200, data: { label: "Sample" } };
  return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
});
await server.connect(new StdioServerTransport());
