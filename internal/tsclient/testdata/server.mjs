// A stdio MCP server on the pinned SDK with one Tool that declares an
// output schema, and answers as its mode argument says: a success, an
// error result whose structuredContent does not match the output schema,
// an error result with only JSON text, or a success after asking the user
// through elicitation.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'fixture', version: '1.0.0' });
const refusal = { code: 'NOT_FOUND', message: 'no such item', details: {}, retryable: false };

server.registerTool(
  'lookup',
  {
    description: 'Looks an item up.',
    inputSchema: { mode: z.string() },
    outputSchema: { status: z.number(), data: z.object({}).passthrough() },
  },
  async ({ mode }) => {
    switch (mode) {
      case 'ok':
        return { content: [{ type: 'text', text: '{"status":200,"data":{}}' }], structuredContent: { status: 200, data: {} } };
      case 'error-structured':
        return { isError: true, content: [{ type: 'text', text: JSON.stringify(refusal) }], structuredContent: refusal };
      case 'error-text':
        return { isError: true, content: [{ type: 'text', text: JSON.stringify(refusal) }] };
      case 'confirm': {
        const answer = await server.server.elicitInput({
          message: 'Look it up?',
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
        });
        return { content: [{ type: 'text', text: answer.action }], structuredContent: { status: 200, data: { action: answer.action } } };
      }
    }
    throw new Error(`unknown mode ${mode}`);
  },
);

await server.connect(new StdioServerTransport());
