// Works, but also sends large responses to requests the client never made,
// before and after answering initialize.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const junk = (id) => JSON.stringify({ jsonrpc: "2.0", id, result: { padding: "x".repeat(1 << 20) } }) + "\n";
process.stdout.write(junk(9001));
const server = new McpServer({ name: "chatty", version: "1.0.0" });
server.server.oninitialized = () => {
  for (let i = 0; i < 8; i++) process.stdout.write(junk(9100 + i));
};
server.registerTool("ping_sample", {
  title: "Ping the sample", description: "Answers with an empty object.", inputSchema: {},
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
}, async () => ({ content: [{ type: "text", text: "{}" }], structuredContent: {} }));
await server.connect(new StdioServerTransport());
