// Refuses initialize with a JSON-RPC error.
import { createInterface } from "node:readline";

const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.id !== undefined) {
    send({ id: msg.id, error: { code: -32603, message: "sample backend not configured" } });
  }
}
