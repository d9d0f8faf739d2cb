import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';

import { normalizeToolError } from '../portable-error-normalizer.mjs';
import {
  GuardViolation,
  PortableWorkflowGuard,
  UNKNOWN_DISPATCH_OUTCOME,
  UnknownDispatchOutcomeError,
  canonicalPayloadDigest,
  protectedWorkflowStateFor,
} from '../portable-workflow-guard.mjs';

const WORKFLOW = 'submit-sample-request';
const OPERATION = 'op-4d1c-synthetic';
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

// The bindings of a synthetic submit workflow, shaped as a canonical
// contract declares them.
const bindingSources = {
  subject: { kind: 'runtime-context', claim: 'subject', requirementId: 'authentication-injection', path: ['subjectId'] },
  session: { kind: 'runtime-context', claim: 'session', requirementId: 'session-state', path: ['sessionId'] },
  target: { kind: 'constant', value: WORKFLOW },
  payloadDigest: { kind: 'derived-calculation', algorithm: 'canonical-json-sha256', inputName: 'requestData' },
  validationGrantId: { kind: 'capability-input', inputName: 'validationGrant', path: ['grantId'] },
  attachmentGrantIds: { kind: 'derived-calculation', algorithm: 'ordered-id-list', inputName: 'attachmentGrants', path: ['*', 'grantId'] },
};

function validInput() {
  return {
    requestData: { title: 'Sample request', quantity: 2, tags: ['alpha', 'beta'] },
    validationGrant: { grantId: 'vg-1', payloadDigest: 'ignored-here' },
    attachmentGrants: [{ grantId: 'ag-1' }, { grantId: 'ag-2' }],
  };
}

function expectedValues() {
  return {
    subject: 'subject-1',
    session: 'session-1',
    target: WORKFLOW,
    payloadDigest: canonicalPayloadDigest(validInput().requestData),
    validationGrantId: 'vg-1',
    attachmentGrantIds: ['ag-1', 'ag-2'],
  };
}

// counter returns a dispatch that records its calls.
function counter(outcome = async () => ({ status: 201, data: { requestId: 'r-1' } })) {
  const calls = [];
  const dispatch = async (safeInput, operation) => {
    calls.push({ safeInput, operation });
    return outcome(safeInput, operation);
  };
  return { calls, dispatch };
}

let clock;
let guard;

function protectOperation(overrides = {}) {
  guard.protect({
    workflowId: WORKFLOW,
    operationKey: OPERATION,
    bindingSources,
    expectedValues: expectedValues(),
    expiresAt: T0 + 60_000,
    singleUse: true,
    ...overrides,
  });
}

function context(extra = {}) {
  return {
    subjectId: 'subject-1',
    sessionId: 'session-1',
    workflowGuard: guard,
    protectedWorkflows: { [WORKFLOW]: { operationKey: OPERATION } },
    ...extra,
  };
}

// submit is what a generated Function does, written the way the strict
// validator requires it.
async function submit(input, ctx) {
  const protectedWorkflowState = protectedWorkflowStateFor(ctx, WORKFLOW);
  return protectedWorkflowState.guard.dispatchWithPolicy({
    workflowId: WORKFLOW,
    input,
    runtimeContext: ctx,
    operationKey: protectedWorkflowState.operationKey,
  }, ctx.dispatch);
}

async function assertRefused(promise, code, calls) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof GuardViolation, `want a GuardViolation, got ${error}`);
    assert.equal(error.code, code);
    assert.equal(error.outcomeKnown, true);
    assert.equal(error.retryable, false);
    return true;
  });
  assert.equal(calls.length, 0, 'a refused call must dispatch nothing');
}

beforeEach(() => {
  clock = T0;
  guard = new PortableWorkflowGuard({ now: () => clock });
});

describe('a call that matches its protected operation', () => {
  it('dispatches once with the checked input, deeply frozen', async () => {
    protectOperation();
    const { calls, dispatch } = counter();
    const input = validInput();
    const result = await submit(input, context({ dispatch }));
    assert.deepEqual(result, { status: 201, data: { requestId: 'r-1' } });
    assert.equal(calls.length, 1);
    const { safeInput, operation } = calls[0];
    assert.deepEqual(safeInput, validInput());
    assert.notEqual(safeInput, input, 'dispatch gets the guard\'s snapshot, not the caller\'s object');
    assert.ok(Object.isFrozen(safeInput));
    assert.ok(Object.isFrozen(safeInput.requestData.tags));
    assert.ok(Object.isFrozen(safeInput.attachmentGrants[1]));
    assert.throws(() => {
      'use strict';
      safeInput.requestData.quantity = 99;
    }, TypeError);
    assert.deepEqual(operation, { workflowId: WORKFLOW, operationKey: OPERATION });
  });

  it('ignores key order when it computes the payload digest', async () => {
    protectOperation();
    const { calls, dispatch } = counter();
    const input = validInput();
    input.requestData = { tags: ['alpha', 'beta'], quantity: 2, title: 'Sample request' };
    await submit(input, context({ dispatch }));
    assert.equal(calls.length, 1);
  });

  it('is not affected by the caller changing its input after the check', async () => {
    protectOperation();
    const input = validInput();
    let seen;
    const { dispatch } = counter(async (safeInput) => {
      seen = safeInput.requestData.quantity;
    });
    const pending = submit(input, context({ dispatch }));
    input.requestData.quantity = 1000;
    await pending;
    assert.equal(seen, 2);
  });

  it('lets an operation without singleUse dispatch again', async () => {
    protectOperation({ singleUse: false });
    const { calls, dispatch } = counter();
    await submit(validInput(), context({ dispatch }));
    await submit(validInput(), context({ dispatch }));
    assert.equal(calls.length, 2);
  });

  it('lets an operation without expiry dispatch at any time', async () => {
    protectOperation({ expiresAt: undefined });
    clock = T0 + 365 * 24 * 3600 * 1000;
    const { calls, dispatch } = counter();
    await submit(validInput(), context({ dispatch }));
    assert.equal(calls.length, 1);
  });
});

describe('bypass attempts dispatch nothing', () => {
  const cases = [
    ['wrong subject', (input, ctx) => { ctx.subjectId = 'subject-2'; }, 'WORKFLOW_BINDING_VIOLATION'],
    ['wrong session', (input, ctx) => { ctx.sessionId = 'session-2'; }, 'WORKFLOW_BINDING_VIOLATION'],
    ['missing session', (input, ctx) => { delete ctx.sessionId; }, 'WORKFLOW_BINDING_VIOLATION'],
    ['changed payload', (input) => { input.requestData.quantity = 3; }, 'WORKFLOW_BINDING_VIOLATION'],
    ['extra payload field', (input) => { input.requestData.note = 'added'; }, 'WORKFLOW_BINDING_VIOLATION'],
    ['another validation grant', (input) => { input.validationGrant.grantId = 'vg-2'; }, 'WORKFLOW_BINDING_VIOLATION'],
    ['missing validation grant', (input) => { delete input.validationGrant; }, 'WORKFLOW_BINDING_VIOLATION'],
    ['attachment order swapped', (input) => { input.attachmentGrants.reverse(); }, 'WORKFLOW_BINDING_VIOLATION'],
    ['unapproved attachment added', (input) => { input.attachmentGrants.push({ grantId: 'ag-9' }); }, 'WORKFLOW_BINDING_VIOLATION'],
    ['attachment without id', (input) => { input.attachmentGrants[0] = { url: 'https://files.invalid/x' }; }, 'WORKFLOW_BINDING_VIOLATION'],
    ['claim offered as input instead of context', (input, ctx) => { input.sessionId = ctx.sessionId; delete ctx.sessionId; }, 'WORKFLOW_BINDING_VIOLATION'],
    ['subject as an inherited property', (input, ctx) => {
      delete ctx.subjectId;
      Object.setPrototypeOf(ctx, { subjectId: 'subject-1' });
    }, 'WORKFLOW_BINDING_VIOLATION'],
    ['unknown operation key', (input, ctx) => { ctx.protectedWorkflows[WORKFLOW].operationKey = 'op-guessed'; }, 'PROTECTED_OPERATION_MISSING'],
    ['no operation key in context', (input, ctx) => { ctx.protectedWorkflows = {}; }, 'PROTECTED_OPERATION_MISSING'],
    ['no guard in context', (input, ctx) => { delete ctx.workflowGuard; }, 'WORKFLOW_GUARD_UNAVAILABLE'],
    ['a look-alike guard', (input, ctx) => {
      ctx.workflowGuard = { dispatchWithPolicy: (policy, dispatch) => dispatch(policy.input) };
    }, 'WORKFLOW_GUARD_UNAVAILABLE'],
  ];
  for (const [name, tamper, code] of cases) {
    it(name, async () => {
      protectOperation();
      const { calls, dispatch } = counter();
      const input = validInput();
      const ctx = context({ dispatch });
      tamper(input, ctx);
      await assertRefused(submit(input, ctx), code, calls);
    });
  }

  it('an expired operation', async () => {
    protectOperation();
    clock = T0 + 60_000;
    const { calls, dispatch } = counter();
    await assertRefused(submit(validInput(), context({ dispatch })), 'PROTECTED_OPERATION_EXPIRED', calls);
  });

  it('an expiry given as an ISO time', async () => {
    protectOperation({ expiresAt: new Date(T0 - 1).toISOString() });
    const { calls, dispatch } = counter();
    await assertRefused(submit(validInput(), context({ dispatch })), 'PROTECTED_OPERATION_EXPIRED', calls);
  });

  it('a reused single-use operation', async () => {
    protectOperation();
    const first = counter();
    await submit(validInput(), context({ dispatch: first.dispatch }));
    assert.equal(first.calls.length, 1);
    const second = counter();
    await assertRefused(submit(validInput(), context({ dispatch: second.dispatch })), 'PROTECTED_OPERATION_CONSUMED', second.calls);
  });

  it('concurrent uses of a single-use operation', async () => {
    protectOperation();
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    const { calls, dispatch } = counter(() => gate);
    const attempts = Array.from({ length: 5 }, () => submit(validInput(), context({ dispatch })));
    release({ status: 201 });
    const settled = await Promise.allSettled(attempts);
    assert.equal(calls.length, 1, 'exactly one dispatch');
    assert.equal(settled.filter((s) => s.status === 'fulfilled').length, 1);
    for (const s of settled.filter((s) => s.status === 'rejected')) {
      assert.equal(s.reason.code, 'PROTECTED_OPERATION_CONSUMED');
    }
  });

  it('an operation of another scope (session isolation)', async () => {
    const otherScope = new PortableWorkflowGuard({ now: () => clock });
    otherScope.protect({ workflowId: WORKFLOW, operationKey: OPERATION, bindingSources, expectedValues: expectedValues() });
    const { calls, dispatch } = counter();
    await assertRefused(submit(validInput(), context({ dispatch })), 'PROTECTED_OPERATION_MISSING', calls);
  });

  it('an operation of another workflow', async () => {
    protectOperation({ workflowId: 'upload-sample-attachment' });
    const { calls, dispatch } = counter();
    await assertRefused(submit(validInput(), context({ dispatch })), 'PROTECTED_OPERATION_MISMATCH', calls);
  });

  it('a policy that brings its own bindings or expected values', async () => {
    protectOperation();
    for (const extra of [{ bindings: [] }, { expectedBindings: {} }, { expectedValues: expectedValues() }, { verify: () => true }]) {
      const { calls, dispatch } = counter();
      const ctx = context({ dispatch });
      const policy = { workflowId: WORKFLOW, input: validInput(), runtimeContext: ctx, operationKey: OPERATION, ...extra };
      await assertRefused(guard.dispatchWithPolicy(policy, dispatch), 'WORKFLOW_POLICY_INVALID', calls);
    }
  });

  it('an input with an accessor, never calling it', async () => {
    protectOperation();
    let getterCalls = 0;
    const input = validInput();
    Object.defineProperty(input.requestData, 'quantity', {
      enumerable: true,
      get() {
        getterCalls++;
        return 2;
      },
    });
    const { calls, dispatch } = counter();
    await assertRefused(submit(input, context({ dispatch })), 'WORKFLOW_INPUT_NOT_DATA', calls);
    assert.equal(getterCalls, 0);
  });

  it('an input that is not plain data', async () => {
    protectOperation();
    const cyclic = validInput();
    cyclic.requestData.self = cyclic;
    for (const input of [cyclic, { ...validInput(), when: new Date(T0) }, { ...validInput(), n: Number.NaN }, 'text', null]) {
      const { calls, dispatch } = counter();
      await assertRefused(submit(input, context({ dispatch })), 'WORKFLOW_INPUT_NOT_DATA', calls);
    }
  });

  it('a missing dispatch function', async () => {
    protectOperation();
    await assertRefused(submit(validInput(), context({ dispatch: undefined })), 'WORKFLOW_POLICY_INVALID', []);
  });

  it('keeps the protected values out of the refusal', async () => {
    protectOperation();
    const { dispatch } = counter();
    const ctx = context({ dispatch, sessionId: 'session-2' });
    await assert.rejects(submit(validInput(), ctx), (error) => {
      assert.deepEqual(error.details.violations, [{ binding: 'session', reason: 'mismatch' }]);
      assert.doesNotMatch(JSON.stringify(error.details) + error.message, /session-1/);
      return true;
    });
  });
});

describe('outcomes after dispatch', () => {
  it('reports a dispatch failure as an unknown outcome and blocks the operation', async () => {
    protectOperation({ singleUse: false });
    const failing = counter(async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    });
    await assert.rejects(submit(validInput(), context({ dispatch: failing.dispatch })), (error) => {
      assert.ok(error instanceof UnknownDispatchOutcomeError);
      assert.equal(error.code, UNKNOWN_DISPATCH_OUTCOME);
      assert.equal(error.automaticRetryAllowed, false);
      assert.equal(error.retryable, false);
      assert.equal(error.outcomeKnown, false);
      assert.equal(error.cause.message, 'fetch failed');
      return true;
    });
    assert.equal(failing.calls.length, 1);
    const retry = counter();
    await assertRefused(submit(validInput(), context({ dispatch: retry.dispatch })), 'WORKFLOW_RECONCILIATION_REQUIRED', retry.calls);
  });

  it('allows a new operation once the trusted side has reconciled and revoked the old one', async () => {
    protectOperation({ singleUse: false });
    await assert.rejects(submit(validInput(), context({ dispatch: async () => { throw new Error('timeout'); } })));
    assert.equal(guard.revoke(OPERATION), true);
    protectOperation({ singleUse: false });
    const { calls, dispatch } = counter();
    await submit(validInput(), context({ dispatch }));
    assert.equal(calls.length, 1);
  });

  it('passes a response-proven rejection through unchanged', async () => {
    protectOperation({ singleUse: false });
    const rejection = Object.assign(new Error('quota exceeded'), { code: 'QUOTA_EXCEEDED', outcomeKnown: true, details: { limit: 5 } });
    await assert.rejects(submit(validInput(), context({ dispatch: async () => { throw rejection; } })), (error) => error === rejection);
    const { calls, dispatch } = counter();
    await submit(validInput(), context({ dispatch }));
    assert.equal(calls.length, 1, 'a known rejection does not block the operation');
  });

  it('normalises into the structured errors a write Tool returns', async () => {
    const writePolicy = { sideEffect: 'create', idempotency: 'at-most-once', automaticRetry: 'never', confirmation: 'trusted-confirmation-required', unknownOutcome: 'stop-and-reconcile' };
    protectOperation();
    const refused = await submit(validInput(), context({ dispatch: counter().dispatch, sessionId: 'session-2' })).catch((e) => e);
    assert.deepEqual(normalizeToolError(refused, writePolicy), {
      code: 'WORKFLOW_BINDING_VIOLATION',
      message: refused.message,
      details: { category: 'input', workflowId: WORKFLOW, operationKey: OPERATION, violations: [{ binding: 'session', reason: 'mismatch' }], outcomeKnown: true },
      retryable: false,
    });
    const unknown = await submit(validInput(), context({ dispatch: async () => { throw new Error('timeout'); } })).catch((e) => e);
    const normalised = normalizeToolError(unknown, writePolicy);
    assert.equal(normalised.code, UNKNOWN_DISPATCH_OUTCOME);
    assert.equal(normalised.details.category, 'unknown-outcome');
    assert.equal(normalised.retryable, false);
  });
});

describe('protect', () => {
  it('keeps its own copy of the protected values', async () => {
    const expected = expectedValues();
    guard.protect({ workflowId: WORKFLOW, operationKey: OPERATION, bindingSources, expectedValues: expected });
    expected.session = 'session-2';
    const { calls, dispatch } = counter();
    await submit(validInput(), context({ dispatch }));
    assert.equal(calls.length, 1);
  });

  const invalid = [
    ['unknown source kind', { bindingSources: { session: { kind: 'callback', fn: 'x' } }, expectedValues: { session: 's' } }],
    ['unknown source field', { bindingSources: { session: { ...bindingSources.session, verify: 'x' } }, expectedValues: { session: 's' } }],
    ['missing source field', { bindingSources: { session: { kind: 'runtime-context', path: ['sessionId'] } }, expectedValues: { session: 's' } }],
    ['unknown algorithm', { bindingSources: { d: { kind: 'derived-calculation', algorithm: 'md5', inputName: 'x' } }, expectedValues: { d: 'x' } }],
    ['empty runtime-context path', { bindingSources: { s: { ...bindingSources.session, path: [] } }, expectedValues: { s: 'x' } }],
    ['expected value missing', { bindingSources, expectedValues: { ...expectedValues(), session: undefined } }],
    ['expected value without source', { bindingSources, expectedValues: { ...expectedValues(), extra: 1 } }],
    ['no bindings', { bindingSources: {}, expectedValues: {} }],
    ['bad expiry', { bindingSources, expectedValues: expectedValues(), expiresAt: 'tomorrow' }],
    ['non-boolean singleUse', { bindingSources, expectedValues: expectedValues(), singleUse: 'yes' }],
    ['unknown operation field', { bindingSources, expectedValues: expectedValues(), comparator: 'loose' }],
    ['expected value that is not data', { bindingSources, expectedValues: { ...expectedValues(), session: () => 'session-1' } }],
    ['a session claim bound as the subject', {
      bindingSources: { subject: { kind: 'runtime-context', claim: 'session', requirementId: 'session-state', path: ['sessionId'] } },
      expectedValues: { subject: 'session-1' },
    }],
    ['a subject claim read from another path', {
      bindingSources: { subject: { ...bindingSources.subject, path: ['sessionId'] } },
      expectedValues: { subject: 'session-1' },
    }],
    ['a confirmation claim from the wrong requirement', {
      bindingSources: { confirmationGrantId: { kind: 'runtime-context', claim: 'confirmation', requirementId: 'session-state', path: ['confirmationGrantId'] } },
      expectedValues: { confirmationGrantId: 'cg-1' },
    }],
  ];
  for (const [name, fields] of invalid) {
    it(`refuses ${name}`, () => {
      assert.throws(() => guard.protect({ workflowId: WORKFLOW, operationKey: OPERATION, ...fields }), TypeError);
    });
  }

  it('accepts a claim of the host\'s own naming', () => {
    guard.protect({
      workflowId: WORKFLOW,
      operationKey: OPERATION,
      bindingSources: { tenant: { kind: 'runtime-context', claim: 'tenant', requirementId: 'tenant-context', path: ['tenant', 'id'] } },
      expectedValues: { tenant: 'tenant-1' },
    });
  });

  it('refuses a second operation under the same key', () => {
    protectOperation();
    assert.throws(() => protectOperation(), TypeError);
  });
});

describe('canonicalPayloadDigest', () => {
  it('hashes compact JSON with keys sorted by code point', () => {
    const want = createHash('sha256').update('{"a":[1,"x",null,true],"b":{"c":"é","d":2}}').digest('hex');
    assert.equal(canonicalPayloadDigest({ b: { d: 2, c: 'é' }, a: [1, 'x', null, true] }), want);
  });

  it('orders keys outside the Basic Multilingual Plane by code point', () => {
    // U+FF5E sorts before U+1F600 by code point, after it by UTF-16 unit.
    const want = createHash('sha256').update('{"～":1,"😀":2}').digest('hex');
    assert.equal(canonicalPayloadDigest({ '😀': 2, '～': 1 }), want);
  });

  it('refuses values that are not plain data', () => {
    assert.throws(() => canonicalPayloadDigest({ when: new Date(0) }), TypeError);
  });
});
