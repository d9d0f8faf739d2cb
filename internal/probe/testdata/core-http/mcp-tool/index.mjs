// The stdio server of the core-http test package.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { listShelves, addShelf } from '../function-core/index.mjs';
import { toAgentResult, toAgentError } from '../portable-agent-result.mjs';

async function call(fn, input) {
  try {
    return toAgentResult(await fn(input));
  } catch (error) {
    return toAgentError(error);
  }
}

const server = new McpServer({ name: 'shelf-http', version: '1.0.0' });
server.registerTool('list_shelves', {
  title: 'List shelves',
  description: 'Lists the shelves of a room.',
  inputSchema: z.looseObject({ room: z.string().nullish().describe('Room to list') }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
}, async (input) => call(listShelves, input));
server.registerTool('add_shelf', {
  title: 'Add a shelf',
  description: 'Adds a shelf.',
  inputSchema: z.looseObject({ label: z.string().nullish().describe('Label of the shelf') }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
}, async (input) => call(addShelf, input));
await server.connect(new StdioServerTransport());
