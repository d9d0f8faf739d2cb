// Crashes when asked for its tools.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new McpServer({ name: "fragile", version: "1.0.0" });
server.server.registerCapabilities({ tools: {} });
server.server.setRequestHandler(ListToolsRequestSchema, () => {
  console.error("fatal: sample configuration missing");
  process.exit(3);
});
await server.connect(new StdioServerTransport());
