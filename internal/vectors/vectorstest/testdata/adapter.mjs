// A hand-written strict MCP adapter for test packages: every Tool of
// mcp-tool/schema-contract.json registered with its schemas (zod 4's
// z.fromJSONSchema(schema).meta(schema), as SDK 1.32.2 needs; under the
// dry-run variable the dry-run envelope's output schema), a
// first-statement dry-run guard, the named Function in a try, and
// normalizeToolError with the literal policy in the catch, its error
// returned as the JSON of the result's text. The package's
// mcp-tool/index.mjs calls serve with the faults of each capability's Tool,
// so that one fault can break one behaviour.

import { McpServer, StdioServerTransport, z } from './runtime.mjs';
import * as functions from '../function-core/index.mjs';
import { normalizeToolError } from '../portable-error-normalizer.mjs';
import contract from './schema-contract.json' with { type: 'json' };
import profile from '../export-profile.json' with { type: 'json' };
import dryRunOutputSchema from './dry-run-output-schema.json' with { type: 'json' };

const DRY_RUN = profile.dryRunEnvironmentVariable || 'CODE2SKILL_DRY_RUN';
// As a compiled adapter does, a server started under the dry-run variable
// lists the dry-run envelope's schema as every Tool's output schema.
const dryRunMode = process.env[DRY_RUN] === '1';

const dryRunResult = z.strictObject({
  dryRun: z.literal(true),
  validatedInput: z.record(z.string(), z.unknown()),
  operationPolicy: z.record(z.string(), z.unknown()),
  operationSummary: z.record(z.string(), z.unknown()),
});

function outputSchema(schema) {
  const output = z.fromJSONSchema(schema);
  return z.looseObject({}).superRefine((v, ctx) => {
    if (!output.safeParse(v).success && !dryRunResult.safeParse(v).success) {
      ctx.addIssue({ code: 'custom', message: "neither the tool's output nor a dry-run result" });
    }
  }).meta(dryRunMode ? dryRunOutputSchema : schema);
}

const project = (value, isError) => ({ structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }], isError });

// failure projects a structured Tool error as a compiled adapter does: the
// JSON of one text block, no structuredContent; or with a fault's shape.
function failure(toolError, faults) {
  if (faults.errorStructured) {
    return project(toolError, true);
  }
  if (faults.errorWithoutText) {
    return { content: [], isError: true };
  }
  return { content: [{ type: 'text', text: JSON.stringify(toolError) }], isError: true };
}

export async function serve(adapterFaults = {}) {
  const server = new McpServer({ name: `${contract.contractId}-capabilities`, version: '1' });
  for (const c of contract.capabilities) {
    register(server, c, adapterFaults[c.capabilityId] || {});
  }
  await server.connect(new StdioServerTransport());
}

function register(server, c, faults) {
  const fn = functions[c.functionExport];
  server.registerTool(c.toolName, {
    title: c.toolName,
    description: c.toolName,
    inputSchema: z.fromJSONSchema(c.inputSchema).meta(c.inputSchema),
    outputSchema: outputSchema(c.outputSchema),
    annotations: c.annotations,
  }, async (input, runtimeContext) => {
    if (process.env[DRY_RUN] === '1') {
      if (faults.dryRunDispatches) {
        await fn(input, runtimeContext);
      }
      const validatedInput = faults.dryRunAltersInput ? { ...input, sampleAltered: true } : input;
      const dry = { dryRun: true, validatedInput, operationPolicy: c.operationPolicy, operationSummary: c.operationSummary };
      if (faults.dryRunExtraMember) {
        dry.note = 'not in the envelope';
      }
      return project(dry, false);
    }
    try {
      const args = faults.realCallAltersInput ? alter(structuredClone(input)) : input;
      const result = await fn(args, runtimeContext);
      return project(result, false);
    } catch (error) {
      return failure(normalizeToolError(error, c.operationPolicy), faults);
    }
  });
}

// alter changes the first string inside value.
function alter(value) {
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string') {
      value[k] = v + '-altered';
      return value;
    }
    if (v !== null && typeof v === 'object') {
      const before = JSON.stringify(v);
      alter(v);
      if (JSON.stringify(v) !== before) {
        return value;
      }
    }
  }
  return value;
}
