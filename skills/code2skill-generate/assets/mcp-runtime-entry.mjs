// mcp-runtime-entry.mjs: the entry point a strict-export-v1 package bundles
// into mcp-tool/runtime.mjs, one self-contained file holding the official
// MCP SDK server and zod. The adapter imports exactly these three names:
//
//   import { McpServer, StdioServerTransport, z } from './runtime.mjs';
//
// Reviewed once and copied byte-for-byte; edit the original, never a copy.
//
// StdioServerTransport and z are the official objects. McpServer is the
// official one with a single change: arguments a Tool's input schema
// refuses are answered with the structured Tool error every other refusal
// of a strict package gets,
//
//   {code: "INVALID_INPUT", message, details: {category: "input",
//    outcomeKnown: true, errors: [{path, message}]}, retryable: false}
//
// as the JSON of the one text block of an isError result (no
// structuredContent), instead of the SDK's plain-text "Input validation
// error". It happens before the Tool's callback runs (and so before a host
// runtime asks anything or a dry-run answers), and nothing is dispatched,
// so the outcome is known. The SDK calls the two methods overridden here
// for every tools/call; the bundle pins the SDK they belong to.

import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { z } from 'zod';

// MAX_ERRORS bounds how many violations one refusal lists, as the
// Functions' own input check does.
const MAX_ERRORS = 32;

/** InputRefusal carries the answer to refused arguments from validation to the call. */
class InputRefusal {
  constructor(result) {
    this.result = result;
  }
}

export class McpServer extends SdkMcpServer {
  async validateToolInput(tool, args, toolName) {
    try {
      return await super.validateToolInput(tool, args, toolName);
    } catch (error) {
      if (!(error instanceof McpError) || error.code !== ErrorCode.InvalidParams) {
        throw error;
      }
      return new InputRefusal(invalidInputResult(await violations(tool, args, error)));
    }
  }

  async executeToolHandler(tool, args, extra) {
    if (args instanceof InputRefusal) {
      return args.result;
    }
    return super.executeToolHandler(tool, args, extra);
  }
}

// violations lists where the arguments break the Tool's input schema: one
// entry per zod issue (one per key an unrecognized-keys issue names), or
// the SDK's own message when the schema cannot say more.
async function violations(tool, args, error) {
  const schema = tool.inputSchema;
  if (schema === null || typeof schema?.safeParseAsync !== 'function') {
    return [{ path: '', message: error.message }];
  }
  const parsed = await schema.safeParseAsync(args ?? {});
  if (parsed.success) {
    return [{ path: '', message: error.message }];
  }
  const errors = [];
  for (const issue of parsed.error.issues) {
    const keys = issue.code === 'unrecognized_keys' && Array.isArray(issue.keys) ? issue.keys : [undefined];
    for (const key of keys) {
      if (errors.length === MAX_ERRORS) {
        return errors;
      }
      const path = key === undefined ? issue.path : [...issue.path, key];
      const message = key === undefined ? issue.message : 'is not a property the input schema allows';
      errors.push({ path: pointer(path), message });
    }
  }
  return errors;
}

// invalidInputResult is the isError result of refused arguments.
function invalidInputResult(errors) {
  const shown = errors.slice(0, 3).map((e) => `${e.path === '' ? '/' : e.path} ${e.message}`).join('; ');
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : '';
  const toolError = {
    code: 'INVALID_INPUT',
    message: `invalid input: ${shown}${more}`,
    details: { category: 'input', outcomeKnown: true, errors },
    retryable: false,
  };
  return { content: [{ type: 'text', text: JSON.stringify(toolError) }], isError: true };
}

// pointer writes a zod path as a JSON Pointer.
function pointer(path) {
  return path.map((segment) => '/' + String(segment).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}
