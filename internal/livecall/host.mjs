// host.mjs: the trusted host code2skill plays while it verifies a strict
// package at runtime. It is written next to a detached copy of the package,
// never into the package, and node runs it in place of mcp-tool/index.mjs.
//
// A stdio MCP session hands each Tool callback the SDK's request extras as
// its runtime context. A strict package's Functions need more from their
// host: context.dispatch(url, options), the only way their requests reach
// the network, and, for a write protected by a deterministic workflow, a
// PortableWorkflowGuard holding the protected operation. This module supplies
// exactly that, from config.json beside it, and then loads the package's own
// server unchanged: the adapter, the Functions, the guard and the error
// normalizer all run as shipped.
//
//   - context.dispatch sends a request only to an origin the export profile
//     allows, to where that origin is served for this run (config.origins),
//     adds the credentials the operator supplied for requests that need
//     authentication, follows no redirect, and answers {status, data};
//   - a protected operation is recorded with the guard the package ships
//     (portable-workflow-guard.mjs), with binding sources from the contract
//     and expected values from the trusted side of the live case, never from
//     the Tool arguments the guard then checks;
//   - every other member of the runtime context is the live case's trusted
//     claims (subjectId, sessionId, ...).

import { readFileSync } from 'node:fs';
import { McpServer } from '../mcp-tool/runtime.mjs';

const config = JSON.parse(readFileSync(new URL('./config.json', import.meta.url), 'utf8'));
const allowedOrigins = new Set(config.allowedOrigins);

let guard = null;
if (config.protections.length > 0) {
  const { PortableWorkflowGuard } = await import('../portable-workflow-guard.mjs');
  guard = new PortableWorkflowGuard();
  for (const protection of config.protections) {
    guard.protect(protection);
  }
}

// HostDispatchError is a request the host refused to send; nothing left the
// process, so the outcome is known.
class HostDispatchError extends Error {
  constructor(code, message, details) {
    super(message);
    this.name = 'HostDispatchError';
    this.code = code;
    this.details = details;
    this.retryable = false;
    this.outcomeKnown = true;
  }
}

function queryValue(value) {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function dispatcher(tool) {
  return async function dispatch(url, options = {}) {
    let target;
    try {
      target = new URL(url);
    } catch {
      throw new HostDispatchError('HOST_DISPATCH_REFUSED', 'the request URL is not absolute', { url: String(url) });
    }
    if (!allowedOrigins.has(target.origin)) {
      throw new HostDispatchError('HOST_DISPATCH_REFUSED',
        `${target.origin} is not among the export profile's allowed runtime origins`, { origin: target.origin });
    }
    const served = config.origins[target.origin];
    const actual = served === undefined ? new URL(target.href) : new URL(target.pathname + target.search, served);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined || value === null) {
        continue;
      }
      for (const item of Array.isArray(value) ? value : [value]) {
        actual.searchParams.append(key, queryValue(item));
      }
    }
    const headers = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      headers[name.toLowerCase()] = String(value);
    }
    if (options.authentication !== undefined && options.authentication !== 'none') {
      for (const [name, value] of Object.entries(tool.headers ?? {})) {
        headers[name.toLowerCase()] = value;
      }
    }
    let body;
    if (options.multipart !== undefined) {
      body = new FormData();
      for (const [name, value] of Object.entries(options.multipart)) {
        body.append(name, queryValue(value));
      }
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(actual, {
      method: options.method ?? 'GET',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(config.requestTimeoutMs),
    });
    const text = await response.text();
    let data = null;
    if (text !== '') {
      try {
        data = JSON.parse(text);
      } catch {
        data = text;
      }
    }
    return { status: response.status, data };
  };
}

function contextFor(name) {
  const tool = config.tools[name] ?? {};
  const context = { ...(tool.context ?? {}), dispatch: dispatcher(tool) };
  if (guard !== null) {
    context.workflowGuard = guard;
  }
  if (tool.workflow !== undefined) {
    context.protectedWorkflows = { [tool.workflow.workflowId]: { operationKey: tool.workflow.operationKey } };
  }
  return Object.freeze(context);
}

const registerTool = McpServer.prototype.registerTool;
McpServer.prototype.registerTool = function (name, toolConfig, callback) {
  if (typeof callback !== 'function') {
    return registerTool.apply(this, arguments);
  }
  return registerTool.call(this, name, toolConfig, (input) => callback(input, contextFor(name)));
};

await import('../mcp-tool/index.mjs');

// The session ends when the client closes stdin. fetch keeps idle
// connections to the backend open for a few seconds, which would keep node
// alive that long; the host ends the process instead, as a host ends a
// session's runtime.
process.stdin.on('end', () => setImmediate(() => process.exit(0)));
