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

  it('re-exports the official objects themselves', () => {
    assert.equal(entry.McpServer, sdkServer.McpServer);
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
    const send = async (message) => {
      stdin.write(JSON.stringify(message) + '\n');
      while (!replies.some((r) => r.id === message.id)) {
        await once(stdout, 'reply');
      }
      return replies.find((r) => r.id === message.id);
    };

    const init = await send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    assert.equal(init.result.protocolVersion, '2025-11-25');
    stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const list = await send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    assert.deepEqual(list.result.tools.map((t) => t.name), ['list_sample_kinds']);
    assert.deepEqual(list.result.tools[0].annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    await server.close();
  });
});
