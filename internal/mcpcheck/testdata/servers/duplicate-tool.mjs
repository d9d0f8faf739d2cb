// Lists the same tool twice (the SDK refuses to register a name twice, so
// this is a raw stdio script).
import { createInterface } from "node:readline";

const tool = {
  name: "list_sample_items", title: "List sample items", description: "Lists sample items.",
  inputSchema: { type: "object", properties: {} },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.method === "initialize") {
    send({ id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "twice", version: "1.0.0" } } });
  } else if (msg.method === "tools/list") {
    send({ id: msg.id, result: { tools: [tool, tool] } });
  }
}
