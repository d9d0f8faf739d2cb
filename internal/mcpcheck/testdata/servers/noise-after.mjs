// Logs to stdout once the session is initialized, and again at exit.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "noisy", version: "1.0.0" });
server.server.oninitialized = () => console.log("client connected");
process.on("exit", () => console.log("bye"));
server.registerTool("ping_sample", {
  title: "Ping the sample", description: "Answers with an empty object.", inputSchema: {},
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
}, async () => ({ content: [{ type: "text", text: "{}" }], structuredContent: {} }));
await server.connect(new StdioServerTransport());
