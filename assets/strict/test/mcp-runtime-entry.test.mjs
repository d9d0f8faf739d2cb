import assert from 'node:assert/strict';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';

import * as sdkServer from '@modelcontextprotocol/sdk/server/mcp.js';
import * as sdkStdio from '@modelcontextprotocol/sdk/server/stdio.js';
import * as zod from 'zod';

import * as entry from '../mcp-runtime-entry.mjs';

describe('mcp-runtime-entry', () => {
  it('exports exactly McpServer, StdioServerTransport and z', () => {
    assert.deepEqual(Object.keys(entry).sort(), ['McpServer', 'StdioServerTransport', 'z']);
  });

  it('re-exports the official objects, McpServer extended', () => {
    assert.equal(Object.getPrototypeOf(entry.McpServer), sdkServer.McpServer);
    assert.equal(entry.StdioServerTransport, sdkStdio.StdioServerTransport);
    assert.equal(entry.z, zod.z);
  });

  it('serves initialize and tools/list over stdio framing', async () => {
    const { McpServer, StdioServerTransport, z } = entry;
    const server = new McpServer({ name: 'runtime-entry-test', version: '1.0.0' });
    server.registerTool('list_sample_kinds', {
      title: 'Sample kinds',
      description: 'Lists the kinds of sample request.',
      inputSchema: { filter: z.string().optional() },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    }, async () => ({ content: [{ type: 'text', text: '[]' }] }));

    const session = await connected(server, StdioServerTransport);
    assert.equal(session.initialized.result.protocolVersion, '2025-11-25');
    const list = await session.send('tools/list', {});
    assert.deepEqual(list.result.tools.map((t) => t.name), ['list_sample_kinds']);
    assert.deepEqual(list.result.tools[0].annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    await server.close();
  });

  it('answers arguments the input schema refuses with the structured INVALID_INPUT error', async () => {
    const { McpServer, StdioServerTransport, z } = entry;
    const server = new McpServer({ name: 'runtime-entry-test', version: '1.0.0' });
    let called = 0;
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: { days: { type: 'integer', minimum: 1, maximum: 14 }, note: { type: 'string' } },
      required: ['days'],
    };
    server.registerTool('borrow', {
      title: 'Borrow',
      description: 'Borrows an item.',
      inputSchema: z.fromJSONSchema(schema).meta(schema),
      outputSchema: z.object({ status: z.number() }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    }, async () => {
      called++;
      return { structuredContent: { status: 200 }, content: [{ type: 'text', text: '{"status":200}' }], isError: false };
    });
    const session = await connected(server, StdioServerTransport);

    for (const [args, paths] of [
      [{}, ['/days']],
      [{ days: 30 }, ['/days']],
      [{ days: 'two' }, ['/days']],
      [{ days: 2, extra: true, other: 1 }, ['/extra', '/other']],
    ]) {
      const reply = await session.send('tools/call', { name: 'borrow', arguments: args });
      const result = reply.result;
      assert.equal(result.isError, true, JSON.stringify(reply));
      assert.equal(result.structuredContent, undefined, 'no structuredContent on an error result');
      assert.equal(result.content.length, 1);
      assert.equal(result.content[0].type, 'text');
      const toolError = JSON.parse(result.content[0].text);
      assert.deepEqual(Object.keys(toolError), ['code', 'message', 'details', 'retryable']);
      assert.equal(toolError.code, 'INVALID_INPUT');
      assert.equal(toolError.retryable, false);
      assert.equal(toolError.details.category, 'input');
      assert.equal(toolError.details.outcomeKnown, true);
      assert.deepEqual(toolError.details.errors.map((e) => e.path), paths, JSON.stringify(toolError));
      assert.match(toolError.message, /^invalid input: /);
    }
    assert.equal(called, 0, 'the callback never ran on refused arguments');

    const ok = await session.send('tools/call', { name: 'borrow', arguments: { days: 2 } });
    assert.equal(ok.result.isError, false);
    assert.deepEqual(ok.result.structuredContent, { status: 200 });
    assert.equal(called, 1);
    await server.close();
  });
});

// connected connects server to in-memory stdio framing, initializes, and
// returns send(method, params), which resolves with the reply.
async function connected(server, StdioServerTransport) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  await server.connect(new StdioServerTransport(stdin, stdout));
  const replies = [];
  let buffered = '';
  stdout.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      replies.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
    }
    stdout.emit('reply');
  });
  let id = 0;
  const send = async (method, params) => {
    const message = { jsonrpc: '2.0', id: ++id, method, params };
    stdin.write(JSON.stringify(message) + '\n');
    while (!replies.some((r) => r.id === message.id)) {
      await once(stdout, 'reply');
    }
    return replies.find((r) => r.id === message.id);
  };
  const initialized = await send('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
  stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  return { send, initialized };
}
