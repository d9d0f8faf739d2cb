// Works, but keeps running after its stdin is closed.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "clingy", version: "1.0.0" });
setInterval(() => {}, 1000);
server.registerTool("ping_sample", {
  title: "Ping the sample", description: "Answers with an empty object.", inputSchema: {},
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
}, async () => ({ content: [{ type: "text", text: "{}" }], structuredContent: {} }));
await server.connect(new StdioServerTransport());
