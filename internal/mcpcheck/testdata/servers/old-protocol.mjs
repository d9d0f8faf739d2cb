// Answers initialize with an older protocol version than asked for (a raw
// stdio script: the SDK answers with the version asked for).
import { createInterface } from "node:readline";

const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.method === "initialize") {
    send({ id: msg.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "old", version: "1.0.0" } } });
  } else if (msg.method === "tools/list") {
    send({ id: msg.id, result: { tools: [] } });
  }
}
