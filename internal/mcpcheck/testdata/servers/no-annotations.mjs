// Registers a tool without annotations and one with a partial set.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "unannotated", version: "1.0.0" });
const ok = async () => ({ content: [{ type: "text", text: "{}" }] });
server.registerTool("list_sample_items", { title: "List sample items", description: "Lists sample items.", inputSchema: {} }, ok);
server.registerTool("delete_sample_item", {
  title: "Delete a sample item", description: "Deletes one sample item.", inputSchema: {},
  annotations: { readOnlyHint: false, destructiveHint: true },
}, ok);
await server.connect(new StdioServerTransport());
