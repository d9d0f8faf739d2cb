// MCP adapter of the sample-notes test package, shaped like a strict
// adapter: one literal registration per tool, a first-statement dry-run
// guard, the named Function in a try, normalizeToolError in the catch.
//
// Unlike a generated adapter it reads the schemas from ./schema-contract.json
// instead of embedding them, and SAMPLE_FAULT makes it misbehave in a
// named way (or several, comma-separated, where they do not meet), so that
// one server serves every probe test.
//
// As a compiled adapter does, each Tool lists the contract's output schema,
// or under the dry-run variable the dry-run envelope's (every call then
// answers with the envelope), and an error result carries the structured
// error as the JSON of its text block only. The server accepts either
// output shape (its own check is loosened, so that faults reach the
// client).

import { readFileSync } from "node:fs";
import { McpServer, StdioServerTransport, z } from "./runtime.mjs";
import { countSampleNotes, createSampleNote, listSampleNotes } from "../function-core/index.mjs";
import { normalizeToolError } from "../portable-error-normalizer.mjs";

const faults = (process.env.SAMPLE_FAULT ?? "").split(",");
const fault = (name) => faults.includes(name);
const DRY_RUN = "SAMPLE_NOTES_DRY_RUN";
const contract = JSON.parse(readFileSync(new URL("./schema-contract.json", import.meta.url), "utf8"));
const spec = (tool) => contract.capabilities.find((c) => c.toolName === tool);

const dryRunMode = process.env[DRY_RUN] === "1";
const dryRunOutputSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    dryRun: { type: "boolean", const: true, description: "Always true: the call was validated and not executed." },
    validatedInput: { type: "object", description: "The arguments the call was validated with, unchanged." },
    operationPolicy: { type: "object", description: "The Tool's operation policy from the contract." },
    operationSummary: { type: "object", description: "What the call would do, from the contract." },
  },
  required: ["dryRun", "validatedInput", "operationPolicy", "operationSummary"],
};

const dryRunResult = z.strictObject({
  dryRun: z.literal(true),
  validatedInput: z.record(z.string(), z.unknown()),
  operationPolicy: z.record(z.string(), z.unknown()),
  operationSummary: z.record(z.string(), z.unknown()),
});

function inputSchema(schema) {
  if (fault("no-input-validation")) {
    return z.looseObject({}).meta(schema);
  }
  return z.fromJSONSchema(schema).meta(schema);
}

function outputSchema(schema) {
  const output = z.fromJSONSchema(schema);
  const loose = fault("unchecked-output") || fault("loose-output");
  const accepts = (v) => loose || output.safeParse(v).success || dryRunResult.safeParse(v).success;
  const listed = dryRunMode && !fault("dry-run-canonical-output") ? dryRunOutputSchema : schema;
  return z.looseObject({}).superRefine((v, ctx) => {
    if (!accepts(v)) {
      ctx.addIssue({ code: "custom", message: "neither the tool's output nor a dry-run result" });
    }
  }).meta(listed);
}

function config(tool, title, description) {
  const c = spec(tool);
  const annotations = { ...c.annotations };
  if (fault("annotations") && tool === "list_sample_notes") {
    annotations.readOnlyHint = false;
  }
  let input = c.inputSchema;
  if (fault("input-schema") && tool === "list_sample_notes") {
    input = structuredClone(input);
    input.properties.limit.maximum = 100;
  }
  let output = c.outputSchema;
  if (fault("output-schema") && tool === "count_sample_notes") {
    output = structuredClone(output);
    output.properties.data.properties.count.minimum = 1;
  }
  if (fault("loose-output") && tool === "count_sample_notes") {
    output = structuredClone(output);
    output.properties.data.properties.count = {};
  }
  if (fault("output-not-object") && tool === "count_sample_notes") {
    output = { type: "array", items: {} };
  }
  return { title, description, inputSchema: inputSchema(input), outputSchema: outputSchema(output), annotations };
}

function project(value, isError) {
  let text = JSON.stringify(value);
  if (fault("text-mismatch") && !isError) {
    text = JSON.stringify({ ...value, status: 0 });
  }
  if (isError) {
    return { content: [{ type: "text", text }], isError };
  }
  if (fault("success-no-is-error")) {
    return { structuredContent: value, content: [{ type: "text", text }] };
  }
  return { structuredContent: value, content: [{ type: "text", text }], isError };
}

// callback wraps a Function the way a strict adapter does.
function callback(tool, fn) {
  const { operationPolicy, operationSummary } = spec(tool);
  return async (input) => {
    if (process.env[DRY_RUN] === "1" && !fault("dry-run-dispatches")) {
      let validatedInput = input;
      if (fault("dry-run-alters-input")) {
        validatedInput = { ...input, title: String(input.title).trim().toUpperCase() };
      }
      const policy = fault("dry-run-policy") ? { ...operationPolicy, automaticRetry: "always" } : operationPolicy;
      return project({ dryRun: true, validatedInput, operationPolicy: policy, operationSummary }, false);
    }
    if (fault("crash") && tool === "count_sample_notes") {
      console.error("sample-notes: fatal: note index corrupted");
      process.exit(7);
    }
    if (fault("hang") && tool === "count_sample_notes") {
      return new Promise(() => {});
    }
    if (fault("stdout-noise")) {
      console.log(`calling ${tool}`);
    }
    try {
      const result = await fn(input);
      if ((fault("unchecked-output") || fault("loose-output")) && tool === "count_sample_notes") {
        result.data.count = "two";
      }
      if (fault("no-structured-content")) {
        return { content: [{ type: "text", text: JSON.stringify(result) }] };
      }
      return project(result, false);
    } catch (error) {
      const toolError = normalizeToolError(error, operationPolicy);
      if (fault("error-envelope")) {
        toolError.code = "";
        toolError.details = "see message";
      }
      if (fault("error-category")) {
        delete toolError.details.category;
      }
      if (fault("error-text-only")) {
        return { content: [{ type: "text", text: toolError.message }], isError: true };
      }
      if (fault("error-structured")) {
        return { structuredContent: toolError, content: [{ type: "text", text: JSON.stringify(toolError) }], isError: true };
      }
      if (fault("error-structured-valid") && tool === "count_sample_notes") {
        return { structuredContent: { status: 200, data: { count: 0 } }, content: [{ type: "text", text: JSON.stringify(toolError) }], isError: true };
      }
      if (fault("error-no-text")) {
        return { content: [], isError: true };
      }
      if (fault("error-succeeds")) {
        return project({ dryRun: true, validatedInput: input, operationPolicy, operationSummary }, false);
      }
      return project(toolError, true);
    }
  };
}

const server = new McpServer({ name: "sample-notes-capabilities", version: "1" });

server.registerTool("list_sample_notes",
  config("list_sample_notes", "Sample notes: list notes", "Lists the sample notes, optionally by tag and up to a limit."),
  callback("list_sample_notes", listSampleNotes));

server.registerTool("create_sample_note",
  config("create_sample_note", "Sample notes: create a note", "Creates one sample note with a title, an optional body and a tag."),
  callback("create_sample_note", createSampleNote));

if (!fault("missing-tool")) {
  server.registerTool("count_sample_notes",
    config("count_sample_notes", "Sample notes: count notes", "Counts the sample notes of a folder."),
    callback("count_sample_notes", countSampleNotes));
}

if (fault("extra-tool")) {
  server.registerTool("debug_sample_notes", {
    title: "Sample notes: debug", description: "Dumps internal state.", inputSchema: z.strictObject({}),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, async () => project({}, false));
}

if (fault("unknown-tool-accepted") || fault("unknown-tool-protocol-error")) {
  // Put a front in front of the SDK's tools/call handler for unknown names.
  const sdkHandler = server.server._requestHandlers.get("tools/call");
  server.server.removeRequestHandler("tools/call");
  const request = z.looseObject({ method: z.literal("tools/call"), params: z.looseObject({ name: z.string() }) });
  server.server.setRequestHandler(request, async (req, extra) => {
    if (spec(req.params.name) === undefined) {
      if (fault("unknown-tool-accepted")) {
        return { content: [{ type: "text", text: "{}" }], structuredContent: {} };
      }
      throw Object.assign(new Error(`Unknown tool: ${req.params.name}`), { code: -32602 });
    }
    return sdkHandler(req, extra);
  });
}

if (fault("unknown-method-result") || fault("unknown-method-code")) {
  const request = z.looseObject({ method: z.literal("code2skill/unknown-method") });
  server.server.setRequestHandler(request, async () => {
    if (fault("unknown-method-code")) {
      throw Object.assign(new Error("internal failure"), { code: -32603 });
    }
    return {};
  });
}

const transport = new StdioServerTransport();
await server.connect(transport);

// What the server makes of a line it cannot parse: the SDK reports it to
// the transport's error handler and answers nothing.
const malformed = faults.find((f) => f.startsWith("malformed-"));
if (malformed !== undefined) {
  const onerror = transport.onerror;
  transport.onerror = (error) => {
    onerror?.(error);
    const reply = (code, message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }) + "\n");
    switch (malformed) {
      case "malformed-parse-error":
        reply(-32700, "Parse error");
        break;
      case "malformed-wrong-code":
        reply(-32600, "Invalid Request");
        break;
      case "malformed-exits":
        process.exit(3);
    }
  };
}
