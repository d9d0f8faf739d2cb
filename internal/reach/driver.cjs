// The request recorder code2skill preloads into a package's MCP server
// (node --require) to see what each Tool call sends. Nothing leaves the
// process: globalThis.fetch is replaced by a recorder that answers every
// request itself. The server runs unchanged otherwise, and code2skill
// talks to it over stdio as a host does.
//
// A tools/call request whose params._meta holds "code2skill/reach" is a
// reachability call: {answer, pre, learn, markers, env, deadlineMs}.
// While it runs, the recorder keeps every request the server makes
// (method, URL, headers, body) and answers it as a backend would:
//
//   - a request answered before in the call other than as planned (the
//     same method and URL: a login repeated after a 401) as it was then;
//   - one pre lists (by method and URL) with that answer: the reads a
//     write makes before its own request, answered so that it goes on;
//   - one that carries a marker, or any when there are none, with the
//     planned answer: a status and a body (none for 204), or, with
//     fail, no response at all (fetch rejects, as on a reset connection);
//   - any other with 200 and a session cookie, as a login gets.
//
// With learn, every request is answered with a body that, once parsed
// (JSON.parse or response.json()), is a stand-in recording which members
// the Function reads: learn.values fixes the values found so far, by
// path ("<request>/<member>/…", the request its method and URL, encoded
// as a URI component); the paths read are reported back, for code2skill
// to find answers a Function's pre-checks accept.
//
// It applies the planned environment changes, turns process.exit into an
// error, and holds back whatever the server writes to stdout that is not
// a JSON-RPC message. The observation travels back in the response to
// that call, under result._meta["code2skill/reach"] (or error.data for a
// JSON-RPC error). A call that does not answer within its deadline is
// answered here, marked timedOut; one that sends more than MAX_REQUESTS
// requests (a loop) is answered at once, marked runaway, and its next
// request never settles, so that the loop stops. Judging is code2skill's.
'use strict';

const KEY = 'code2skill/reach';
const MAX_BODY = 64 * 1024;
const MAX_STDOUT_LINES = 20;
const MAX_REQUESTS = 50;
const MAX_READS = 400;
const MAX_DEPTH = 8;
// What a stand-in member turns into as text or a number: one value for all,
// so that two members a pre-check compares are equal.
const SAME = 'c2s-same';
const GENERIC = { status: 200, body: '{}' };

const originalExit = process.exit;
const originalParse = JSON.parse;
const stdout = process.stdout;
const originalWrite = stdout.write.bind(stdout);
const stdin = process.stdin;
const originalEmit = stdin.emit;

const calls = new Map(); // JSON-RPC id (as JSON text) -> call in progress
let current = null; // the call whose handler runs now
let strays = []; // requests made outside any call
const timedOut = new Set(); // calls answered here, whose late answer is dropped
let inBuffer = '';
let outBuffer = '';

function clip(text) {
  return text.length > MAX_BODY ? text.slice(0, MAX_BODY) : text;
}

// carries reports whether a request's text holds one of the call's markers.
function carries(call, parts) {
  if (!call || call.markers.length === 0) return false;
  let text = parts.join('\n');
  try {
    text += '\n' + decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    // a malformed escape: search the raw text only
  }
  text = text.toLowerCase();
  return call.markers.some((m) => text.includes(m));
}

async function record(input, init) {
  const request = new Request(input, init);
  const headers = {};
  for (const [name, value] of request.headers) headers[name] = value;
  let body;
  if (request.body !== null) {
    const bytes = Buffer.from(await request.arrayBuffer());
    body = clip(bytes.toString('utf8'));
  }
  return { method: request.method, url: request.url, headers, body };
}

// answerFor returns how the index-th request of a call is answered.
function answerFor(call, entry, index) {
  if (call.learn) {
    const body = JSON.stringify({ c2sLearn: `${call.key}-${index}` });
    call.learnReplies.set(body, encodeURIComponent(`${entry.method} ${entry.url}`));
    return { status: 200, body };
  }
  const same = call.given.find((g) => g.method === entry.method && g.url === entry.url);
  if (same) return same.answer;
  let answer = call.pre.find((p) => p.method === entry.method && p.url === entry.url);
  if (!answer) {
    const planned = call.markers.length === 0 || carries(call, [entry.url, entry.body ?? '', ...Object.values(entry.headers)]);
    if (planned) return call.answer;
    answer = GENERIC;
  }
  call.given.push({ method: entry.method, url: entry.url, answer });
  return answer;
}

// nullBody reports a status whose response has no body.
function nullBody(status) {
  return status === 101 || status === 204 || status === 205 || status === 304;
}

globalThis.fetch = async function fetch(input, init) {
  const call = current;
  let entry;
  try {
    entry = await record(input, init);
  } catch (error) {
    if (call && call.requests.length < MAX_REQUESTS) {
      call.requests.push({ invalid: String(error && error.message ? error.message : error) });
    }
    throw error;
  }
  if (!call) {
    if (strays.length < MAX_REQUESTS) strays.push(entry);
    throw new TypeError('fetch failed: no request may leave during validation');
  }
  if (call.count >= MAX_REQUESTS) {
    // A loop: answer the call now, and let this request never settle.
    call.runaway = true;
    expire(call);
    return new Promise(() => {});
  }
  const index = call.count++;
  call.requests.push(entry);
  const answer = answerFor(call, entry, index);
  if (answer.fail) {
    entry.failed = true;
    throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }) });
  }
  entry.answered = answer.status;
  entry.reply = answer.body ?? '';
  const response = new Response(nullBody(answer.status) ? null : answer.body ?? '', {
    status: answer.status,
    headers: { 'content-type': 'application/json', 'set-cookie': 'c2s-reach-session=reach; Path=/; HttpOnly' },
  });
  if (call.learn) {
    // Through the JSON.parse below, whatever this runtime's json() uses.
    response.json = async () => JSON.parse(await response.text());
  }
  return response;
};

// Learning what a Function reads of an answer: a parsed learn reply is a
// stand-in (a Proxy over an array, so that it serves as an object and as
// a list) that records each member read, by path, and answers it with the
// value learn.values fixes for that path or with a stand-in of its own.

const ARRAY_METHODS = new Set(
  Object.getOwnPropertyNames(Array.prototype).filter((n) => n !== 'constructor' && typeof Array.prototype[n] === 'function'),
);
const OBJECT_METHODS = new Set(['constructor', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', 'toString', 'valueOf']);

function note(call, path, kind) {
  const key = `${path}|${kind}`;
  if (call.noted.has(key) || call.reads.length >= MAX_READS) return;
  call.noted.add(key);
  call.reads.push({ path, kind });
}

function standIn(call, path) {
  const values = call.learn.values || {};
  if (Object.hasOwn(values, path)) {
    note(call, path, 'read');
    return values[path];
  }
  let proxy = call.proxies.get(path);
  if (proxy) return proxy;
  const depth = path.split('/').length;
  note(call, path, 'read');
  proxy = new Proxy([], {
    get(target, prop) {
      if (prop === Symbol.toPrimitive) {
        return () => {
          note(call, path, 'leaf');
          return SAME;
        };
      }
      if (prop === Symbol.iterator) {
        note(call, path, 'array');
        return Array.prototype[Symbol.iterator];
      }
      if (typeof prop === 'symbol' || prop === 'then' || prop === 'toJSON') return undefined;
      if (prop === 'length') {
        note(call, path, 'array');
        return depth > MAX_DEPTH ? 0 : 1;
      }
      if (OBJECT_METHODS.has(prop)) return Reflect.get(target, prop);
      if (ARRAY_METHODS.has(prop)) {
        note(call, path, 'array');
        return Array.prototype[prop];
      }
      if (depth > MAX_DEPTH) return undefined;
      return standIn(call, `${path}/${prop}`);
    },
    has(target, prop) {
      if (typeof prop !== 'string' || depth > MAX_DEPTH) return Reflect.has(target, prop);
      standIn(call, `${path}/${prop}`);
      return true;
    },
    set: () => true,
    deleteProperty: () => true,
  });
  call.proxies.set(path, proxy);
  return proxy;
}

JSON.parse = function parse(text, reviver) {
  const call = current;
  if (call && call.learn && typeof text === 'string') {
    const root = call.learnReplies.get(text.trim());
    if (root !== undefined) return standIn(call, root);
  }
  return Reflect.apply(originalParse, JSON, arguments);
};

process.exit = function exit(code) {
  if (current) {
    current.exit = code === undefined ? (process.exitCode ?? 0) : code;
    throw new Error(`process.exit(${code === undefined ? '' : code}) was called during a Tool call`);
  }
  return originalExit.call(process, code);
};

function applyEnv(call) {
  const saved = {};
  const env = call.env || {};
  for (const name of env.unset || []) {
    saved[name] = process.env[name];
    delete process.env[name];
  }
  for (const [name, value] of Object.entries(env.set || {})) {
    if (!(name in saved)) saved[name] = process.env[name];
    process.env[name] = value;
  }
  call.saved = saved;
}

function restoreEnv(call) {
  for (const [name, value] of Object.entries(call.saved || {})) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  call.saved = {};
}

function observation(call) {
  const out = { requests: call.requests, stdout: call.stdout, strays };
  if (call.exit !== undefined) out.exit = call.exit;
  if (call.timedOut) out.timedOut = true;
  if (call.runaway) out.runaway = true;
  if (call.learn) out.reads = call.reads;
  out.learns = true;
  strays = [];
  return out;
}

function finish(call) {
  clearTimeout(call.timer);
  restoreEnv(call);
  calls.delete(call.key);
  if (current === call) current = null;
}

// expire answers a call here, before the server does: it ran out of time,
// or it loops. The server's late answer is dropped.
function expire(call) {
  if (calls.get(call.key) !== call) return;
  timedOut.add(call.key);
  const result = { content: [], _meta: { [KEY]: observation(call) } };
  finish(call);
  originalWrite(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }) + '\n');
}

// A request arrives: note a reachability call before the server sees it.
function noteRequest(line) {
  if (!line.includes(KEY)) return;
  let msg;
  try {
    msg = originalParse(line);
  } catch {
    return;
  }
  const plan = msg && msg.method === 'tools/call' && msg.params && msg.params._meta && msg.params._meta[KEY];
  if (!plan || msg.id === undefined) return;
  const call = {
    key: JSON.stringify(msg.id),
    id: msg.id,
    answer: plan.answer || GENERIC,
    pre: Array.isArray(plan.pre) ? plan.pre : [],
    given: [],
    learn: plan.learn && typeof plan.learn === 'object' ? plan.learn : undefined,
    learnReplies: new Map(),
    proxies: new Map(),
    reads: [],
    noted: new Set(),
    markers: (plan.markers || []).map((m) => String(m).toLowerCase()),
    env: plan.env,
    count: 0,
    requests: [],
    stdout: [],
  };
  applyEnv(call);
  calls.set(call.key, call);
  current = call;
  call.timer = setTimeout(() => {
    call.timedOut = true;
    expire(call);
  }, plan.deadlineMs || 2000);
}

stdin.emit = function emit(event, chunk, ...rest) {
  if (event === 'data' && chunk !== undefined) {
    inBuffer += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    let nl;
    while ((nl = inBuffer.indexOf('\n')) >= 0) {
      noteRequest(inBuffer.slice(0, nl));
      inBuffer = inBuffer.slice(nl + 1);
    }
  }
  return originalEmit.call(this, event, chunk, ...rest);
};

// A line the server writes: the answer to a reachability call gets its
// observation; anything but JSON-RPC written during a call is held back.
function outLine(line) {
  const trimmed = line.trim();
  if (trimmed === '') return line + '\n';
  let msg;
  if (trimmed.startsWith('{')) {
    try {
      msg = originalParse(trimmed);
    } catch {
      msg = undefined;
    }
  }
  if (!msg || msg.jsonrpc !== '2.0') {
    if (current) {
      if (current.stdout.length < MAX_STDOUT_LINES) current.stdout.push(line.slice(0, 1024));
      return '';
    }
    return line + '\n';
  }
  if (msg.id === undefined || msg.method !== undefined) return line + '\n';
  const key = JSON.stringify(msg.id);
  const call = calls.get(key);
  if (!call) {
    // The late answer to a call answered here when it timed out.
    if (timedOut.delete(key)) return '';
    return line + '\n';
  }
  const obs = observation(call);
  finish(call);
  if (msg.result && typeof msg.result === 'object') {
    msg.result._meta = { ...(msg.result._meta || {}), [KEY]: obs };
  } else if (msg.error && typeof msg.error === 'object') {
    msg.error.data = { [KEY]: obs, data: msg.error.data };
  }
  return JSON.stringify(msg) + '\n';
}


stdout.write = function write(chunk, encoding, callback) {
  if (typeof encoding === 'function') {
    callback = encoding;
    encoding = undefined;
  }
  let text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  if (outBuffer !== '' && text.startsWith('{') && !outBuffer.trimStart().startsWith('{')) {
    // A fragment written without a newline before a message: its own line.
    text = '\n' + text;
  }
  outBuffer += text;
  let out = '';
  let nl;
  while ((nl = outBuffer.indexOf('\n')) >= 0) {
    out += outLine(outBuffer.slice(0, nl));
    outBuffer = outBuffer.slice(nl + 1);
  }
  if (out === '') {
    if (callback) process.nextTick(callback);
    return true;
  }
  return originalWrite(out, callback);
};
