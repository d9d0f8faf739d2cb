// portable-workflow-guard.mjs: the reference guard for source-proven hard
// edges of strict-export-v1 writes. Reviewed once and copied byte-for-byte
// into every package that declares a hard workflow; edit the original, never
// a copy.
//
// A hard edge is a value the write must carry that the caller cannot choose:
// the grant a validation step issued, the subject and session it was issued
// to, the digest of the payload that was confirmed. The trusted side (the
// Host or MCP session runtime, never Tool arguments) records, per protected
// operation, where each value is read from and what it must equal:
//
//   const guard = new PortableWorkflowGuard();     // one per isolated scope
//   guard.protect({
//     workflowId: 'submit-sample-request',
//     operationKey: 'op-7f3a…',                    // unguessable, from the trusted side
//     bindingSources: {                            // the contract's actual sources
//       session: { kind: 'runtime-context', claim: 'session', requirementId: 'session-state', path: ['sessionId'] },
//       payloadDigest: { kind: 'derived-calculation', algorithm: 'canonical-json-sha256', inputName: 'requestData' },
//     },
//     expectedValues: { session: 'session-1', payloadDigest: '…' },
//     expiresAt: '2026-01-01T00:10:00Z',           // only when the source proves an expiry
//     singleUse: true,                             // only when the source proves single use
//   });
//
// and the generated Function hands the call to the guard:
//
//   export async function submitSampleRequest(input, context) {
//     const protectedWorkflowState = protectedWorkflowStateFor(context, 'submit-sample-request');
//     return protectedWorkflowState.guard.dispatchWithPolicy({
//       workflowId: 'submit-sample-request',
//       input,
//       runtimeContext: context,
//       operationKey: protectedWorkflowState.operationKey,
//     }, context.dispatch);
//   }
//
// The guard copies the input into a deeply frozen snapshot (safeInput),
// projects every binding itself from that snapshot and the runtime context,
// compares it with the protected value (json-equals) and only then calls
// dispatch, once, with the very snapshot it checked. It runs no callback of
// anyone else's before dispatch, so dispatch is the first code that can have
// an external effect, and a rejected call dispatches nothing.

import { createHash } from 'node:crypto';

export const UNKNOWN_DISPATCH_OUTCOME = 'UNKNOWN_DISPATCH_OUTCOME';

/**
 * GuardViolation is a refusal before dispatch: nothing was sent, so the
 * outcome is known, and the same call will be refused again.
 */
export class GuardViolation extends Error {
  constructor(code, message, details = {}) {
    super(message);
    this.name = 'GuardViolation';
    this.code = code;
    this.details = details;
    this.outcomeKnown = true;
    this.retryable = false;
    this.dispatched = false;
  }
}

/**
 * UnknownDispatchOutcomeError reports that dispatch started and failed
 * without proving what happened. The operation stays blocked until the
 * trusted side reconciles it and protects a new one.
 */
export class UnknownDispatchOutcomeError extends Error {
  constructor(details, cause) {
    super('The protected write was dispatched but its outcome is unknown; reconcile it before any new attempt', { cause });
    this.name = 'UnknownDispatchOutcomeError';
    this.code = UNKNOWN_DISPATCH_OUTCOME;
    this.details = details;
    this.outcomeKnown = false;
    this.retryable = false;
    this.automaticRetryAllowed = false;
  }
}

const SOURCE_FIELDS = {
  'capability-input': { required: ['kind', 'inputName'], optional: ['path'] },
  'runtime-context': { required: ['kind', 'claim', 'requirementId', 'path'], optional: [] },
  'derived-calculation': { required: ['kind', 'algorithm', 'inputName'], optional: ['path'] },
  constant: { required: ['kind', 'value'], optional: [] },
};
const ALGORITHMS = new Set(['canonical-json-sha256', 'ordered-id-list']);

// The runtime-context claims with a fixed meaning: the host requirement that
// supplies each, where it sits in the runtime context and the binding it
// fills. They cannot be relabelled or exchanged: a session identifier never
// stands in for a subject.
const KNOWN_CLAIMS = {
  subject: { requirementId: 'authentication-injection', path: 'subjectId', binding: 'subject' },
  session: { requirementId: 'session-state', path: 'sessionId', binding: 'session' },
  confirmation: { requirementId: 'trusted-confirmation', path: 'confirmationGrantId', binding: 'confirmationGrantId' },
  expiry: { requirementId: 'session-state', path: 'expiresAt', binding: 'expiresAt' },
};
const POLICY_KEYS = ['input', 'operationKey', 'runtimeContext', 'workflowId'];

// MAX_DEPTH bounds how deep the input is copied; deeper data is refused.
const MAX_DEPTH = 64;

// Operation states. A single-use operation is consumed at dispatch; any
// operation whose dispatch ended without a known outcome is blocked.
const READY = 'ready';
const CONSUMED = 'consumed';
const OUTCOME_UNKNOWN = 'outcome-unknown';

/**
 * PortableWorkflowGuard holds the protected operations of one isolated scope
 * (a session, as the workflow declares) and dispatches protected writes.
 */
export class PortableWorkflowGuard {
  #operations = new Map();
  #now;

  /**
   * @param {{now?: () => number}} [options] now returns the current time in
   *   milliseconds since the epoch (Date.now by default)
   */
  constructor({ now = Date.now } = {}) {
    if (typeof now !== 'function') {
      throw new TypeError('PortableWorkflowGuard: now must be a function returning milliseconds');
    }
    this.#now = now;
  }

  /**
   * Records a protected operation. Called by the trusted side when the
   * protected values are issued; the guard keeps its own frozen copies.
   *
   * @param {object} operation
   * @param {string} operation.workflowId the contract's workflowId
   * @param {string} operation.operationKey unguessable key of this operation
   * @param {Record<string, object>} operation.bindingSources binding name → actual source
   * @param {Record<string, unknown>} operation.expectedValues binding name → protected value
   * @param {number|string} [operation.expiresAt] epoch milliseconds or an ISO 8601 time
   * @param {boolean} [operation.singleUse] consume the operation at its first dispatch
   */
  protect({ workflowId, operationKey, bindingSources, expectedValues, expiresAt, singleUse = false, ...rest }) {
    if (Object.keys(rest).length > 0) {
      throw new TypeError(`protect: unknown field(s) ${Object.keys(rest).sort().join(', ')}`);
    }
    requireName('workflowId', workflowId);
    requireName('operationKey', operationKey);
    if (this.#operations.has(operationKey)) {
      throw new TypeError(`protect: operation ${operationKey} is already protected`);
    }
    if (typeof singleUse !== 'boolean') {
      throw new TypeError('protect: singleUse must be a boolean');
    }
    const sources = copyData(bindingSources, 0);
    const expected = copyData(expectedValues, 0);
    if (!isPlainObject(sources) || Object.keys(sources).length === 0) {
      throw new TypeError('protect: bindingSources must map at least one binding name to its source');
    }
    if (!isPlainObject(expected)) {
      throw new TypeError('protect: expectedValues must be an object of protected values');
    }
    const names = Object.keys(sources).sort();
    const expectedNames = Object.keys(expected).sort();
    if (names.join('\n') !== expectedNames.join('\n')) {
      throw new TypeError('protect: bindingSources and expectedValues must name the same bindings');
    }
    for (const name of names) {
      checkSource(name, sources[name]);
    }
    this.#operations.set(operationKey, {
      workflowId,
      operationKey,
      names,
      sources: deepFreeze(sources),
      expected: deepFreeze(expected),
      expiresAt: expiryOf(expiresAt),
      singleUse,
      state: READY,
    });
  }

  /**
   * Forgets a protected operation, for instance after the trusted side has
   * reconciled an unknown outcome.
   *
   * @param {string} operationKey
   * @returns {boolean} whether the operation existed
   */
  revoke(operationKey) {
    return this.#operations.delete(operationKey);
  }

  /**
   * Checks every binding of the protected operation and, only if all hold,
   * dispatches once with the checked, deeply frozen input.
   *
   * @param {{workflowId: string, input: object, runtimeContext: object, operationKey: string}} policy
   * @param {(safeInput: object, operation: {workflowId: string, operationKey: string}) => unknown} dispatch
   * @returns {Promise<unknown>} what dispatch returned
   */
  async dispatchWithPolicy(policy, dispatch) {
    // Everything up to the dispatch call runs without awaiting, so a
    // single-use operation is checked and consumed atomically.
    const safeInput = this.#admit(policy, dispatch);
    const operation = this.#operations.get(policy.operationKey);
    const descriptor = Object.freeze({ workflowId: operation.workflowId, operationKey: operation.operationKey });
    if (operation.singleUse) {
      operation.state = CONSUMED;
    }
    try {
      return await dispatch(safeInput, descriptor);
    } catch (error) {
      if (error !== null && typeof error === 'object' && error.outcomeKnown === true) {
        throw error; // a rejection the response proved: nothing to reconcile
      }
      operation.state = OUTCOME_UNKNOWN;
      throw new UnknownDispatchOutcomeError({ ...descriptor, outcomeKnown: false }, error);
    }
  }

  // #admit returns the frozen input snapshot, or throws a GuardViolation.
  #admit(policy, dispatch) {
    if (!isPlainObject(policy)) {
      throw new GuardViolation('WORKFLOW_POLICY_INVALID', 'dispatchWithPolicy needs a policy object');
    }
    const keys = Object.keys(policy).sort();
    if (keys.join('\n') !== POLICY_KEYS.join('\n')) {
      throw new GuardViolation('WORKFLOW_POLICY_INVALID',
        `the policy must hold exactly ${POLICY_KEYS.join(', ')}; bindings and expected values come from the protected operation`,
        { keys });
    }
    const { workflowId, operationKey, runtimeContext, input } = policy;
    if (typeof dispatch !== 'function') {
      throw new GuardViolation('WORKFLOW_POLICY_INVALID', 'dispatch must be a function', { workflowId });
    }
    const operation = typeof operationKey === 'string' ? this.#operations.get(operationKey) : undefined;
    const where = { workflowId, operationKey };
    if (operation === undefined) {
      throw new GuardViolation('PROTECTED_OPERATION_MISSING', 'no protected operation matches this call in this scope', where);
    }
    if (operation.workflowId !== workflowId) {
      throw new GuardViolation('PROTECTED_OPERATION_MISMATCH', 'the protected operation belongs to another workflow', where);
    }
    if (operation.state === CONSUMED) {
      throw new GuardViolation('PROTECTED_OPERATION_CONSUMED', 'the protected operation was already used', where);
    }
    if (operation.state === OUTCOME_UNKNOWN) {
      throw new GuardViolation('WORKFLOW_RECONCILIATION_REQUIRED',
        'an earlier dispatch of this operation has an unknown outcome; reconcile it first', where);
    }
    if (operation.expiresAt !== undefined && this.#now() >= operation.expiresAt) {
      throw new GuardViolation('PROTECTED_OPERATION_EXPIRED', 'the protected operation has expired', where);
    }
    if (runtimeContext === null || typeof runtimeContext !== 'object') {
      throw new GuardViolation('WORKFLOW_POLICY_INVALID', 'runtimeContext must be the trusted runtime context', where);
    }
    let safeInput;
    try {
      safeInput = deepFreeze(copyData(input, 0));
    } catch (error) {
      throw new GuardViolation('WORKFLOW_INPUT_NOT_DATA', `the input is not plain JSON data: ${error.message}`, where);
    }
    if (!isPlainObject(safeInput)) {
      throw new GuardViolation('WORKFLOW_INPUT_NOT_DATA', 'the input must be an object', where);
    }
    const violations = [];
    for (const name of operation.names) {
      const actual = project(operation.sources[name], safeInput, runtimeContext);
      if (!actual.found) {
        violations.push({ binding: name, reason: 'missing' });
      } else if (canonicalJson(actual.value) !== canonicalJson(operation.expected[name])) {
        violations.push({ binding: name, reason: 'mismatch' });
      }
    }
    if (violations.length > 0) {
      // The protected values stay out of the report: they are what a caller
      // would need to forge a passing call.
      throw new GuardViolation('WORKFLOW_BINDING_VIOLATION',
        `the call does not match the protected operation: ${violations.map((v) => `${v.binding} (${v.reason})`).join(', ')}`,
        { ...where, violations });
    }
    return safeInput;
  }
}

/**
 * Reads the guard and the operation key a trusted runtime context provides
 * for a workflow: context.workflowGuard and
 * context.protectedWorkflows[workflowId].operationKey.
 *
 * @param {object} context the trusted runtime context
 * @param {string} workflowId
 * @returns {Readonly<{guard: PortableWorkflowGuard, workflowId: string, operationKey: string}>}
 */
export function protectedWorkflowStateFor(context, workflowId) {
  const guard = ownValue(context, 'workflowGuard');
  if (!(guard instanceof PortableWorkflowGuard)) {
    throw new GuardViolation('WORKFLOW_GUARD_UNAVAILABLE',
      'the runtime context carries no workflow guard; this write needs a Host that enforces its workflow', { workflowId });
  }
  const operationKey = ownValue(ownValue(ownValue(context, 'protectedWorkflows'), workflowId), 'operationKey');
  if (typeof operationKey !== 'string' || operationKey === '') {
    throw new GuardViolation('PROTECTED_OPERATION_MISSING',
      'the runtime context names no protected operation for this workflow', { workflowId });
  }
  return Object.freeze({ guard, workflowId, operationKey });
}

/**
 * Returns the SHA-256 (lowercase hex) of the canonical JSON of value: keys
 * sorted by code point, no whitespace. The trusted side computes expected
 * payload digests with it.
 *
 * @param {unknown} value plain JSON data
 * @returns {string}
 */
export function canonicalPayloadDigest(value) {
  return createHash('sha256').update(canonicalJson(copyData(value, 0)), 'utf8').digest('hex');
}

// project reads the actual value of one binding from the frozen input or the
// runtime context. It never calls anything on either.
function project(source, safeInput, runtimeContext) {
  switch (source.kind) {
    case 'constant':
      return { found: true, value: source.value };
    case 'capability-input':
      return resolve(safeInput, [source.inputName, ...(source.path ?? [])]);
    case 'runtime-context': {
      const found = resolve(runtimeContext, source.path);
      if (!found.found) {
        return found;
      }
      try {
        return { found: true, value: copyData(found.value, 0) };
      } catch {
        return { found: false };
      }
    }
    case 'derived-calculation': {
      const found = resolve(safeInput, [source.inputName, ...(source.path ?? [])]);
      if (!found.found) {
        return found;
      }
      if (source.algorithm === 'canonical-json-sha256') {
        return { found: true, value: canonicalPayloadDigest(found.value) };
      }
      return Array.isArray(found.value) ? found : { found: false }; // ordered-id-list
    }
  }
  return { found: false };
}

// resolve follows path through own data properties; "*" maps the rest of the
// path over every element of an array.
function resolve(value, path) {
  let current = value;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    if (segment === '*') {
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
    const descriptor = current !== null && typeof current === 'object'
      ? Object.getOwnPropertyDescriptor(current, segment)
      : undefined;
    if (descriptor === undefined || !('value' in descriptor) || descriptor.value === undefined) {
      return { found: false };
    }
    current = descriptor.value;
  }
  return { found: true, value: current };
}

function ownValue(object, key) {
  if (object === null || typeof object !== 'object') {
    return undefined;
  }
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}

// copyData copies plain JSON data: plain objects, arrays, strings, finite
// numbers, booleans and null. Accessors are refused without being called,
// as are class instances, cycles, and anything deeper than MAX_DEPTH.
function copyData(value, depth) {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) {
        throw new TypeError('non-finite number');
      }
      return value;
    case 'object':
      break;
    default:
      throw new TypeError(`${typeof value} value`);
  }
  if (value === null) {
    return null;
  }
  if (depth >= MAX_DEPTH) {
    throw new TypeError(`nested deeper than ${MAX_DEPTH} levels`);
  }
  if (Array.isArray(value)) {
    const out = [];
    for (let i = 0; i < value.length; i++) {
      const descriptor = Object.getOwnPropertyDescriptor(value, i);
      if (descriptor === undefined || !('value' in descriptor)) {
        throw new TypeError('array hole or accessor');
      }
      out.push(copyData(descriptor.value, depth + 1));
    }
    return out;
  }
  if (!isPlainObject(value)) {
    throw new TypeError('object that is not plain data');
  }
  const out = {};
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') {
      throw new TypeError('symbol key');
    }
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (!('value' in descriptor)) {
      throw new TypeError(`accessor property ${key}`);
    }
    if (descriptor.value !== undefined && descriptor.enumerable) {
      out[key] = copyData(descriptor.value, depth + 1);
    }
  }
  return out;
}

// canonicalJson serialises plain data with keys sorted by code point and no
// whitespace, matching a sort-keys, compact JSON encoder (except that JSON
// numbers print as JavaScript prints them: 1.0 is "1").
function canonicalJson(value) {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  const keys = Object.keys(value).sort(compareCodePoints);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
}

// compareCodePoints orders strings by Unicode code point rather than UTF-16
// unit, which differs for characters outside the Basic Multilingual Plane.
function compareCodePoints(a, b) {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d !== 0) {
      return d;
    }
  }
  return x.length - y.length;
}

function checkSource(name, source) {
  if (!isPlainObject(source) || !Object.hasOwn(SOURCE_FIELDS, source.kind)) {
    throw new TypeError(`protect: binding ${name} has no known source kind`);
  }
  const { required, optional } = SOURCE_FIELDS[source.kind];
  for (const key of Object.keys(source)) {
    if (!required.includes(key) && !optional.includes(key)) {
      throw new TypeError(`protect: binding ${name}: unknown source field ${key}`);
    }
  }
  for (const key of required) {
    if (!Object.hasOwn(source, key)) {
      throw new TypeError(`protect: binding ${name}: source field ${key} is missing`);
    }
  }
  if (source.kind === 'constant') {
    return;
  }
  if (source.kind !== 'runtime-context') {
    requireName(`binding ${name} inputName`, source.inputName);
  }
  if (source.kind === 'derived-calculation' && !ALGORITHMS.has(source.algorithm)) {
    throw new TypeError(`protect: binding ${name}: unknown algorithm ${source.algorithm}`);
  }
  const path = source.path ?? [];
  if (!Array.isArray(path) || !path.every((segment) => typeof segment === 'string' && segment !== '')) {
    throw new TypeError(`protect: binding ${name}: path must be a list of non-empty strings`);
  }
  if (source.kind === 'runtime-context') {
    if (path.length === 0) {
      throw new TypeError(`protect: binding ${name}: a runtime-context path must not be empty`);
    }
    const known = Object.hasOwn(KNOWN_CLAIMS, source.claim) ? KNOWN_CLAIMS[source.claim] : undefined;
    if (known && (name !== known.binding || source.requirementId !== known.requirementId ||
        path.length !== 1 || path[0] !== known.path)) {
      throw new TypeError(`protect: binding ${name}: the ${source.claim} claim is binding ${known.binding}, ` +
        `supplied by ${known.requirementId} at ${known.path}`);
    }
  }
}

function requireName(what, value) {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`protect: ${what} must be a non-empty string`);
  }
}

function expiryOf(expiresAt) {
  if (expiresAt === undefined || expiresAt === null) {
    return undefined;
  }
  const ms = typeof expiresAt === 'string' ? Date.parse(expiresAt) : expiresAt;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new TypeError('protect: expiresAt must be epoch milliseconds or an ISO 8601 time');
  }
  return ms;
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) {
      deepFreeze(item);
    }
    Object.freeze(value);
  }
  return value;
}

function isPlainObject(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
