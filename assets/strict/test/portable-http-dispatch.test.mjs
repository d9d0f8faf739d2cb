// dispatchHttp against a real HTTP server on the loopback interface, inside
// this test process: every request the server receives is recorded, so that
// each test can say exactly what was sent, or that nothing was.

import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';

import { dispatchHostHttp, dispatchHttp } from '../portable-http-dispatch.mjs';
import { normalizeToolError } from '../portable-error-normalizer.mjs';

const readPolicy = { sideEffect: 'read', idempotency: 'safe', automaticRetry: 'read-only-bounded', confirmation: 'not-required', unknownOutcome: 'not-applicable' };
const createPolicy = { sideEffect: 'create', idempotency: 'at-most-once', automaticRetry: 'never', confirmation: 'not-required', unknownOutcome: 'stop-and-reconcile' };

// received holds every request the server got: method, URL, headers and the
// raw body; arrivals are the waiters of nextArrival.
let received = [];
let arrivals = [];
let server;
let origin;

// routes answer by path; /echo (the default) answers with what it received.
const routes = {
  '/json': (req, res) => send(res, 200, 'application/json', '{"kinds":["a","b"],"total":2}'),
  '/text': (req, res) => send(res, 200, 'text/plain; charset=utf-8', 'plain words, ü'),
  '/not-json': (req, res) => send(res, 200, 'application/json', '{"cut'),
  '/number': (req, res) => send(res, 200, 'text/plain', '42'),
  '/empty': (req, res) => { res.writeHead(204); res.end(); },
  '/created': (req, res) => send(res, 201, 'application/json', '{"id":"n-1"}'),
  '/rejected': (req, res) => send(res, 422, 'application/json', '{"error":"kind unknown"}'),
  '/redirect': (req, res) => { res.writeHead(302, { location: `${origin}/json` }); res.end('moved'); },
  '/slow': (req, res) => { setTimeout(() => send(res, 200, 'text/plain', 'late'), 5_000).unref(); },
  '/slow-body': (req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.write('start'); },
  '/reset': (req, res) => { req.socket.destroy(); },
  '/huge': (req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(1024 * 1024, 97);
    for (let i = 0; i < 17; i++) {
      res.write(chunk);
    }
    res.end();
  },
};

function send(res, status, type, text) {
  res.writeHead(status, { 'content-type': type });
  res.end(text);
}

before(async () => {
  server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record = { method: req.method, url: req.url, headers: req.headers, body };
      received.push(record);
      for (const arrived of arrivals.splice(0)) {
        arrived(record);
      }
      const route = routes[new URL(req.url, 'http://x').pathname];
      if (route) {
        route(req, res);
        return;
      }
      send(res, 200, 'application/json', JSON.stringify({ method: req.method, url: req.url, body: body.toString('utf8') }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  received = [];
});

// nextArrival resolves once the server has received the next request.
function nextArrival() {
  return new Promise((resolve) => arrivals.push(resolve));
}

const none = (extra = {}) => ({ method: 'GET', authentication: 'none', headers: {}, ...extra });

// rejects runs call and returns the error it throws with code.
async function rejects(call, code) {
  let thrown;
  try {
    await call();
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown, `expected ${code}, nothing was thrown`);
  assert.equal(thrown.code, code, `${thrown.code}: ${thrown.message}`);
  assert.equal(typeof thrown.message, 'string');
  assert.ok(thrown.details !== null && typeof thrown.details === 'object');
  assert.equal(typeof thrown.retryable, 'boolean');
  return thrown;
}

// formOf parses a recorded multipart body as the server's framework would.
async function formOf(record) {
  return new Response(record.body, { headers: { 'content-type': record.headers['content-type'] } }).formData();
}

describe('requests', () => {
  it('sends the method, lower-case headers, the query after the URL\'s own terms, and a JSON body', async () => {
    const result = await dispatchHttp(`${origin}/echo?mode=full`, {
      method: 'POST',
      authentication: 'none',
      headers: { Accept: 'application/json', 'X-Trace': 'trace-7', 'x-count': 3, 'x-flag': false, 'x-left-out': null },
      query: { page: { size: 2, of: { kind: 'a b' } }, tags: ['t1', null, 't&2', 3, true], empty: [], none: null, q: 'é/?' },
      body: { draft: { subject: 'Seed swap', tags: ['x'], note: null, n: 1.5 }, skipped: undefined },
    });
    assert.equal(received.length, 1, 'exactly one request');
    const [r] = received;
    assert.equal(r.method, 'POST');
    assert.equal(r.url, '/echo?mode=full&page%5Bsize%5D=2&page%5Bof%5D%5Bkind%5D=a%20b&tags=t1&tags=t%262&tags=3&tags=true&q=%C3%A9%2F%3F');
    assert.equal(r.headers.accept, 'application/json');
    assert.equal(r.headers['x-trace'], 'trace-7');
    assert.equal(r.headers['x-count'], '3');
    assert.equal(r.headers['x-flag'], 'false');
    assert.equal(r.headers['x-left-out'], undefined);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(r.body.toString('utf8')), { draft: { subject: 'Seed swap', tags: ['x'], note: null, n: 1.5 } });
    assert.equal(result.status, 200);
    assert.equal(result.data.method, 'POST');
  });

  for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']) {
    it(`sends ${method}`, async () => {
      const result = await dispatchHttp(`${origin}/echo`, none({ method }));
      assert.equal(received.length, 1);
      assert.equal(received[0].method, method);
      assert.equal(received[0].body.length, 0);
      assert.equal(result.status, 200);
      if (method === 'HEAD') {
        assert.equal(result.data, null, 'a HEAD answer has no body');
      }
    });
  }

  it('starts the query when the URL has none, and leaves out an empty one', async () => {
    await dispatchHttp(`${origin}/echo`, none({ query: { a: 1 } }));
    await dispatchHttp(`${origin}/echo?`, none({ query: { a: 1 } }));
    await dispatchHttp(`${origin}/echo?x=1`, none({ query: {} }));
    await dispatchHttp(`${origin}/echo#fragment`, none({ query: { none: null } }));
    assert.deepEqual(received.map((r) => r.url), ['/echo?a=1', '/echo?a=1', '/echo?x=1', '/echo']);
  });

  it('keeps a JSON content-type the request already has', async () => {
    await dispatchHttp(`${origin}/echo`, none({ method: 'PUT', headers: { 'Content-Type': 'application/merge-patch+json' }, body: [1] }));
    assert.equal(received[0].headers['content-type'], 'application/merge-patch+json');
    assert.equal(received[0].body.toString('utf8'), '[1]');
  });

  it('sends multipart text fields and file parts', async () => {
    await dispatchHttp(`${origin}/echo`, {
      method: 'POST',
      authentication: 'none',
      headers: {},
      multipart: {
        note: 'Bring labels',
        count: 2,
        urgent: true,
        photo: new File(['photo bytes'], 'leaf.jpg', { type: 'image/jpeg' }),
        blob: new Blob(['blob bytes'], { type: 'text/plain' }),
        bytes: new Uint8Array([1, 2, 3]),
        tags: ['a', 'b'],
        missing: null,
      },
    });
    assert.equal(received.length, 1);
    assert.match(received[0].headers['content-type'], /^multipart\/form-data; boundary=/);
    const form = await formOf(received[0]);
    assert.deepEqual([...form.keys()], ['note', 'count', 'urgent', 'photo', 'blob', 'bytes', 'tags', 'tags']);
    assert.equal(form.get('note'), 'Bring labels');
    assert.equal(form.get('count'), '2');
    assert.equal(form.get('urgent'), 'true');
    assert.deepEqual(form.getAll('tags'), ['a', 'b']);
    const photo = form.get('photo');
    assert.equal(photo.name, 'leaf.jpg');
    assert.equal(photo.type, 'image/jpeg');
    assert.equal(await photo.text(), 'photo bytes');
    assert.equal(await form.get('blob').text(), 'blob bytes');
    assert.deepEqual([...new Uint8Array(await form.get('bytes').arrayBuffer())], [1, 2, 3]);
  });
});

describe('responses', () => {
  const cases = [
    ['/json', 200, { kinds: ['a', 'b'], total: 2 }],
    ['/text', 200, 'plain words, ü'],
    ['/not-json', 200, '{"cut'],
    ['/number', 200, 42],
    ['/empty', 204, null],
    ['/created', 201, { id: 'n-1' }],
    ['/rejected', 422, { error: 'kind unknown' }],
  ];
  for (const [path, status, data] of cases) {
    it(`answers ${path} with {status: ${status}, data}`, async () => {
      const result = await dispatchHttp(origin + path, none());
      assert.deepEqual(result, { status, data });
      assert.deepEqual(Object.keys(result), ['status', 'data']);
    });
  }

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const result = await dispatchHttp(`${origin}/redirect`, none());
    assert.deepEqual(result, { status: 302, data: 'moved' });
    assert.deepEqual(received.map((r) => r.url), ['/redirect'], 'nothing was sent to the redirect target');
  });

  it('does not read a body larger than its limit', async () => {
    const error = await rejects(() => dispatchHttp(`${origin}/huge`, none()), 'UPSTREAM_RESPONSE_TOO_LARGE');
    assert.equal(error.outcomeKnown, undefined);
    assert.equal(error.details.status, 200);
    assert.equal(error.details.limit, 16 * 1024 * 1024);
  });
});

describe('time limit and cancellation', () => {
  it('gives up after the time limit, outcome unknown', async () => {
    // The server answers /slow only after 5 s: a timeout is the limit's.
    const error = await rejects(() => dispatchHttp(`${origin}/slow`, none({ timeoutMs: 200 })), 'UPSTREAM_TIMEOUT');
    assert.equal(received.length, 1, 'the request was sent');
    assert.equal(error.outcomeKnown, undefined);
    assert.equal(error.retryable, true, 'a GET may be retried');
    assert.equal(error.cause.name, 'TimeoutError');
  });

  it('covers the response body', async () => {
    const error = await rejects(() => dispatchHttp(`${origin}/slow-body`, none({ timeoutMs: 200 })), 'UPSTREAM_TIMEOUT');
    assert.equal(error.details.status, 200);
  });

  it('reports a timed-out write as not retryable, and the normalizer as an unknown outcome', async () => {
    const error = await rejects(() => dispatchHttp(`${origin}/slow`, none({ method: 'POST', body: {}, timeoutMs: 200 })), 'UPSTREAM_TIMEOUT');
    assert.equal(error.retryable, false);
    assert.equal(normalizeToolError(error, createPolicy).code, 'UNKNOWN_DISPATCH_OUTCOME');
  });

  it('stops when the caller cancels', async () => {
    // The caller cancels once the server has the request (which it
    // answers only after 5 s), or once the call ended without it.
    const controller = new AbortController();
    const arrived = nextArrival();
    const pending = rejects(() => dispatchHttp(`${origin}/slow`, none({ signal: controller.signal })), 'DISPATCH_ABORTED');
    await Promise.race([arrived, pending.catch(() => {})]);
    controller.abort();
    const error = await pending;
    assert.equal(received.length, 1);
    assert.equal(error.outcomeKnown, undefined);
    assert.equal(error.retryable, false);
  });

  it('sends nothing when the caller cancelled already', async () => {
    const error = await rejects(() => dispatchHttp(`${origin}/json`, none({ signal: AbortSignal.abort() })), 'DISPATCH_ABORTED');
    assert.equal(error.outcomeKnown, true);
    assert.equal(received.length, 0);
  });
});

describe('authentication', () => {
  for (const authentication of ['cookie_session', 'runtime_context', 'cookie_and_runtime_context', 'bearer', '', undefined, null, 7]) {
    it(`refuses ${JSON.stringify(authentication) ?? 'no'} authentication with zero requests`, async () => {
      const error = await rejects(() => dispatchHttp(`${origin}/json`, { method: 'POST', authentication, headers: {}, body: {} }),
        'HOST_AUTHENTICATION_REQUIRED');
      assert.equal(received.length, 0);
      assert.equal(error.outcomeKnown, true);
      assert.equal(error.retryable, false);
      assert.deepEqual(error.details, { authentication: typeof authentication === 'string' ? authentication : null });
      const tool = normalizeToolError(error, createPolicy);
      assert.equal(tool.code, 'HOST_AUTHENTICATION_REQUIRED', 'a refusal before sending is a known outcome, even for a write');
      assert.equal(tool.retryable, false);
    });
  }

  for (const header of ['Authorization', 'proxy-authorization', 'Cookie']) {
    it(`refuses the credential header ${header} with zero requests`, async () => {
      const error = await rejects(() => dispatchHttp(`${origin}/json`, none({ headers: { [header]: 'Bearer from-arguments' } })),
        'HOST_AUTHENTICATION_REQUIRED');
      assert.equal(received.length, 0);
      assert.equal(error.outcomeKnown, true);
      assert.equal(error.details.header, header.toLowerCase());
    });
  }
});

describe('requests sent on behalf of a Host', () => {
  it('adds the Host\'s credential headers to a request of any declared authentication', async () => {
    const answer = await dispatchHostHttp(`${origin}/json?page=2`, { method: 'GET', authentication: 'runtime_context', headers: { accept: 'application/json' } },
      { headers: { Authorization: 'Bearer host-held', 'x-desk-key': 'k-1' } });
    assert.deepEqual(answer, { status: 200, data: { kinds: ['a', 'b'], total: 2 } });
    assert.equal(received.length, 1);
    assert.equal(received[0].url, '/json?page=2');
    assert.equal(received[0].headers.authorization, 'Bearer host-held');
    assert.equal(received[0].headers['x-desk-key'], 'k-1');
    assert.equal(received[0].headers.accept, 'application/json');
  });

  it('lets the Host\'s header win over a Function\'s header of the same name', async () => {
    await dispatchHostHttp(`${origin}/json`, { method: 'GET', authentication: 'runtime_context', headers: { 'x-desk-key': 'from-arguments' } },
      { headers: { 'x-desk-key': 'host-held' } });
    assert.equal(received[0].headers['x-desk-key'], 'host-held');
  });

  it('still refuses a credential header from the Function, with zero requests', async () => {
    const error = await rejects(() => dispatchHostHttp(`${origin}/json`,
      { method: 'GET', authentication: 'runtime_context', headers: { Authorization: 'Bearer from-arguments' } },
      { headers: { authorization: 'Bearer host-held' } }), 'HOST_AUTHENTICATION_REQUIRED');
    assert.equal(received.length, 0);
    assert.equal(error.outcomeKnown, true);
  });

  for (const [what, authentication, credentials] of [
    ['an authentication that names no kind', '', { headers: {} }],
    ['no authentication at all', undefined, { headers: {} }],
    ['credentials that are not {headers}', 'runtime_context', { authorization: 'Bearer x' }],
    ['a credential value with a line break', 'runtime_context', { headers: { authorization: 'Bearer a\r\nx-injected: 1' } }],
    ['a credential header name that is not a token', 'runtime_context', { headers: { 'bad header': 'x' } }],
    ['a credential that is not a string', 'runtime_context', { headers: { authorization: 7 } }],
  ]) {
    it(`refuses ${what} with zero requests, naming no credential`, async () => {
      const error = await rejects(() => dispatchHostHttp(`${origin}/json`, { method: 'GET', authentication, headers: {} }, credentials),
        'DISPATCH_REQUEST_INVALID');
      assert.equal(received.length, 0);
      assert.equal(error.outcomeKnown, true);
      assert.doesNotMatch(error.message, /Bearer|x-injected/);
    });
  }
});

describe('transport failures', () => {
  // closedPort returns a loopback port nothing listens on.
  async function closedPort() {
    const probe = net.createServer();
    await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address();
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  it('reports a refused connection without outcomeKnown', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/notes?secret=kept-out`;
    const error = await rejects(() => dispatchHttp(url, none({ method: 'POST', body: { title: 't' } })), 'UPSTREAM_UNREACHABLE');
    assert.equal(error.outcomeKnown, undefined);
    assert.equal(error.retryable, false, 'a POST is not retried');
    assert.equal(error.cause.code, 'ECONNREFUSED');
    assert.equal(error.details.method, 'POST');
    assert.doesNotMatch(error.details.path, /secret/, 'the query stays out of the details');

    const write = normalizeToolError(error, createPolicy);
    assert.equal(write.code, 'UNKNOWN_DISPATCH_OUTCOME');
    assert.equal(write.retryable, false);
    assert.equal(write.details.cause.code, 'ECONNREFUSED');

    const readError = await rejects(() => dispatchHttp(url, none()), 'UPSTREAM_UNREACHABLE');
    assert.equal(readError.retryable, true);
    const read = normalizeToolError(readError, readPolicy);
    assert.equal(read.code, 'UPSTREAM_UNREACHABLE');
    assert.equal(read.retryable, true, 'a bounded read may be retried');
  });

  it('never tells the agent where the deployment is', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/api/notes`;
    const logged = [];
    const log = console.error;
    console.error = (line) => logged.push(line);
    let error;
    try {
      error = await rejects(() => dispatchHttp(url, none()), 'UPSTREAM_UNREACHABLE');
    } finally {
      console.error = log;
    }
    for (const result of [normalizeToolError(error, readPolicy), normalizeToolError(error, createPolicy)]) {
      const seen = JSON.stringify(result);
      assert.doesNotMatch(seen, /127\.0\.0\.1/, 'the address stays out of the result');
      assert.doesNotMatch(seen, new RegExp(String(port)), 'the port stays out of the result');
      assert.match(seen, /\/api\/notes/, 'the path still says which request failed');
    }
    assert.equal(error.details.path, '/api/notes');
    assert.ok(logged.some((line) => line.includes(url)), `the server's log names the address: ${logged}`);
  });

  it('reports a connection dropped after the request without outcomeKnown', async () => {
    const error = await rejects(() => dispatchHttp(`${origin}/reset`, none({ method: 'DELETE' })), 'UPSTREAM_UNREACHABLE');
    assert.equal(received.length, 1, 'the request reached the server');
    assert.equal(error.outcomeKnown, undefined);
    assert.equal(normalizeToolError(error, { ...createPolicy, sideEffect: 'delete' }).code, 'UNKNOWN_DISPATCH_OUTCOME');
  });
});

describe('requests refused before sending', () => {
  const cases = [
    ['no options', () => [undefined]],
    ['options that are not a plain object', () => [new Map()]],
    ['an unknown option', () => [none({ credentials: 'include' })]],
    ['a relative URL', () => [none(), '/api/notes']],
    ['a URL that is not a string', () => [none(), new URL('http://127.0.0.1/')]],
    ['a file URL', () => [none(), 'file:///etc/passwd']],
    ['a URL with credentials', () => [none(), `http://user:pass@127.0.0.1:9/`]],
    ['an unknown method', () => [none({ method: 'TRACE' })]],
    ['a lower-case method', () => [none({ method: 'get' })]],
    ['headers that are not an object', () => [none({ headers: [['a', 'b']] })]],
    ['a header holding an object', () => [none({ headers: { 'x-a': { b: 1 } } })]],
    ['a header holding a line break', () => [none({ headers: { 'x-a': 'a\r\nx-b: c' } })]],
    ['a header name that is not a token', () => [none({ headers: { 'x a': 'b' } })]],
    ['a header given twice', () => [none({ headers: { 'X-A': '1', 'x-a': '2' } })]],
    ['a query that is not an object', () => [none({ query: 'a=1' })]],
    ['an array of objects in the query', () => [none({ query: { a: [{ b: 1 }] } })]],
    ['a non-finite number in the query', () => [none({ query: { a: Infinity } })]],
    ['a function in the query', () => [none({ query: { a: () => 1 } })]],
    ['a lone surrogate in the query', () => [none({ query: { a: '\ud800' } })]],
    ['a body on GET', () => [none({ body: {} })]],
    ['a multipart body on HEAD', () => [none({ method: 'HEAD', multipart: {} })]],
    ['a JSON and a multipart body', () => [none({ method: 'POST', body: {}, multipart: {} })]],
    ['a body with NaN', () => [none({ method: 'POST', body: { a: NaN } })]],
    ['a body with a BigInt', () => [none({ method: 'POST', body: { a: 1n } })]],
    ['a body with a Date', () => [none({ method: 'POST', body: { a: new Date(0) } })]],
    ['a body with a Blob', () => [none({ method: 'POST', body: { a: new Blob(['x']) } })]],
    ['a body with an accessor', () => [none({ method: 'POST', body: Object.defineProperty({}, 'a', { get: () => 1, enumerable: true }) })]],
    ['a body under a form content-type', () => [none({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: { a: 1 } })]],
    ['a multipart body with a content-type', () => [none({ method: 'POST', headers: { 'content-type': 'multipart/form-data' }, multipart: { a: '1' } })]],
    ['a multipart field holding an object', () => [none({ method: 'POST', multipart: { a: { b: 1 } } })]],
    ['a multipart field holding nested arrays', () => [none({ method: 'POST', multipart: { a: [['b']] } })]],
    ['a signal that is not an AbortSignal', () => [none({ signal: {} })]],
    ['a time limit of zero', () => [none({ timeoutMs: 0 })]],
    ['a time limit that is not whole', () => [none({ timeoutMs: 1.5 })]],
  ];
  for (const [what, args] of cases) {
    it(`refuses ${what}`, async () => {
      const [options, url = `${origin}/echo`] = args();
      const error = await rejects(() => dispatchHttp(url, options), 'DISPATCH_REQUEST_INVALID');
      assert.equal(error.outcomeKnown, true, 'nothing was sent');
      assert.equal(error.retryable, false);
      assert.match(error.message, /nothing was sent/);
      assert.equal(received.length, 0);
    });
  }
});
