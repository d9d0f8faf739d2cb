// The MCP adapter of a small fictional package, in the shape code2skill
// compile gives it.
import { McpServer, StdioServerTransport, z } from "./runtime.mjs";
import { listItems, submitItem, fetchElsewhere } from "../function-core/index.mjs";
import { normalizeToolError } from "../portable-error-normalizer.mjs";

const server = new McpServer({ name: "items", version: "1" });

function project(result, isError) {
  return { structuredContent: result, content: [{ type: "text", text: JSON.stringify(result) }], isError };
}

server.registerTool("list_items", {
  title: "Items: list",
  description: "Lists the items of a kind.",
  inputSchema: { kind: z.string() },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
}, async (input, runtimeContext) => {
  if (process.env.ITEMS_DRY_RUN === "1") {
    return project({ dryRun: true, validatedInput: input }, false);
  }
  try {
    const functionResult = await listItems(input, runtimeContext);
    return project(functionResult, false);
  } catch (error) {
    return project(normalizeToolError(error, { sideEffect: "read", automaticRetry: "read-only-bounded" }), true);
  }
});

server.registerTool("submit_item", {
  title: "Items: submit",
  description: "Submits an item with the grant a validation issued.",
  inputSchema: { name: z.string(), grant: z.string() },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
}, async (input, runtimeContext) => {
  if (process.env.ITEMS_DRY_RUN === "1") {
    return project({ dryRun: true, validatedInput: input }, false);
  }
  try {
    const functionResult = await submitItem(input, runtimeContext);
    return project(functionResult, false);
  } catch (error) {
    return project(normalizeToolError(error, { sideEffect: "create", automaticRetry: "never" }), true);
  }
});

server.registerTool("fetch_elsewhere", {
  title: "Items: elsewhere",
  description: "Asks an origin the export profile does not allow.",
  inputSchema: {},
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
}, async (input, runtimeContext) => {
  try {
    const functionResult = await fetchElsewhere(input, runtimeContext);
    return project(functionResult, false);
  } catch (error) {
    return project(normalizeToolError(error, { sideEffect: "read", automaticRetry: "read-only-bounded" }), true);
  }
});

await server.connect(new StdioServerTransport());
