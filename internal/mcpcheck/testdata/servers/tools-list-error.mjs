// Initializes, then answers tools/list with a JSON-RPC error.
import { createInterface } from "node:readline";

const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.method === "initialize") {
    send({ id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "broken", version: "1.0.0" } } });
  } else if (msg.method === "tools/list") {
    send({ id: msg.id, error: { code: -32603, message: "tool registry unavailable" } });
  }
}
