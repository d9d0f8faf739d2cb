import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

import {
  httpResultFromError,
  readHttpResponse,
  toAgentError,
  toAgentResult,
} from '../portable-agent-result.mjs';

// networkError builds what Node's fetch throws when a host does not resolve:
// a TypeError whose cause is the system error.
function networkError() {
  const cause = Object.assign(new Error('getaddrinfo ENOTFOUND orders.invalid'), {
    code: 'ENOTFOUND',
    errno: -3008,
    syscall: 'getaddrinfo',
    hostname: 'orders.invalid',
  });
  return new TypeError('fetch failed', { cause });
}

describe('toAgentResult', () => {
  it('passes an object through as structuredContent and its JSON text', () => {
    const value = { httpStatus: 404, bodyText: '{"message":"no such order"}' };
    const result = toAgentResult(value);
    assert.deepEqual(result.structuredContent, value);
    assert.deepEqual(JSON.parse(result.content[0].text), value);
    assert.equal(result.content[0].type, 'text');
    assert.equal(result.isError, undefined, 'an HTTP error status is a result, not a Tool error');
  });

  it('keeps key order and nested values unchanged', () => {
    const value = { z: 1, a: { list: [1, 'two', null, true], empty: {} } };
    const result = toAgentResult(value);
    assert.equal(result.content[0].text, '{"z":1,"a":{"list":[1,"two",null,true],"empty":{}}}');
    assert.deepEqual(Object.keys(result.structuredContent), ['z', 'a']);
  });

  it('returns strings as text without structuredContent', () => {
    const result = toAgentResult('plain text body');
    assert.deepEqual(result, { content: [{ type: 'text', text: 'plain text body' }] });
  });

  it('returns arrays and scalars as JSON text only', () => {
    assert.deepEqual(toAgentResult([1, 2]), { content: [{ type: 'text', text: '[1,2]' }] });
    assert.deepEqual(toAgentResult(0), { content: [{ type: 'text', text: '0' }] });
    assert.deepEqual(toAgentResult(undefined), { content: [{ type: 'text', text: 'null' }] });
    assert.deepEqual(toAgentResult(null), { content: [{ type: 'text', text: 'null' }] });
  });

  it('never throws on values JSON cannot carry', () => {
    const cyclic = { name: 'loop' };
    cyclic.self = cyclic;
    const shared = { id: 1 };
    const result = toAgentResult({
      cyclic,
      big: 12345678901234567890n,
      when: new Date(Date.UTC(2026, 0, 2)),
      gone: undefined,
      fn() {},
      nan: Number.NaN,
      twice: [shared, shared],
    });
    assert.deepEqual(result.structuredContent, {
      cyclic: { name: 'loop', self: '[Circular]' },
      big: '12345678901234567890',
      when: '2026-01-02T00:00:00.000Z',
      nan: null,
      twice: [{ id: 1 }, { id: 1 }],
    });
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  });

  it('never throws on a toJSON that returns its own object', () => {
    const selfish = { id: 7, toJSON() { return this; } };
    const result = toAgentResult({ item: selfish });
    assert.deepEqual(result.structuredContent, { item: { id: 7 } });
    assert.deepEqual(toAgentResult(selfish).structuredContent, { id: 7 });
  });

  it('calls toJSON once, as JSON.stringify does', () => {
    const inner = { toJSON: () => 'inner' };
    const outer = { toJSON: () => ({ value: 1, toJSON: () => 'never' }), nested: inner };
    const value = { outer, inner };
    assert.deepEqual(toAgentResult(value).structuredContent, JSON.parse(JSON.stringify(value)));
  });

  it('never throws on getters, toJSON or proxies that throw', () => {
    const value = {
      fine: 1,
      get broken() {
        throw new Error('getter');
      },
      failing: { toJSON() { throw new Error('toJSON'); } },
      trapped: new Proxy({}, { ownKeys() { throw new Error('trap'); } }),
    };
    assert.deepEqual(toAgentResult(value).structuredContent, {
      fine: 1,
      broken: '[Unreadable]',
      failing: '[Unreadable]',
      trapped: '[Unreadable]',
    });
  });

  it('never throws on a value nested deeper than the stack', () => {
    let deep = {};
    for (let i = 0; i < 200000; i++) {
      deep = { deep };
    }
    assert.deepEqual(toAgentResult(deep), { content: [{ type: 'text', text: '[Unreadable]' }] });
  });
});

describe('toAgentError', () => {
  it('describes a network failure with its cause chain and no stack', () => {
    const result = toAgentError(networkError());
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent, undefined, 'an error result carries no structuredContent');
    assert.deepEqual(payloadOf(result), {
      error: {
        name: 'TypeError',
        message: 'fetch failed',
        cause: {
          name: 'Error',
          message: 'getaddrinfo ENOTFOUND [hostname]',
          code: 'ENOTFOUND',
          errno: -3008,
          syscall: 'getaddrinfo',
        },
      },
    });
    assert.doesNotMatch(result.content[0].text, /stack|\.mjs/);
  });

  it('does not say where the request went', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:8443'), {
      code: 'ECONNREFUSED',
      errno: -111,
      syscall: 'connect',
      address: '10.1.2.3',
      port: 8443,
    });
    const result = toAgentError(new TypeError('fetch failed', { cause: refused }));
    assert.deepEqual(payloadOf(result).error.cause, {
      name: 'Error',
      message: 'connect ECONNREFUSED [address]:[port]',
      code: 'ECONNREFUSED',
      errno: -111,
      syscall: 'connect',
    });
    assert.doesNotMatch(result.content[0].text, /10\.1\.2\.3|8443|hostname|address"|port"/);
    const slow = Object.assign(new Error('timed out after 1800 ms on port 80'), { port: 80 });
    assert.equal(payloadOf(toAgentError(slow)).error.message, 'timed out after 1800 ms on port [port]');
    assert.deepEqual(payloadOf(toAgentError({ host: 'orders.internal', reason: 'down' })), {
      error: { name: 'Error', message: '{"reason":"down"}' },
    });
  });

  it('keeps a code and details the Function attached', () => {
    const error = Object.assign(new Error('CODE2SKILL_SAMPLE_API_BASE_URL is not set'), {
      code: 'BASE_URL_MISSING',
      details: { variable: 'CODE2SKILL_SAMPLE_API_BASE_URL' },
    });
    assert.deepEqual(payloadOf(toAgentError(error)).error, {
      name: 'Error',
      message: 'CODE2SKILL_SAMPLE_API_BASE_URL is not set',
      code: 'BASE_URL_MISSING',
      details: { variable: 'CODE2SKILL_SAMPLE_API_BASE_URL' },
    });
  });

  it('lists the errors of an AggregateError', () => {
    const error = new AggregateError([new Error('first'), new Error('second')], 'all attempts failed');
    const described = payloadOf(toAgentError(error)).error;
    assert.equal(described.name, 'AggregateError');
    assert.deepEqual(described.errors.map((e) => e.message), ['first', 'second']);
  });

  it('bounds the depth of nested causes', () => {
    let error = new Error('level 0');
    for (let i = 1; i <= 10; i++) {
      error = new Error(`level ${i}`, { cause: error });
    }
    let depth = 0;
    for (let e = payloadOf(toAgentError(error)).error; e.cause; e = e.cause) {
      depth++;
    }
    assert.equal(depth, 4);
  });

  it('accepts anything that can be thrown', () => {
    assert.deepEqual(payloadOf(toAgentError('boom')), { error: { name: 'Error', message: 'boom' } });
    assert.deepEqual(payloadOf(toAgentError(undefined)), { error: { name: 'Error', message: 'undefined' } });
    assert.deepEqual(payloadOf(toAgentError({ reason: 'busy' })), {
      error: { name: 'Error', message: '{"reason":"busy"}' },
    });
    const hostile = new Proxy({}, {
      get() {
        throw new Error('trap');
      },
    });
    assert.deepEqual(payloadOf(toAgentError(hostile)), {
      error: { name: 'Error', message: 'the thrown value could not be read' },
    });
  });
});

describe('readHttpResponse', () => {
  for (const status of [200, 201, 302, 400, 404, 409, 500, 503]) {
    it(`reads status ${status} and its body`, async () => {
      const response = new Response(`body of ${status}`, { status });
      assert.deepEqual(await readHttpResponse(response), { httpStatus: status, bodyText: `body of ${status}` });
    });
  }

  it('reads an empty body as the empty string', async () => {
    assert.deepEqual(await readHttpResponse(new Response(null, { status: 204 })), { httpStatus: 204, bodyText: '' });
  });

  it('reads the full body, however large', async () => {
    const body = 'x'.repeat(3 * 1024 * 1024) + 'end';
    const { bodyText } = await readHttpResponse(new Response(body, { status: 200 }));
    assert.equal(bodyText.length, body.length);
    assert.ok(bodyText.endsWith('end'));
  });

  it('decodes UTF-8 bodies', async () => {
    const { bodyText } = await readHttpResponse(new Response('{"name":"Ünïcødé ✓"}', { status: 200 }));
    assert.equal(bodyText, '{"name":"Ünïcødé ✓"}');
  });

  it('rejects something that is not a response', async () => {
    await assert.rejects(readHttpResponse({ ok: true }), TypeError);
    await assert.rejects(readHttpResponse(undefined), TypeError);
    await assert.rejects(readHttpResponse({ status: 42, text: async () => '' }), TypeError);
  });
});

describe('httpResultFromError', () => {
  it('reads the fetch Response a ky-style HTTPError carries', async () => {
    const error = Object.assign(new Error('Request failed with status code 409'), {
      response: new Response('{"code":"DUPLICATE"}', { status: 409 }),
    });
    assert.deepEqual(await httpResultFromError(error), { httpStatus: 409, bodyText: '{"code":"DUPLICATE"}' });
  });

  it('reads an axios-style response with parsed JSON data', async () => {
    const error = Object.assign(new Error('Request failed with status code 422'), {
      response: { status: 422, statusText: 'Unprocessable Entity', data: { field: 'quantity', reason: 'too large' } },
    });
    assert.deepEqual(await httpResultFromError(error), {
      httpStatus: 422,
      bodyText: '{"field":"quantity","reason":"too large"}',
    });
  });

  it('reads an axios-style response with text and byte data', async () => {
    const text = { response: { status: 500, data: 'internal failure' } };
    assert.deepEqual(await httpResultFromError(text), { httpStatus: 500, bodyText: 'internal failure' });
    const bytes = { response: { status: 502, data: new TextEncoder().encode('bad gateway').buffer } };
    assert.deepEqual(await httpResultFromError(bytes), { httpStatus: 502, bodyText: 'bad gateway' });
  });

  it('reads a got-style response with statusCode and a Buffer body', async () => {
    const error = { name: 'HTTPError', response: { statusCode: 404, body: Buffer.from('not found') } };
    assert.deepEqual(await httpResultFromError(error), { httpStatus: 404, bodyText: 'not found' });
  });

  it('reads a superagent-style response with raw text', async () => {
    const error = { status: 403, response: { status: 403, text: '{"message":"forbidden"}', body: { message: 'forbidden' } } };
    assert.deepEqual(await httpResultFromError(error), { httpStatus: 403, bodyText: '{"message":"forbidden"}' });
  });

  it('reads the parsed data of an ofetch-style consumed Response', async () => {
    const response = new Response('{"busy":true}', { status: 503 });
    response._data = await response.clone().json();
    await response.text(); // ofetch has read the body before throwing
    assert.deepEqual(await httpResultFromError({ response }), { httpStatus: 503, bodyText: '{"busy":true}' });
  });

  it('reads a thrown fetch Response', async () => {
    assert.deepEqual(await httpResultFromError(new Response('gone', { status: 410 })), {
      httpStatus: 410,
      bodyText: 'gone',
    });
  });

  it('returns undefined when no response was obtained', async () => {
    assert.equal(await httpResultFromError(networkError()), undefined);
    assert.equal(await httpResultFromError(new Error('socket hang up')), undefined);
    assert.equal(await httpResultFromError({ response: { statusText: 'no status' } }), undefined);
    assert.equal(await httpResultFromError({ response: null }), undefined);
    assert.equal(await httpResultFromError('boom'), undefined);
    assert.equal(await httpResultFromError(undefined), undefined);
  });
});

// The projections must be what the official SDK accepts and a real client
// reads back, not only what these assertions expect.
describe('through the MCP SDK', () => {
  async function connect(handler, outputSchema) {
    const server = new McpServer({ name: 'agent-result-test', version: '1.0.0' });
    server.registerTool('sample_call', {
      title: 'Sample call',
      description: 'Runs the handler under test.',
      outputSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    }, handler);
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'agent-result-test-client', version: '1.0.0' });
    await client.connect(clientTransport);
    // A host lists the Tools first, and so learns each output schema the
    // client then checks results against.
    await client.listTools();
    return client;
  }

  it('delivers an HTTP 500 result as a normal result', async () => {
    const client = await connect(async () => toAgentResult(await readHttpResponse(new Response('down', { status: 500 }))));
    const result = await client.callTool({ name: 'sample_call', arguments: {} });
    assert.ok(!result.isError);
    assert.deepEqual(result.structuredContent, { httpStatus: 500, bodyText: 'down' });
    await client.close();
  });

  it('delivers a failure without response as isError from a Tool that declares an output schema', async () => {
    const output = z.looseObject({ httpStatus: z.number(), bodyText: z.string() });
    const client = await connect(async () => toAgentError(networkError()), output);
    const result = await client.callTool({ name: 'sample_call', arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(payloadOf(result).error.cause.code, 'ENOTFOUND');
    await client.close();
  });

  it('delivers a failure without response as isError', async () => {
    const client = await connect(async () => toAgentError(networkError()));
    const result = await client.callTool({ name: 'sample_call', arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent, undefined);
    assert.equal(payloadOf(result).error.cause.code, 'ENOTFOUND');
    await client.close();
  });
});

// payloadOf reads what an error result tells the agent: the JSON of its one
// text block.
function payloadOf(result) {
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  return JSON.parse(result.content[0].text);
}
