// portable-error-normalizer.mjs: the structured Tool error of a
// strict-export-v1 MCP runtime. Reviewed once and copied byte-for-byte into
// every strict package; edit the original, never a copy.
//
// Every Tool callback ends with
//
//   } catch (error) {
//     const toolError = normalizeToolError(error, <literal operationPolicy>);
//     return { content: [{ type: 'text', text: JSON.stringify(toolError) }], isError: true };
//   }
//
// and the agent receives { code, message, details, retryable } as the JSON
// of the result's text block. The error is not structuredContent: clients
// such as the TypeScript SDK Client validate structuredContent against the
// Tool's output schema even on error results, and would throw instead of
// returning an error that does not look like a success.
//
// details.category always says what kind of failure it was: input (the
// arguments were refused before anything was sent), authorization (the
// caller may not do this), business (the backend refused a well-formed
// request), upstream (the backend failed or answered outside its contract),
// network (no response arrived), output-contract (the response breaks the
// Tool's output contract), unknown-outcome (a write that may have taken
// effect) or unclassified. A category the Function gave is kept; otherwise
// the normalizer reads it from the code of a reviewed dispatcher error, or
// from a transport failure.
//
// For a write, an error counts as "outcome known" only when the Function
// marked it so (outcomeKnown: true): a rejection proven by a response, or a
// failure before anything was dispatched. Everything else (a dropped
// connection, a timeout, an unmarked exception) may have happened after the
// backend acted, so it becomes UNKNOWN_DISPATCH_OUTCOME: not retryable, to be
// reconciled before any new attempt. A known write rejection keeps its code,
// but automatic replay stays disallowed; only a person or a reconciled state
// may decide to write again.

export const UNKNOWN_DISPATCH_OUTCOME = 'UNKNOWN_DISPATCH_OUTCOME';

// Codes the normalizer itself assigns when the error carries none.
const UPSTREAM_UNREACHABLE = 'UPSTREAM_UNREACHABLE';
const TOOL_EXECUTION_FAILED = 'TOOL_EXECUTION_FAILED';

const READ = 'read';

// CATEGORIES are the failure categories a structured Tool error may name.
const CATEGORIES = new Set([
  'input', 'authorization', 'business', 'upstream', 'network', 'output-contract', 'unknown-outcome', 'unclassified',
]);

// CODE_CATEGORIES are the categories of the codes the reviewed
// portable-http-dispatch.mjs and portable-workflow-guard.mjs throw without
// naming one.
const CODE_CATEGORIES = {
  DISPATCH_REQUEST_INVALID: 'input',
  DISPATCH_ABORTED: 'network',
  HOST_AUTHENTICATION_REQUIRED: 'authorization',
  UPSTREAM_TIMEOUT: 'network',
  UPSTREAM_UNREACHABLE: 'network',
  UPSTREAM_RESPONSE_TOO_LARGE: 'upstream',
  UPSTREAM_RESPONSE_INCOMPLETE: 'network',
  UPSTREAM_RESPONSE_INVALID: 'upstream',
  PROTECTED_OPERATION_MISSING: 'input',
  PROTECTED_OPERATION_MISMATCH: 'input',
  PROTECTED_OPERATION_CONSUMED: 'input',
  PROTECTED_OPERATION_EXPIRED: 'input',
  WORKFLOW_BINDING_VIOLATION: 'input',
  WORKFLOW_INPUT_NOT_DATA: 'input',
  WORKFLOW_RECONCILIATION_REQUIRED: 'unknown-outcome',
  OUTPUT_CONTRACT_VIOLATED: 'output-contract',
  UNKNOWN_DISPATCH_OUTCOME: 'unknown-outcome',
};

// Node reports a request that never got a response with one of these system
// codes, on the error or on its cause (fetch wraps them in a TypeError).
const TRANSPORT_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN',
  'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
]);

/**
 * Normalises anything a Tool's Function threw into the structured error the
 * agent receives. It never throws.
 *
 * @param {unknown} error what the Function threw
 * @param {{sideEffect?: string, automaticRetry?: string, unknownOutcome?: string}} operationPolicy
 *   the capability's operation policy; anything but sideEffect "read" is
 *   treated as a write, so a missing or malformed policy fails closed
 * @returns {{code: string, message: string, details: object, retryable: boolean}}
 */
export function normalizeToolError(error, operationPolicy) {
  const facts = readError(error);
  const policy = isRecord(operationPolicy) ? operationPolicy : {};
  if (policy.sideEffect === READ) {
    return normalizeRead(facts, policy);
  }
  return normalizeWrite(facts, policy);
}

function normalizeRead(facts, policy) {
  const code = facts.code ?? (facts.transport ? UPSTREAM_UNREACHABLE : TOOL_EXECUTION_FAILED);
  // A read may be retried within the policy's bound: when the Function says
  // so, or when the request never reached a server.
  const wanted = facts.retryable ?? (facts.transport && !facts.outcomeKnown);
  return {
    code,
    message: facts.message,
    details: withCause({ ...facts.details, category: facts.category }, facts),
    retryable: policy.automaticRetry === 'read-only-bounded' && wanted === true,
  };
}

function normalizeWrite(facts, policy) {
  if (facts.outcomeKnown) {
    return {
      code: facts.code ?? TOOL_EXECUTION_FAILED,
      message: facts.message,
      details: { ...facts.details, category: facts.category, outcomeKnown: true },
      retryable: false,
    };
  }
  const original = { name: facts.name, message: facts.message, category: facts.category };
  if (facts.code !== undefined) {
    original.code = facts.code;
  }
  return {
    code: UNKNOWN_DISPATCH_OUTCOME,
    message:
      'The write may or may not have taken effect: ' + facts.message +
      '. Reconcile its outcome before any new attempt; do not retry automatically.',
    details: withCause({
      category: 'unknown-outcome',
      outcomeKnown: false,
      unknownOutcome: typeof policy.unknownOutcome === 'string' ? policy.unknownOutcome : 'stop-and-reconcile',
      originalError: original,
    }, facts),
    retryable: false,
  };
}

// readError reads what the normaliser needs from a thrown value without
// trusting it: any property access may throw (getters, proxies), and only
// plain JSON data may leave in details.
function readError(error) {
  const facts = {
    name: 'Error',
    message: 'the Tool failed without an error message',
    code: undefined,
    category: undefined,
    details: {},
    retryable: undefined,
    outcomeKnown: false,
    transport: false,
    cause: undefined,
  };
  try {
    if (error === null || typeof error !== 'object') {
      if (error !== undefined) {
        facts.message = String(error);
      }
      facts.category = 'unclassified';
      return facts;
    }
    if (typeof error.name === 'string' && error.name !== '') {
      facts.name = error.name;
    }
    if (typeof error.message === 'string' && error.message !== '') {
      facts.message = error.message;
    }
    if (typeof error.code === 'string' && error.code !== '') {
      facts.code = error.code;
    }
    if (isRecord(error.details)) {
      facts.details = jsonData(error.details, 0) ?? {};
    }
    if (typeof error.retryable === 'boolean') {
      facts.retryable = error.retryable;
    }
    facts.outcomeKnown = error.outcomeKnown === true;
    const cause = error.cause !== null && typeof error.cause === 'object' ? error.cause : undefined;
    const causeCode = cause && typeof cause.code === 'string' ? cause.code : undefined;
    facts.transport = TRANSPORT_CODES.has(facts.code) || TRANSPORT_CODES.has(causeCode) ||
      (facts.name === 'TypeError' && facts.message === 'fetch failed');
    if (cause) {
      facts.cause = { name: typeof cause.name === 'string' ? cause.name : 'Error' };
      if (typeof cause.message === 'string') {
        facts.cause.message = withoutAddress(cause.message, cause);
      }
      if (causeCode !== undefined) {
        facts.cause.code = causeCode;
      }
    }
    if (typeof error.category === 'string' && CATEGORIES.has(error.category)) {
      facts.category = error.category;
    }
  } catch {
    facts.message = 'the thrown value could not be read';
  }
  facts.category ??= categoryOf(facts);
  return facts;
}

// withoutAddress masks where a transport failure went (the deployment's
// address) in its cause's message: the host, host name and address the
// system error names, and every IP address with its port. The server's own
// log keeps them; the agent never needs them.
function withoutAddress(message, cause) {
  let text = message.replace(NETWORK_ADDRESS, '[address]');
  for (const key of ['hostname', 'host', 'address']) {
    const value = cause[key];
    if (typeof value === 'string' && value !== '') {
      text = text.split(value).join('[address]');
    }
  }
  return text.replace(/\[address\]:\d+/g, '[address]');
}

// NETWORK_ADDRESS matches an IPv4 or IPv6 address, with its port.
const NETWORK_ADDRESS = /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b|\[?(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}\]?(?::\d+)?/g;

// categoryOf is the category of an error that names none.
function categoryOf(facts) {
  if (facts.code !== undefined && Object.hasOwn(CODE_CATEGORIES, facts.code)) {
    return CODE_CATEGORIES[facts.code];
  }
  return facts.transport ? 'network' : 'unclassified';
}

function withCause(details, facts) {
  return facts.cause === undefined ? details : { ...details, cause: facts.cause };
}

// MAX_DEPTH bounds how deep details are copied; deeper values are dropped.
const MAX_DEPTH = 16;

// jsonData copies plain JSON data (no accessors, class instances, cycles or
// non-finite numbers), so that details always serialise.
function jsonData(value, depth) {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : undefined;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) {
    return null;
  }
  if (depth >= MAX_DEPTH) {
    return undefined;
  }
  if (Array.isArray(value)) {
    return value.map((item) => jsonData(item, depth + 1) ?? null);
  }
  if (!isRecord(value)) {
    return undefined;
  }
  const out = {};
  for (const key of Object.keys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor && 'value' in descriptor) {
      const copied = jsonData(descriptor.value, depth + 1);
      if (copied !== undefined) {
        out[key] = copied;
      }
    }
  }
  return out;
}

// isRecord accepts plain objects only: object literals, parsed JSON and
// Object.create(null).
function isRecord(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
