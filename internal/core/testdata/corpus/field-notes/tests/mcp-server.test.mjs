// The MCP server as a host sees it, through a real SDK client session.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

import { createServer } from '../mcp-tool/server.mjs';
import { contextWith, env, forbiddenFetch, hangingFetch, recordingFetch, unreachableFetch, secrets } from './helpers.mjs';

async function connect(context) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await createServer(context).connect(serverTransport);
  const client = new Client({ name: 'field-notes-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

test('tools/list shows every Tool with open input and no output schema', async () => {
  const client = await connect(contextWith(forbiddenFetch));
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['list_notes', 'list_feed', 'list_comments', 'add_comment', 'edit_comment', 'delete_comment', 'follow_author', 'unfollow_author']);
  for (const tool of tools) {
    assert.ok(tool.title && tool.description, `${tool.name} needs a title and a description`);
    assert.notEqual(tool.inputSchema.additionalProperties, false, `${tool.name} closes its input schema`);
    assert.equal(tool.outputSchema, undefined, `${tool.name} declares an output schema`);
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
      assert.equal(typeof tool.annotations?.[hint], 'boolean', `${tool.name} lacks ${hint}`);
    }
  }
  await client.close();
});

test('a call returns the HTTP result unchanged, whatever its status', async () => {
  const { fetch } = recordingFetch(503, 'try again later');
  const client = await connect(contextWith(fetch));
  const result = await client.callTool({ name: 'list_notes', arguments: { query: 7, unknownExtra: true } });
  assert.notEqual(result.isError, true);
  assert.deepEqual(result.structuredContent, { httpStatus: 503, bodyText: 'try again later' });
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  await client.close();
});

test('a call that obtains no response is a Tool error with a readable cause', async () => {
  const client = await connect(contextWith(unreachableFetch));
  const result = await client.callTool({ name: 'list_notes', arguments: {} });
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent.error.cause.code, 'ENOTFOUND');
  await client.close();
});

test('a call without a configured service names the missing variable', async () => {
  const client = await connect(contextWith(forbiddenFetch, { env: {} }));
  const result = await client.callTool({ name: 'list_notes', arguments: {} });
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent.error.details.variable, 'CODE2SKILL_FIELD_NOTES_NOTES_BASE_URL');
  await client.close();
});

test('a call the host cancels stops its request', async () => {
  const { fetch, started, aborted } = hangingFetch();
  const client = await connect(contextWith(fetch));
  const controller = new AbortController();
  const pending = client.callTool({ name: 'list_notes', arguments: {} }, undefined, { signal: controller.signal });
  await started;
  controller.abort('the user changed their mind');
  await assert.rejects(pending);
  // The server aborts the Function's request with the cancellation's reason.
  assert.equal(await aborted, 'the user changed their mind');
  await client.close();
});

test('no result or Tool error carries a credential', async () => {
  const texts = [];
  for (const fetch of [recordingFetch(200, '{"items":[]}').fetch, recordingFetch(401, '{"error":"denied"}').fetch, unreachableFetch]) {
    const client = await connect(contextWith(fetch));
    const result = await client.callTool({ name: 'list_notes', arguments: { query: 'x' } });
    texts.push(JSON.stringify(result));
    await client.close();
  }
  for (const secret of secrets) {
    assert.ok(!texts.some((text) => text.includes(secret)), 'a result carries a credential');
  }
});
