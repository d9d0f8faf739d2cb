// The request recorder code2skill preloads into a package's MCP server
// (node --require) to see what each Tool call sends. Nothing leaves the
// process: globalThis.fetch is replaced by a recorder that answers every
// request itself. The server runs unchanged otherwise, and code2skill
// talks to it over stdio as a host does.
//
// A tools/call request whose params._meta holds "code2skill/reach" is a
// reachability call: {answer, markers, env, deadlineMs}. While it runs,
// the recorder keeps every request the server makes (method, URL,
// headers, body), answers the ones that carry one of the call's markers
// with the planned status and body (others with 200 and a session cookie,
// as a login gets), applies the planned environment changes, turns
// process.exit into an error, and holds back whatever the server writes to
// stdout that is not a JSON-RPC message. The observation travels back in
// the response to that call, under result._meta["code2skill/reach"] (or
// error.data for a JSON-RPC error); a call that does not answer within its
// deadline is answered here, marked timedOut. Judging is code2skill's.
'use strict';

const KEY = 'code2skill/reach';
const MAX_BODY = 64 * 1024;
const MAX_STDOUT_LINES = 20;
const MAX_REQUESTS = 50;

const originalExit = process.exit;
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
  if (call.requests.length < MAX_REQUESTS) call.requests.push(entry);
  const planned = carries(call, [entry.url, entry.body ?? '', ...Object.values(entry.headers)]) || call.markers.length === 0;
  const answer = planned ? call.answer : { status: 200, body: '{}' };
  entry.answered = answer.status;
  entry.reply = answer.body;
  return new Response(answer.body, {
    status: answer.status,
    headers: { 'content-type': 'application/json', 'set-cookie': 'c2s-reach-session=reach; Path=/; HttpOnly' },
  });
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
  strays = [];
  return out;
}

function finish(call) {
  clearTimeout(call.timer);
  restoreEnv(call);
  calls.delete(call.key);
  if (current === call) current = null;
}

// A request arrives: note a reachability call before the server sees it.
function noteRequest(line) {
  if (!line.includes(KEY)) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  const plan = msg && msg.method === 'tools/call' && msg.params && msg.params._meta && msg.params._meta[KEY];
  if (!plan || msg.id === undefined) return;
  const call = {
    key: JSON.stringify(msg.id),
    id: msg.id,
    answer: plan.answer || { status: 200, body: '{}' },
    markers: (plan.markers || []).map((m) => String(m).toLowerCase()),
    env: plan.env,
    requests: [],
    stdout: [],
  };
  applyEnv(call);
  calls.set(call.key, call);
  current = call;
  call.timer = setTimeout(() => {
    call.timedOut = true;
    timedOut.add(call.key);
    const result = { content: [], _meta: { [KEY]: observation(call) } };
    finish(call);
    originalWrite(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }) + '\n');
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
      msg = JSON.parse(trimmed);
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
