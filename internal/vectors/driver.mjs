// vector-driver.mjs: runs the behaviour vectors code2skill planned for one
// strict package, in one node process, and reports what happened. It judges
// nothing: code2skill compares what it reports with the contract.
//
// The job arrives on stdin as JSON:
//
//   {marker, root, modules: {normalizer, guard, functionCore, adapter},
//    dryRunVariable, callTimeoutMs, calls: [...]}
//
// Each call runs a Function of the package's function-core/index.mjs, a Tool
// callback of its mcp-tool/index.mjs (registered through the stand-in server
// code2skill put in place of mcp-tool/runtime.mjs), or its error normaliser,
// with a context whose dispatch is a mock: it records every call and answers
// from the call's planned responses, and refuses any dispatch beyond them.
// Nothing reaches a network.
//
// Every report is one stdout line starting with the job's marker, so that
// whatever the package itself prints is told apart:
//
//   {"loading": "<module>"} before each import, {"load": {...}} after all,
//   {"start": id} before each call, {"id": id, "runs": [...]} after it,
//   {"done": true} at the end.

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const job = JSON.parse(readFileSync(0, 'utf8'));
const emit = (report) => {
  process.stdout.write(job.marker + JSON.stringify(report) + '\n');
};

const REFUSED = Symbol('code2skill.vectors.refused');
const TIMEOUT = Symbol('code2skill.vectors.timeout');
const ADAPTER = Symbol.for('code2skill.vectors.adapter');

// ---- modules ---------------------------------------------------------------

const modules = {};
const load = {};
for (const name of ['normalizer', 'guard', 'functionCore', 'adapter']) {
  const rel = job.modules[name];
  if (!rel) {
    load[name] = { status: 'absent' };
    continue;
  }
  emit({ loading: name });
  try {
    modules[name] = await within(import(pathToFileURL(job.root + '/' + rel).href));
    load[name] = { status: 'loaded' };
  } catch (error) {
    load[name] = error === TIMEOUT
      ? { status: 'timeout' }
      : { status: 'failed', error: describe(error) };
  }
}
const registry = globalThis[ADAPTER] ?? { tools: new Map() };
if (modules.adapter) {
  load.adapter.tools = [...registry.tools.keys()].sort();
}
emit({ load });

// ---- calls -----------------------------------------------------------------

// A capability whose call did not finish in time gets no further calls:
// each would wait as long again.
const stalled = new Set();
for (const call of job.calls) {
  emit({ start: call.id });
  const runs = [];
  if (stalled.has(call.scope)) {
    runs.push({ outcome: 'not-run', detail: `not run: an earlier call of ${call.scope} did not finish within the time limit`, dispatches: [] });
  } else {
    const context = makeContext(call);
    for (let i = 0; i < (call.repeat || 1); i++) {
      const r = await run(call, context);
      runs.push(r);
      if (r.outcome === 'timeout') {
        r.detail = `the call did not finish within the time limit (${job.callTimeoutMs} ms)`;
        stalled.add(call.scope);
        break;
      }
    }
  }
  emit({ id: call.id, runs });
}
// stdout may be a pipe the reader drains slower than the driver writes;
// node then queues the writes, and process.exit would drop what is still
// queued. Exit once the last report has reached the pipe.
process.stdout.write(job.marker + JSON.stringify({ done: true }) + '\n', () => process.exit(0));

// run performs one call of the target and reports its outcome.
async function run(call, context) {
  const log = context.log;
  log.dispatches = [];
  log.next = 0;
  const report = {};
  try {
    if (context.setupError) {
      return { outcome: 'setup-failed', error: context.setupError, dispatches: [] };
    }
    let value;
    switch (call.target) {
      case 'function': {
        const fn = modules.functionCore?.[call.export];
        if (typeof fn !== 'function') {
          return { outcome: 'unavailable', detail: unavailable('functionCore', `no exported Function ${call.export}`), dispatches: [] };
        }
        value = await within(fn(structuredClone(call.args), context.value));
        break;
      }
      case 'adapter': {
        const tool = registry.tools.get(call.tool);
        if (!modules.adapter || !tool) {
          return { outcome: 'unavailable', detail: unavailable('adapter', `no registered Tool ${call.tool}`), dispatches: [] };
        }
        const parsed = await parseArguments(tool.config, structuredClone(call.args));
        if (!parsed.ok) {
          return { outcome: 'arguments-refused', detail: parsed.detail, dispatches: [] };
        }
        if (call.dryRun) {
          process.env[job.dryRunVariable] = '1';
        } else {
          delete process.env[job.dryRunVariable];
        }
        try {
          value = await within(tool.callback(parsed.args, context.value));
        } finally {
          delete process.env[job.dryRunVariable];
        }
        break;
      }
      case 'normalizer': {
        const normalize = modules.normalizer?.normalizeToolError;
        if (typeof normalize !== 'function') {
          return { outcome: 'unavailable', detail: unavailable('normalizer', 'no exported normalizeToolError'), dispatches: [] };
        }
        value = normalize(makeError(call.thrown), call.policy);
        break;
      }
      default:
        throw new Error(`unknown target ${call.target}`);
    }
    report.outcome = 'returned';
    report.value = data(value);
  } catch (error) {
    if (error === TIMEOUT) {
      report.outcome = 'timeout';
    } else {
      report.outcome = 'threw';
      report.error = describe(error);
      const normalize = modules.normalizer?.normalizeToolError;
      if (call.policy !== undefined && typeof normalize === 'function') {
        try {
          report.normalized = data(normalize(error, call.policy));
        } catch (e) {
          report.normalizerThrew = describe(e);
        }
      }
    }
  }
  report.dispatches = log.dispatches;
  return report;
}

function unavailable(module, what) {
  const l = load[module];
  if (l && l.status !== 'loaded') {
    return `${job.modules[module] || module} ${l.status === 'absent' ? 'is absent' : l.status === 'timeout' ? 'did not finish loading' : 'could not be loaded'}`;
  }
  return what;
}

// makeContext builds the context a call's Function receives: the counted
// mock dispatch, resolved attachments, the runtime members the call is
// given (the user's confirmation), and the trusted side of a guarded
// workflow, as the call plans them.
function makeContext(call) {
  const log = { dispatches: [], next: 0 };
  const value = {
    dispatch: async (...args) => {
      log.dispatches.push(recordDispatch(args));
      const planned = (call.responses || [])[log.next++];
      if (!planned) {
        throw Object.assign(new Error('code2skill vectors: this dispatch was not expected'), { [REFUSED]: true });
      }
      if (planned.throw) {
        throw Object.assign(new Error(planned.throw.message), planned.throw);
      }
      return { status: planned.status, data: structuredClone(planned.data) };
    },
  };
  if (call.resolvedAttachments !== undefined) {
    value.resolvedAttachments = structuredClone(call.resolvedAttachments);
  }
  if (call.runtime !== undefined) {
    Object.assign(value, structuredClone(call.runtime));
  }
  const context = { log, value };
  if (call.trusted) {
    try {
      trust(call, value);
    } catch (error) {
      context.setupError = describe(error);
    }
  }
  return context;
}

// trust plays the trusted side of a workflow: a guard from the package's own
// portable-workflow-guard.mjs and, unless the vector leaves it out, one
// protected operation whose expected values are projected from the call's
// arguments and the synthetic runtime context (or, for the binding the
// vector perturbs, a value no call carries).
function trust(call, context) {
  const t = call.trusted;
  Object.assign(context, structuredClone(t.runtime || {}));
  if (t.omitGuard) {
    return;
  }
  const G = modules.guard;
  if (!G || typeof G.PortableWorkflowGuard !== 'function') {
    throw new Error(unavailable('guard', 'portable-workflow-guard.mjs exports no PortableWorkflowGuard'));
  }
  const guard = new G.PortableWorkflowGuard({ now: () => t.now });
  if (t.protect) {
    const expectedValues = {};
    for (const [name, source] of Object.entries(t.bindingSources)) {
      const found = project(source, call.args, context, G.canonicalPayloadDigest);
      expectedValues[name] = name === t.perturb ? { code2skillPerturbed: name } : found.found ? found.value : null;
    }
    const operation = { workflowId: t.workflowId, operationKey: t.operationKey, bindingSources: t.bindingSources, expectedValues, singleUse: !!t.singleUse };
    if (t.expiresAt !== undefined) {
      operation.expiresAt = t.expiresAt;
    }
    guard.protect(operation);
  }
  context.workflowGuard = guard;
  context.protectedWorkflows = { [t.workflowId]: { operationKey: t.operationKey } };
}

// project reads a binding's actual value the way the reference guard does.
function project(source, input, runtime, digest) {
  switch (source.kind) {
    case 'constant':
      return { found: true, value: source.value };
    case 'capability-input':
      return resolve(input, [source.inputName, ...(source.path ?? [])]);
    case 'runtime-context':
      return resolve(runtime, source.path ?? []);
    case 'derived-calculation': {
      const found = resolve(input, [source.inputName, ...(source.path ?? [])]);
      if (!found.found) {
        return found;
      }
      if (source.algorithm === 'canonical-json-sha256') {
        return typeof digest === 'function' ? { found: true, value: digest(found.value) } : { found: false };
      }
      return Array.isArray(found.value) ? found : { found: false };
    }
  }
  return { found: false };
}

function resolve(value, path) {
  let current = value;
  for (let i = 0; i < path.length; i++) {
    if (path[i] === '*') {
      if (!Array.isArray(current)) {
        return { found: false };
      }
      const items = [];
      for (const item of current) {
        const found = resolve(item, path.slice(i + 1));
        if (!found.found) {
          return found;
        }
        items.push(found.value);
      }
      return { found: true, value: items };
    }
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, path[i]) || current[path[i]] === undefined) {
      return { found: false };
    }
    current = current[path[i]];
  }
  return { found: true, value: current };
}

// recordDispatch records one dispatch: an HTTP request (url, options), or a
// guarded dispatch (the guard's checked input and operation descriptor).
function recordDispatch(args) {
  if (typeof args[0] === 'string') {
    return { form: 'http', url: args[0], options: data(args[1]) ?? null };
  }
  return { form: 'guarded', input: data(args[0]) ?? null, operation: data(args[1]) ?? null };
}

// parseArguments parses arguments with a Tool's inputSchema the way the MCP
// SDK does before it calls the callback: a zod schema, or a raw shape of
// zod schemas; anything else passes the arguments through.
async function parseArguments(config, args) {
  let schema = config && config.inputSchema;
  if (schema && typeof schema.safeParseAsync !== 'function' && typeof schema === 'object' && registry.z) {
    const values = Object.values(schema);
    if (values.length > 0 && values.every((v) => v && typeof v.safeParseAsync === 'function')) {
      schema = registry.z.object(schema);
    }
  }
  if (!schema || typeof schema.safeParseAsync !== 'function') {
    return { ok: true, args };
  }
  const result = await schema.safeParseAsync(args);
  if (!result.success) {
    return { ok: false, detail: String(result.error && result.error.message) };
  }
  return { ok: true, args: result.data };
}

function makeError(thrown) {
  const { message, ...rest } = thrown || {};
  return Object.assign(new Error(message), rest);
}

// within bounds an awaited call by the job's time limit.
async function within(promise) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(TIMEOUT), job.callTimeoutMs);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

// describe reports what a thrown value carries, without trusting it.
function describe(error) {
  if (error === null || typeof error !== 'object') {
    return { thrown: data(error) ?? null };
  }
  const out = {};
  for (const key of ['name', 'message', 'code', 'retryable', 'outcomeKnown', 'details']) {
    try {
      const v = data(error[key]);
      if (v !== undefined) {
        out[key] = v;
      }
    } catch {
      out[key] = { $unreadable: true };
    }
  }
  if (error[REFUSED] === true) {
    out.refusedDispatch = true;
  }
  return out;
}

// data copies a value into plain JSON data; what JSON cannot hold is kept
// as a {"$nonJson": "<kind>"} marker so that a comparison fails visibly.
function data(value, depth = 0, seen = new Set()) {
  switch (typeof value) {
    case 'undefined':
      return undefined;
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : { $nonJson: String(value) };
    case 'object':
      break;
    default:
      return { $nonJson: typeof value };
  }
  if (value === null) {
    return null;
  }
  if (depth > 64 || seen.has(value)) {
    return { $nonJson: 'cycle-or-too-deep' };
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item) => {
        const v = data(item, depth + 1, seen);
        return v === undefined ? null : v;
      });
    }
    if (typeof FormData === 'function' && value instanceof FormData) {
      const entries = {};
      for (const [k, v] of value.entries()) {
        entries[k] = typeof v === 'string' ? v : { $nonJson: 'blob' };
      }
      return { $formData: entries };
    }
    if (typeof Headers === 'function' && value instanceof Headers) {
      return Object.fromEntries(value.entries());
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      return { $nonJson: (value.constructor && value.constructor.name) || 'object' };
    }
    const out = {};
    for (const key of Object.keys(value)) {
      const v = data(value[key], depth + 1, seen);
      if (v !== undefined) {
        out[key] = v;
      }
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
