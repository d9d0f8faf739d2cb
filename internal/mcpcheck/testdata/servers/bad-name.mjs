// Registers a tool whose name has a space and a "!" (the SDK only warns),
// and one with neither title nor description.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "misnamed", version: "1.0.0" });
const hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const ok = async () => ({ content: [{ type: "text", text: "{}" }] });
server.registerTool("list sample items!", { title: "List sample items", description: "Lists sample items.", inputSchema: {}, annotations: hints }, ok);
server.registerTool("count_sample_items", { inputSchema: {}, annotations: hints }, ok);
await server.connect(new StdioServerTransport());
