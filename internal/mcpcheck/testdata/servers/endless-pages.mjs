// Initializes, then answers every tools/list page slowly with one more
// page to come.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new McpServer({ name: "endless", version: "1.0.0" });
server.server.registerCapabilities({ tools: {} });
let page = 0;
server.server.setRequestHandler(ListToolsRequestSchema, async () => {
  await new Promise((resolve) => setTimeout(resolve, 400));
  page++;
  return {
    tools: [{ name: `sample_tool_${page}`, title: "Sample", description: "A sample tool.", inputSchema: { type: "object" },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } }],
    nextCursor: String(page),
  };
});
await server.connect(new StdioServerTransport());
