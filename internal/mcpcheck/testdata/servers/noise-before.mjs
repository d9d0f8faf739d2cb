// Logs to stdout before the transport is connected.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

console.log("sample server starting");
const server = new McpServer({ name: "noisy", version: "1.0.0" });
server.registerTool("ping_sample", {
  title: "Ping the sample", description: "Answers with an empty object.", inputSchema: {},
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
}, async () => ({ content: [{ type: "text", text: "{}" }], structuredContent: {} }));
await server.connect(new StdioServerTransport());
