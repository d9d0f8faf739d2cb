// Initializes, then never answers tools/list.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new McpServer({ name: "stuck", version: "1.0.0" });
server.server.registerCapabilities({ tools: {} });
server.server.setRequestHandler(ListToolsRequestSchema, () => new Promise(() => {}));
await server.connect(new StdioServerTransport());
