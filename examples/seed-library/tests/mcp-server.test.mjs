// The MCP server as a host sees it, over a real SDK client session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from '../mcp-tool/server.mjs';
import { env, recordingFetch, forbiddenFetch, hangingFetch } from './helpers.mjs';

async function connect(context) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await createServer(context).connect(serverTransport);
  const client = new Client({ name: 'seed-library-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

test('tools/list shows every tool with open input schemas and no output schema', async () => {
  const client = await connect({ env, fetch: forbiddenFetch() });
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['search_seed_varieties', 'reserve_seed_packets', 'list_my_reservations', 'cancel_reservation']);
  for (const tool of tools) {
    assert.ok(tool.title && tool.description, `${tool.name} lacks a title or description`);
    assert.notEqual(tool.inputSchema.additionalProperties, false, `${tool.name} closes its input schema`);
    assert.equal(tool.outputSchema, undefined, `${tool.name} declares an output schema`);
  }
  assert.deepEqual(tools.map((t) => [t.annotations.readOnlyHint, t.annotations.destructiveHint]), [[true, false], [false, false], [true, false], [false, true]]);
  await client.close();
});

test('a call returns the HTTP result as structured content and text', async () => {
  const { fetch, calls } = recordingFetch(200, '{"varieties":[{"varietyId":"var-0001"}]}');
  const client = await connect({ env, fetch });
  const result = await client.callTool({ name: 'search_seed_varieties', arguments: { query: 'pea', unknownExtra: true } });
  assert.notEqual(result.isError, true);
  assert.deepEqual(result.structuredContent, { httpStatus: 200, bodyText: '{"varieties":[{"varietyId":"var-0001"}]}' });
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  assert.equal(calls.length, 1);
  await client.close();
});

test('a call without a configured service is a Tool error, not a crash', async () => {
  const client = await connect({ env: {}, fetch: forbiddenFetch() });
  const result = await client.callTool({ name: 'reserve_seed_packets', arguments: { selectedVariety: { varietyId: 'var-0001' }, packetCount: 1 } });
  assert.equal(result.isError, true);
  assert.match(result.content[0].text, /CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL/);
  await client.close();
});

test('a call the host cancels stops its request', async () => {
  const { fetch, started, aborted } = hangingFetch();
  const client = await connect({ env, fetch });
  const controller = new AbortController();
  const pending = client.callTool({ name: 'search_seed_varieties', arguments: {} }, undefined, { signal: controller.signal });
  await started;
  controller.abort('the user changed their mind');
  await assert.rejects(pending);
  // The server aborts the Function's request with the cancellation's reason.
  assert.equal(await aborted, 'the user changed their mind');
  await client.close();
});
