// portable-host-runtime.mjs: the reviewed host runtime of a strict-export-v1
// package, through which a standard MCP stdio host starts its server:
//
//   node /absolute/path/to/<package>/portable-host-runtime.mjs
//
// Reviewed once and copied byte-for-byte into every strict package whose
// export profile declares hostRuntime; edit the original, never a copy.
//
// A stdio host gives its server a command, arguments, a working directory
// and environment variables, and nothing else. A strict package's Functions
// need more from their host: context.dispatch, the only way their requests
// reach a backend; for a write guarded by a deterministic workflow, a
// PortableWorkflowGuard holding the protected operation; for a write that
// needs trusted confirmation, the user's answer. This module builds each
// call's trusted runtime context from the environment and from what happens
// in the MCP session, never from Tool arguments, and then loads the
// package's own server (mcp-tool/index.mjs) unchanged. What it does for each
// Tool is read from mcp-tool/host-runtime.json, which code2skill compile
// derives from the contract and the export profile:
//
//   - deployment address: each allowed runtime origin is served at the base
//     URL of its environment variable. A request to an origin the contract
//     does not allow, or whose variable is unset, empty or not an http(s)
//     URL, is refused before anything is sent; redirects are not followed;
//   - authentication injection: the credential of each authentication kind
//     comes from its environment variable and is sent in the header (and
//     scheme) the export profile declares, only on requests whose
//     authentication needs it and only to allowed origins;
//   - trusted confirmation: a write whose policy requires it asks the user
//     through MCP elicitation (form mode) before its Function runs. Accept
//     with the confirmation set proceeds; decline, cancel, an answer that
//     does not match the requested form, or a client that did not declare
//     the elicitation capability ends the call with a structured error and
//     nothing dispatched;
//   - session state: the MCP session is this process. When a Tool that
//     issues a workflow's protected values answers successfully, the
//     expected values are recorded from its result (and the input it was
//     issued for), never from the arguments the guard will check. A call of
//     the workflow's entry gets a fresh protected operation of the package's
//     own guard (portable-workflow-guard.mjs) with those values, single use
//     and expiry as the contract says. Another session never sees them;
//   - unknown outcomes: after a write ends with UNKNOWN_DISPATCH_OUTCOME,
//     every further call of that write in the session is refused before
//     dispatch until the user, asked through elicitation, states that the
//     earlier outcome was reconciled;
//   - one write at a time: a write called while another write of the session
//     runs is refused (HOST_WRITE_IN_PROGRESS), so that a race never decides
//     which one a protected value or a confirmation goes to;
//   - claims: the subject is the deployer's claim in its environment
//     variable; the session identifier is minted for this process.
//
// Every refusal is a structured Tool error ({code, message, details,
// retryable}) made by the package's error normalizer, and happens before
// anything is dispatched. It is returned as the package's own callbacks
// return their errors: the JSON of the one text block of an isError result,
// without structuredContent, which every MCP client returns to its caller
// whatever the Tool's output schema. With the dry-run variable set to
// "1", calls go to the server's dry-run branch with no host context at all.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { McpServer } from './mcp-tool/runtime.mjs';
import { normalizeToolError } from './portable-error-normalizer.mjs';

/**
 * HostRuntimeError is a call the runtime refused before anything was
 * dispatched, so the outcome is known.
 */
class HostRuntimeError extends Error {
  constructor(code, message, details = {}) {
    super(message);
    this.name = 'HostRuntimeError';
    this.code = code;
    this.details = details;
    this.retryable = false;
    this.outcomeKnown = true;
  }
}

const binding = JSON.parse(readFileSync(new URL('./mcp-tool/host-runtime.json', import.meta.url), 'utf8'));
if (binding.schemaVersion !== 'code2skill-host-runtime/v1') {
  throw new Error(`mcp-tool/host-runtime.json: schemaVersion ${JSON.stringify(binding.schemaVersion)} is not code2skill-host-runtime/v1`);
}

const { dispatchHostHttp } = binding.origins.length > 0 ? await import('./portable-http-dispatch.mjs') : {};
const guardModule = binding.workflows.length > 0 ? await import('./portable-workflow-guard.mjs') : undefined;

// ELICITATION_TIMEOUT_MS bounds how long a person may take to answer.
const ELICITATION_TIMEOUT_MS = 10 * 60 * 1000;
const UNKNOWN_DISPATCH_OUTCOME = 'UNKNOWN_DISPATCH_OUTCOME';

const tools = new Map(binding.tools.map((tool) => [tool.toolName, tool]));
const workflows = new Map(binding.workflows.map((workflow) => [workflow.workflowId, workflow]));
const allowedOrigins = new Set(binding.origins.map((o) => o.origin));

// The deployment, read once: a host sets the environment when it starts the
// server.
const baseURLs = new Map(binding.origins.map((o) => [o.origin, baseURLOf(o.baseUrlVariable)]));
const credentials = new Map(binding.credentials.map((c) => [c.authentication, credentialOf(c)]));
const subject = binding.subjectVariable === undefined ? undefined : claimOf(binding.subjectVariable);

// The session: this process serves one MCP session over stdio.
const session = {
  id: `session-${randomBytes(16).toString('hex')}`,
  guard: guardModule === undefined ? undefined : new guardModule.PortableWorkflowGuard(),
  issued: new Map(binding.workflows.map((w) => [w.workflowId, []])), // records, oldest first
  blocked: new Map(), // toolName -> the call whose outcome is unknown
  writing: undefined, // the toolName of the write running now
};

const registerTool = McpServer.prototype.registerTool;
McpServer.prototype.registerTool = function (name, toolConfig, callback) {
  if (typeof callback !== 'function') {
    return registerTool.apply(this, arguments);
  }
  const server = this.server;
  return registerTool.call(this, name, toolConfig, (input, extra) => handle(server, name, callback, input, extra));
};

await import('./mcp-tool/index.mjs');

// The session ends when the client closes stdin. fetch keeps idle
// connections to the backend open for a few seconds, which would keep node
// alive that long: the runtime ends the process instead.
process.stdin.on('end', () => setImmediate(() => process.exit(0)));

// handle runs one tools/call: the checks that must hold before anything is
// dispatched, then the package's own callback with the trusted context.
async function handle(server, name, callback, input, extra) {
  const signal = extra?.signal;
  if (process.env[binding.dryRunVariable] === '1') {
    return callback(input, Object.freeze({ signal }));
  }
  const tool = tools.get(name);
  if (tool === undefined) {
    return refusal({ operationPolicy: {} }, 'HOST_TOOL_UNKNOWN',
      `mcp-tool/host-runtime.json does not describe the Tool ${name}; compile the package again`, { toolName: name });
  }
  if (!tool.write) {
    return run(tool, callback, input, signal, {});
  }
  if (session.writing !== undefined) {
    return refusal(tool, 'HOST_WRITE_IN_PROGRESS',
      `${session.writing} is running in this session; a write is called only when no other write runs`,
      { toolName: tool.toolName, running: session.writing });
  }
  session.writing = tool.toolName;
  try {
    return await write(server, tool, callback, input, extra);
  } finally {
    session.writing = undefined;
  }
}

// write runs one call of a write Tool.
async function write(server, tool, callback, input, extra) {
  const unconfigured = configurationError(tool);
  if (unconfigured !== undefined) {
    return toolError(tool, unconfigured);
  }
  const unknown = session.blocked.get(tool.toolName);
  if (unknown !== undefined) {
    const answer = await ask(server, reconciliation, tool.reconciliation, unknown.input, extra);
    if (answer.error !== undefined) {
      return toolError(tool, answer.error);
    }
    session.blocked.delete(tool.toolName);
  }
  const claims = {};
  if (tool.confirmation !== undefined) {
    const answer = await ask(server, confirmation, tool.confirmation, input, extra);
    if (answer.error !== undefined) {
      return toolError(tool, answer.error);
    }
    claims.confirmationGrantId = `confirmation-${randomBytes(16).toString('hex')}`;
  }
  let operation;
  if (tool.workflowId !== undefined) {
    const prepared = protectOperation(workflows.get(tool.workflowId), input, claims);
    if (prepared.error !== undefined) {
      return toolError(tool, prepared.error);
    }
    operation = prepared.operation;
  }
  const call = {};
  try {
    const result = await run(tool, callback, input, extra?.signal, { ...claims, operation, call });
    if (operation?.record !== undefined && call.dispatched && workflows.get(tool.workflowId).singleUse) {
      operation.record.used = true;
    }
    if (errorCode(result) === UNKNOWN_DISPATCH_OUTCOME) {
      session.blocked.set(tool.toolName, { input });
    }
    return result;
  } finally {
    if (operation !== undefined) {
      session.guard.revoke(operation.operationKey);
    }
  }
}

// run calls the package's callback with the call's trusted context, and
// records what a successful result issues.
async function run(tool, callback, input, signal, { confirmationGrantId, operation, call = {} }) {
  const unconfigured = configurationError(tool);
  if (unconfigured !== undefined) {
    return toolError(tool, unconfigured);
  }
  const context = { dispatch: dispatcher(tool, call), sessionId: session.id };
  if (signal !== undefined) {
    context.signal = signal;
  }
  if (subject?.value !== undefined) {
    context.subjectId = subject.value;
  }
  if (confirmationGrantId !== undefined) {
    context.confirmationGrantId = confirmationGrantId;
  }
  if (tool.workflowId !== undefined) {
    context.workflowGuard = session.guard;
  }
  if (operation !== undefined) {
    context.protectedWorkflows = Object.freeze({
      [tool.workflowId]: Object.freeze({ operationKey: operation.operationKey }),
    });
  }
  const result = await callback(input, Object.freeze(context));
  if (result?.isError === false) {
    for (const workflowId of tool.issues ?? []) {
      record(workflows.get(workflowId), input, result.structuredContent?.data);
    }
  }
  return result;
}

// configurationError is why the Tool cannot be served as the deployment is
// configured: an origin without a usable base URL, an authentication kind
// without its credential, a subject claim the workflow needs and nobody
// gave. It is undefined when everything the Tool needs is there.
function configurationError(tool) {
  for (const origin of tool.origins) {
    const base = baseURLs.get(origin);
    if (base === undefined) {
      return new HostRuntimeError('HOST_ORIGIN_NOT_ALLOWED', `${origin} is not among the package's allowed runtime origins`, { origin });
    }
    if (base.error !== undefined) {
      return base.error;
    }
  }
  for (const kind of tool.authentication) {
    for (const part of kindParts(kind)) {
      const credential = credentials.get(part);
      if (credential === undefined) {
        return new HostRuntimeError('HOST_CREDENTIAL_MISSING',
          `the export profile declares no credential for ${part} authentication`, { authentication: part });
      }
      if (credential.error !== undefined) {
        return credential.error;
      }
    }
  }
  const workflow = tool.workflowId === undefined ? undefined : workflows.get(tool.workflowId);
  if (workflow?.bindings.some((b) => b.expected.kind === 'subject') && subject?.error !== undefined) {
    return subject.error;
  }
  return undefined;
}

// kindParts names the credentials an authentication kind needs.
function kindParts(kind) {
  return kind === 'cookie_and_runtime_context' ? ['cookie_session', 'runtime_context'] : [kind];
}

// dispatcher is the context.dispatch of one call: only to allowed origins
// the Tool calls, to where the deployment serves them, with the credentials
// of the request's authentication and no others.
function dispatcher(tool, call) {
  return async function dispatch(url, options = {}) {
    let target;
    try {
      target = new URL(url);
    } catch {
      throw new HostRuntimeError('HOST_DISPATCH_REFUSED', 'the request URL is not absolute; nothing was sent', {});
    }
    if (!allowedOrigins.has(target.origin) || !tool.origins.includes(target.origin)) {
      throw new HostRuntimeError('HOST_ORIGIN_NOT_ALLOWED',
        `${target.origin} is not an allowed runtime origin of ${tool.toolName}; nothing was sent`, { origin: target.origin });
    }
    const base = baseURLs.get(target.origin);
    if (base.error !== undefined) {
      throw base.error;
    }
    const authentication = options === null || typeof options !== 'object' ? undefined : options.authentication;
    const headers = {};
    if (authentication !== 'none') {
      if (!tool.authentication.includes(authentication)) {
        throw new HostRuntimeError('HOST_AUTHENTICATION_UNDECLARED',
          `${tool.toolName} declares no ${JSON.stringify(authentication)} authentication; nothing was sent`,
          { authentication: typeof authentication === 'string' ? authentication : null });
      }
      for (const part of kindParts(authentication)) {
        const credential = credentials.get(part);
        if (credential?.error !== undefined || credential === undefined) {
          throw credential?.error ?? new HostRuntimeError('HOST_CREDENTIAL_MISSING', `no credential for ${part} authentication`, { authentication: part });
        }
        for (const [name, value] of Object.entries(credential.headers)) {
          headers[name] = headers[name] === undefined ? value : `${headers[name]}; ${value}`;
        }
      }
    }
    const actual = new URL(base.url.href);
    actual.pathname = base.url.pathname.replace(/\/$/, '') + target.pathname;
    actual.search = target.search;
    call.dispatched = true;
    return dispatchHostHttp(actual.href, options, { headers });
  };
}

// What the user is asked for: the confirmation of a write, or that the
// unknown outcome of an earlier call was reconciled. Each names the codes
// of its refusals.
const confirmation = {
  what: 'trusted confirmation',
  unavailable: 'HOST_CONFIRMATION_UNAVAILABLE',
  declined: 'HOST_CONFIRMATION_DECLINED',
  cancelled: 'HOST_CONFIRMATION_CANCELLED',
  invalid: 'HOST_CONFIRMATION_INVALID',
  failed: 'HOST_CONFIRMATION_FAILED',
};
const reconciliation = {
  what: 'reconciliation of an earlier unknown outcome',
  unavailable: 'HOST_RECONCILIATION_REQUIRED',
  declined: 'HOST_RECONCILIATION_DECLINED',
  cancelled: 'HOST_RECONCILIATION_CANCELLED',
  invalid: 'HOST_RECONCILIATION_INVALID',
  failed: 'HOST_RECONCILIATION_FAILED',
};

// ask asks the user, through elicitation, to answer a form whose one
// boolean field must be true; shown is the call the question is about. It
// returns {} when the user answered true, or {error}.
async function ask(server, question, form, shown, extra) {
  const refuse = (code, message, details = {}) => ({ error: new HostRuntimeError(code, `${message}; nothing was sent`, details) });
  if (server.getClientCapabilities()?.elicitation?.form === undefined) {
    return refuse(question.unavailable,
      `this call needs the user's ${question.what}, and the MCP client did not declare the elicitation capability (form mode)`,
      { elicitation: 'unavailable' });
  }
  const field = Object.keys(form.requestedSchema.properties)[0];
  let answer;
  try {
    answer = await server.elicitInput({
      mode: 'form',
      message: `${form.message}\n\n${JSON.stringify(shown, null, 2)}`,
      requestedSchema: form.requestedSchema,
    }, { signal: extra?.signal, relatedRequestId: extra?.requestId, timeout: ELICITATION_TIMEOUT_MS });
  } catch (error) {
    if (error?.code === -32602) {
      return refuse(question.invalid, `the answer to the ${question.what} does not match the requested form`);
    }
    return refuse(question.failed, `the ${question.what} could not be asked: ${error?.message ?? String(error)}`);
  }
  switch (answer?.action) {
    case 'accept': {
      const content = answer.content;
      const keys = content !== null && typeof content === 'object' ? Object.keys(content) : [];
      if (keys.length !== 1 || keys[0] !== field || typeof content[field] !== 'boolean') {
        return refuse(question.invalid, `the answer to the ${question.what} does not match the requested form ({${field}: boolean})`);
      }
      if (content[field] !== true) {
        return refuse(question.declined, `the user did not give the ${question.what}`, { action: 'accept' });
      }
      return {};
    }
    case 'decline':
      return refuse(question.declined, `the user declined the ${question.what}`, { action: 'decline' });
    case 'cancel':
      return refuse(question.cancelled, `the user cancelled the ${question.what}`, { action: 'cancel' });
  }
  return refuse(question.invalid, `the answer to the ${question.what} has no known action`);
}

// record keeps the protected values a successful result of the workflow's
// issuer issued, with the input they were issued for.
function record(workflow, input, data) {
  const expected = {};
  for (const b of workflow.bindings) {
    const e = b.expected;
    if (e.kind === 'issuer-result') {
      const found = resolve(data, e.path);
      if (!found.found) {
        return; // the result does not carry the value: nothing is protected
      }
      expected[b.name] = found.value;
    } else if (e.kind === 'issuer-input') {
      const found = resolve(input, [e.inputName, ...e.path]);
      if (!found.found) {
        return;
      }
      expected[b.name] = derive(e.algorithm, found.value);
    }
  }
  const now = Date.now();
  session.issued.get(workflow.workflowId).push({
    expected,
    expiresAt: workflow.ttlSeconds === undefined ? undefined : now + workflow.ttlSeconds * 1000,
    used: false,
  });
}

// protectOperation protects the operation of one call of a workflow's
// entry: the issued record this call redeems (the newest unused one whose
// values the call carries, else the newest unused one, which the guard
// will refuse), the constants, the confirmation the user gave for this
// call, the subject and this session.
function protectOperation(workflow, input, claims) {
  if (workflow.recordable === false) {
    return { error: new HostRuntimeError('HOST_WORKFLOW_NOT_RECORDABLE',
      `this runtime cannot record the protected values of workflow ${workflow.workflowId}: ${workflow.unrecordable.join('; ')}`,
      { workflowId: workflow.workflowId }) };
  }
  let record;
  if (workflow.issuerToolName !== undefined) {
    const now = Date.now();
    const usable = session.issued.get(workflow.workflowId)
      .filter((r) => !r.used && (r.expiresAt === undefined || now < r.expiresAt))
      .reverse();
    record = usable.find((r) => carries(workflow, r, input)) ?? usable[0];
    if (record === undefined) {
      return {}; // no protected operation: the guard refuses the call
    }
  }
  const expectedValues = {};
  const bindingSources = {};
  for (const b of workflow.bindings) {
    bindingSources[b.name] = b.source;
    switch (b.expected.kind) {
      case 'issuer-result':
      case 'issuer-input':
        expectedValues[b.name] = record.expected[b.name];
        break;
      case 'constant':
        expectedValues[b.name] = b.expected.value;
        break;
      case 'confirmation':
        expectedValues[b.name] = claims.confirmationGrantId ?? null;
        break;
      case 'subject':
        expectedValues[b.name] = subject?.value ?? null;
        break;
      case 'session':
        expectedValues[b.name] = session.id;
        break;
    }
  }
  const operationKey = `op-${randomBytes(16).toString('hex')}`;
  session.guard.protect({
    workflowId: workflow.workflowId,
    operationKey,
    bindingSources,
    expectedValues,
    expiresAt: record?.expiresAt,
    singleUse: workflow.singleUse,
  });
  return { operation: { operationKey, record } };
}

// carries reports whether the input carries every value of the record that
// the input itself is checked against.
function carries(workflow, record, input) {
  for (const b of workflow.bindings) {
    if (b.expected.kind !== 'issuer-result' && b.expected.kind !== 'issuer-input') {
      continue;
    }
    const source = b.source;
    const found = resolve(input, [source.inputName, ...(source.path ?? [])]);
    if (!found.found) {
      return false;
    }
    const actual = source.kind === 'derived-calculation' ? derive(source.algorithm, found.value) : found.value;
    if (guardModule.canonicalPayloadDigest(actual) !== guardModule.canonicalPayloadDigest(record.expected[b.name])) {
      return false;
    }
  }
  return true;
}

// derive applies a binding's algorithm as the guard does.
function derive(algorithm, value) {
  return algorithm === 'canonical-json-sha256' ? guardModule.canonicalPayloadDigest(value) : value;
}

// resolve follows a path through own data properties.
function resolve(value, path) {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) {
      return { found: false };
    }
    current = current[segment];
  }
  return current === undefined ? { found: false } : { found: true, value: current };
}

// refusal is the structured Tool error of a refused call.
function refusal(tool, code, message, details) {
  return toolError(tool, new HostRuntimeError(code, message, details));
}

function toolError(tool, error) {
  const structured = normalizeToolError(error, tool.operationPolicy);
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], isError: true };
}

// errorCode is the code of the structured Tool error a callback returned
// (the JSON of its text block), or undefined when the result is no Tool
// error or carries none.
function errorCode(result) {
  if (result?.isError !== true || !Array.isArray(result.content)) {
    return undefined;
  }
  for (const block of result.content) {
    if (block?.type !== 'text' || typeof block.text !== 'string') {
      continue;
    }
    try {
      const parsed = JSON.parse(block.text);
      if (typeof parsed?.code === 'string') {
        return parsed.code;
      }
    } catch {
      // not JSON: not the structured error
    }
  }
  return undefined;
}

// baseURLOf reads the base URL of an origin: an http(s) URL without
// credentials, query or fragment. Its value never appears in an error.
function baseURLOf(variable) {
  const value = process.env[variable];
  if (value === undefined || value === '') {
    return { error: new HostRuntimeError('HOST_BASE_URL_MISSING',
      `the environment variable ${variable}, the backend's base URL, is not set; nothing was sent`, { variable }) };
  }
  let url;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' ||
      url.password !== '' || url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) {
    return { error: new HostRuntimeError('HOST_BASE_URL_INVALID',
      `the environment variable ${variable} must be an http(s) URL without credentials, query or fragment; nothing was sent`,
      { variable }) };
  }
  return { url };
}

// credentialOf reads the credential of one authentication kind and builds
// the header that carries it. Its value never appears in an error.
function credentialOf(c) {
  const value = process.env[c.variable];
  if (value === undefined || value === '') {
    return { error: new HostRuntimeError('HOST_CREDENTIAL_MISSING',
      `the environment variable ${c.variable}, the credential of ${c.authentication} authentication, is not set; nothing was sent`,
      { variable: c.variable, authentication: c.authentication }) };
  }
  if (!/^[\x21-\x7e]+$/.test(value)) {
    return { error: new HostRuntimeError('HOST_CREDENTIAL_INVALID',
      `the environment variable ${c.variable} must be visible ASCII characters without spaces; nothing was sent`,
      { variable: c.variable, authentication: c.authentication }) };
  }
  if (c.cookie !== undefined) {
    return { headers: { cookie: `${c.cookie}=${value}` } };
  }
  return { headers: { [c.header]: c.scheme === undefined ? value : `${c.scheme} ${value}` } };
}

// claimOf reads a claim the deployer states in an environment variable.
function claimOf(variable) {
  const value = process.env[variable];
  if (value === undefined || value === '') {
    return { error: new HostRuntimeError('HOST_SUBJECT_MISSING',
      `the environment variable ${variable}, the subject this deployment acts for, is not set; nothing was sent`, { variable }) };
  }
  return { value };
}
