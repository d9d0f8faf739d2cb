// Answers initialize with a protocol version no client knows.
import { createInterface } from "node:readline";

const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.method === "initialize") {
    send({ id: msg.id, result: { protocolVersion: "1999-01-01", capabilities: {}, serverInfo: { name: "odd", version: "1.0.0" } } });
  }
}
