// The compiled Function core of the requests contract (node_test.go) under
// real node, with a mock context.dispatch. Run from the compiled package's
// root, which has no node_modules: everything imported is the package's own.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';

import {
  listSampleRequestKinds,
  saveSampleDraft,
  uploadSampleAttachment,
  submitSampleRequest,
  validateSampleRequest,
} from '../function-core/index.mjs';
import { normalizeToolError } from '../portable-error-normalizer.mjs';
import { PortableWorkflowGuard } from '../portable-workflow-guard.mjs';

const ORIGIN = 'https://application.example/api/sample-request';
const WRITE = { sideEffect: 'update', idempotency: 'keyed', automaticRetry: 'never', confirmation: 'not-required', unknownOutcome: 'stop-and-reconcile' };

// mock returns a dispatcher answering each call with the next reply, and
// the list of calls it received.
function mock(...replies) {
  const calls = [];
  const dispatch = async (url, options) => {
    calls.push({ url, options: structuredClone(options) });
    const reply = replies[calls.length - 1];
    if (reply === undefined) {
      throw new Error(`unexpected dispatch ${calls.length}: ${url}`);
    }
    return typeof reply === 'function' ? reply() : reply;
  };
  return { calls, dispatch };
}

// rejects runs call and returns the FunctionError it throws with code.
async function rejects(call, code) {
  let thrown;
  try {
    await call();
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown, `expected ${code}, nothing was thrown`);
  assert.equal(thrown.code, code, `${thrown.code}: ${thrown.message}`);
  assert.equal(thrown.retryable, false);
  return thrown;
}

const draft = () => ({ draftId: 'a b/c!', requestData: { subject: 'Seed swap', note: 'Bring labels' } });
const lookupReply = { status: 200, data: { draft: { key: 'k/1 ü' }, etag: 'e-1', unused: true } };
const saveReply = { status: 201, data: { draftId: 'draft-9', echo: 'dropped' } };

describe('requests', () => {
  it('sends each step with its exact method, URL, query, headers and body', async () => {
    const { calls, dispatch } = mock(lookupReply, saveReply);
    const checks = { kind: 'a', name: 'éab', fixed: 'x', count: 3, ratio: 0.5, link: 'https://x.example/p', tags: ['t1', 't2'], nested: { a: true } };
    const result = await saveSampleDraft({ ...draft(), page: 2, trace: 'trace-7', checks }, { dispatch });
    assert.deepEqual(calls, [
      {
        url: `${ORIGIN}/draft/a%20b%2Fc%21?mode=full`,
        options: {
          method: 'GET',
          authentication: 'runtime_context',
          headers: { accept: 'application/json', 'x-trace': 'trace-7' },
          query: { page: { size: 2 } },
        },
      },
      {
        url: `${ORIGIN}/draft/k%2F1%20%C3%BC`,
        options: {
          method: 'PUT',
          authentication: 'runtime_context',
          headers: { 'content-type': 'application/json' },
          body: { draft: { data: { subject: 'Seed swap', note: 'Bring labels' } }, checks, etag: 'e-1' },
        },
      },
    ]);
    assert.deepEqual(result, { status: 201, data: { draftId: 'draft-9' } }, 'the result is reduced to the output schema');
  });

  it('leaves omitted optional inputs out of the request', async () => {
    const { calls, dispatch } = mock(lookupReply, saveReply);
    await saveSampleDraft(draft(), { dispatch });
    assert.deepEqual(calls[0].options.query, {});
    assert.deepEqual(calls[0].options.headers, { accept: 'application/json' });
    assert.deepEqual(calls[1].options.body, { draft: { data: draft().requestData }, etag: 'e-1' });
  });

  it('reduces list items to the declared members', async () => {
    const item = { label: 'Seeds', extra: 1, selectionGrant: { grantId: 'g', requiresAttachment: false, allowsAttachment: true, secret: 's' } };
    const { calls, dispatch } = mock({ status: 200, data: { options: [item], total: 1 } });
    const result = await listSampleRequestKinds({ detailLevel: 'full' }, { dispatch });
    assert.equal(calls[0].url, `${ORIGIN}/kinds`);
    assert.deepEqual(calls[0].options.query, { detail: 'full' });
    assert.deepEqual(result.data, { options: [{ label: 'Seeds', selectionGrant: { grantId: 'g', requiresAttachment: false, allowsAttachment: true } }] });
  });
});

describe('input validation', () => {
  const invalid = [
    ['type', { checks: { kind: 'a', count: '3' } }],
    ['type', { checks: { kind: 'a', name: 5 } }],
    ['required', { checks: {} }],
    ['additionalProperties', { checks: { kind: 'a', other: 1 } }],
    ['additionalProperties', { unknownInput: true }],
    ['enum', { checks: { kind: 'c' } }],
    ['const', { checks: { kind: 'a', fixed: 'y' } }],
    ['minLength', { checks: { kind: 'a', name: 'é' } }],
    ['maxLength', { checks: { kind: 'a', name: 'abcdef' } }],
    ['pattern', { checks: { kind: 'a', name: 'AB' } }],
    ['format', { checks: { kind: 'a', link: 'not a uri' } }],
    ['minimum', { checks: { kind: 'a', count: 0 } }],
    ['maximum', { checks: { kind: 'a', count: 4 } }],
    ['exclusiveMinimum', { checks: { kind: 'a', ratio: 0 } }],
    ['exclusiveMaximum', { checks: { kind: 'a', ratio: 1 } }],
    ['minItems', { checks: { kind: 'a', tags: [] } }],
    ['maxItems', { checks: { kind: 'a', tags: ['a', 'b', 'c'] } }],
    ['uniqueItems', { checks: { kind: 'a', tags: ['a', 'a'] } }],
    ['type', { checks: { kind: 'a', tags: [1] } }],
    ['required', { checks: { kind: 'a', nested: {} } }],
    ['type', { page: 1.5 }],
    ['minimum', { page: 0 }],
    ['path', { draftId: '..' }],
    ['path', { draftId: '.' }],
    ['path', { draftId: '' }],
  ];
  for (const [keyword, change] of invalid) {
    it(`rejects a value breaking ${keyword}: ${JSON.stringify(change)}`, async () => {
      const { calls, dispatch } = mock();
      const error = await rejects(() => saveSampleDraft({ ...draft(), ...change }, { dispatch }), 'INVALID_INPUT');
      assert.equal(error.outcomeKnown, true, 'nothing was sent');
      assert.ok(error.details.errors.some((e) => e.keyword === keyword), JSON.stringify(error.details.errors));
      assert.equal(calls.length, 0);
    });
  }

  it('accepts null where the type allows it, and an astral character as one', async () => {
    const { dispatch } = mock(lookupReply, saveReply);
    await saveSampleDraft({ ...draft(), checks: { kind: 'b', name: null } }, { dispatch });
    const second = mock(lookupReply, saveReply);
    await rejects(() => saveSampleDraft({ ...draft(), checks: { kind: 'b', name: '😀' } }, { dispatch: second.dispatch }), 'INVALID_INPUT');
  });

  it('rejects an input that is not a plain object', async () => {
    await rejects(() => saveSampleDraft(undefined, { dispatch: mock().dispatch }), 'INVALID_INPUT');
    await rejects(() => saveSampleDraft(new Map(), { dispatch: mock().dispatch }), 'INVALID_INPUT');
  });
});

describe('conditional rules and constraints', () => {
  // validate-sample-request: attachmentGrants is required while
  // selectionGrant.requiresAttachment is true and forbidden while
  // selectionGrant.allowsAttachment is false; the cross-field constraint
  // wants attachmentGrants non-empty while an attachment is required; two
  // forbidden shapes want no requestData.note and no non-empty uploadResult
  // in any attachment grant.
  const selection = (requiresAttachment, allowsAttachment) => ({ grantId: 's-1', requiresAttachment, allowsAttachment });
  const grant = { grantId: 'a-1', uploadResult: '' };
  const validReply = { status: 200, data: { validationGrant: { grantId: 'v-1', payloadDigest: 'd' }, payloadDigest: 'd' } };
  const refused = [
    ['requiredWhen', '/attachmentGrants', { selectionGrant: selection(true, true) }],
    ['forbiddenWhen', '/attachmentGrants', { selectionGrant: selection(false, false), attachmentGrants: [grant] }],
    // requiredWhen is satisfied by the member; the constraint wants it non-empty.
    ['constraint', '/', { selectionGrant: selection(true, true), attachmentGrants: [] }],
    ['constraint', '/requestData/note', { selectionGrant: selection(false, true), requestData: { subject: 'Seeds', note: 'x' } }],
    ['constraint', '/', { selectionGrant: selection(false, true), attachmentGrants: [grant, { grantId: 'a-2', uploadResult: 'u' }] }],
  ];
  for (const [keyword, path, input] of refused) {
    it(`refuses before dispatch what breaks ${keyword} at ${path}: ${JSON.stringify(input)}`, async () => {
      const { calls, dispatch } = mock(validReply);
      const error = await rejects(() => validateSampleRequest({ requestData: { subject: 'Seeds' }, ...input }, { dispatch }), 'INVALID_INPUT');
      assert.equal(calls.length, 0);
      assert.equal(error.outcomeKnown, true, 'nothing was sent');
      assert.ok(error.details.errors.some((e) => e.keyword === keyword && e.path === path), JSON.stringify(error.details.errors));
      const toolError = normalizeToolError(error, WRITE);
      assert.equal(toolError.code, 'INVALID_INPUT', 'a write refused before sending keeps its code');
      assert.equal(toolError.retryable, false);
    });
  }

  const accepted = [
    ['the required input given', { selectionGrant: selection(true, true), attachmentGrants: [grant] }],
    ['the required input left out while its condition does not hold', { selectionGrant: selection(false, true) }],
    ['the forbidden input left out while its condition holds', { selectionGrant: selection(false, false) }],
    ['the forbidden input given while its condition does not hold', { selectionGrant: selection(false, true), attachmentGrants: [] }],
  ];
  for (const [what, input] of accepted) {
    it(`dispatches with ${what}`, async () => {
      const { calls, dispatch } = mock(validReply);
      const args = { requestData: { subject: 'Seeds' }, ...input };
      await validateSampleRequest(args, { dispatch });
      assert.equal(calls.length, 1);
      assert.deepEqual(calls[0].options.body, args);
    });
  }
});

describe('the default dispatcher', () => {
  // The default dispatcher sends with the global fetch: count what reaches
  // it, and answer nothing.
  let fetched = [];
  const realFetch = globalThis.fetch;
  before(() => {
    globalThis.fetch = async (url) => {
      fetched.push(String(url));
      throw new TypeError('fetch failed');
    };
  });
  after(() => {
    globalThis.fetch = realFetch;
  });
  beforeEach(() => {
    fetched = [];
  });

  for (const [what, context] of [['an empty context', {}], ['no context', undefined], ['a null context', null], ['a dispatch that is not a function', { dispatch: 'https://elsewhere.example' }]]) {
    it(`serves a Function given ${what}, and refuses authentication only the Host can supply, sending nothing`, async () => {
      const error = await rejects(() => saveSampleDraft(draft(), context), 'HOST_AUTHENTICATION_REQUIRED');
      assert.equal(error.outcomeKnown, true, 'nothing was sent');
      assert.deepEqual(error.details, { authentication: 'runtime_context' });
      assert.deepEqual(fetched, []);
      const toolError = normalizeToolError(error, WRITE);
      assert.equal(toolError.code, 'HOST_AUTHENTICATION_REQUIRED', 'a write refused before sending keeps its code');
      assert.equal(toolError.retryable, false);
    });
  }

  it('is not used when the runtime context has a dispatcher', async () => {
    const { calls, dispatch } = mock(lookupReply, saveReply);
    await saveSampleDraft(draft(), { dispatch });
    assert.equal(calls.length, 2);
    assert.deepEqual(fetched, []);
  });

  it('serves a guarded write through the guard, whose operation a refusal before sending does not block', async () => {
    const guard = new PortableWorkflowGuard();
    guard.protect({
      workflowId: 'submit-sample-request',
      operationKey: 'op-3',
      bindingSources: { validationGrantId: { kind: 'capability-input', inputName: 'validationGrant', path: ['grantId'] } },
      expectedValues: { validationGrantId: 'v-1' },
    });
    const input = {
      requestData: { subject: 'Seed swap' },
      validationGrant: { grantId: 'v-1', payloadDigest: 'd' },
      confirmationGrant: { grantId: 'c-1', validationGrantId: 'v-1', payloadDigest: 'd' },
    };
    const context = { workflowGuard: guard, protectedWorkflows: { 'submit-sample-request': { operationKey: 'op-3' } } };
    const error = await rejects(() => submitSampleRequest(input, context), 'HOST_AUTHENTICATION_REQUIRED');
    assert.equal(error.outcomeKnown, true);
    assert.deepEqual(fetched, []);
    const { calls, dispatch } = mock({ status: 201, data: { requestId: 'r-1' } });
    await submitSampleRequest(input, { ...context, dispatch });
    assert.equal(calls.length, 1, 'the Host dispatcher may still send the protected write');
  });
});

describe('cancellation', () => {
  it('hands the runtime context\'s signal to every request, and no signal when the context has none', async () => {
    const controller = new AbortController();
    const signals = [];
    const replies = [lookupReply, saveReply];
    const dispatch = async (url, options) => {
      signals.push(Object.hasOwn(options, 'signal') ? options.signal : 'none');
      return replies[signals.length - 1];
    };
    await saveSampleDraft(draft(), { dispatch, signal: controller.signal });
    assert.equal(signals.length, 2);
    assert.ok(signals.every((signal) => signal === controller.signal), 'each step carries the call\'s signal');
    signals.length = 0;
    await saveSampleDraft(draft(), { dispatch });
    assert.deepEqual(signals, ['none', 'none']);
  });

  it('stops a guarded write\'s request when its call is cancelled', async () => {
    const guard = new PortableWorkflowGuard();
    guard.protect({
      workflowId: 'submit-sample-request',
      operationKey: 'op-4',
      bindingSources: { validationGrantId: { kind: 'capability-input', inputName: 'validationGrant', path: ['grantId'] } },
      expectedValues: { validationGrantId: 'v-1' },
    });
    const input = {
      requestData: { subject: 'Seed swap' },
      validationGrant: { grantId: 'v-1', payloadDigest: 'd' },
      confirmationGrant: { grantId: 'c-1', validationGrantId: 'v-1', payloadDigest: 'd' },
    };
    const controller = new AbortController();
    let sent = 0;
    let stopped = false;
    const dispatch = (url, options) => new Promise((resolve, reject) => {
      sent++;
      options.signal?.addEventListener('abort', () => {
        stopped = true;
        reject(Object.assign(new Error('aborted'), { code: 'DISPATCH_ABORTED' }));
      });
      controller.abort();
      setTimeout(() => reject(new Error('not stopped')), 1000);
    });
    const context = { workflowGuard: guard, protectedWorkflows: { 'submit-sample-request': { operationKey: 'op-4' } }, dispatch, signal: controller.signal };
    // The guard reports a protected write stopped after sending as of
    // unknown outcome.
    const error = await rejects(() => submitSampleRequest(input, context), 'UNKNOWN_DISPATCH_OUTCOME');
    assert.equal(sent, 1);
    assert.ok(stopped, 'the request saw its call cancelled');
    assert.equal(normalizeToolError(error, WRITE).code, 'UNKNOWN_DISPATCH_OUTCOME');
  });
});

describe('failures', () => {
  it('stops at a status the contract does not accept', async () => {
    const { calls, dispatch } = mock({ status: 404, data: { error: 'gone' } });
    const error = await rejects(() => saveSampleDraft(draft(), { dispatch }), 'BUSINESS_REJECTED');
    assert.equal(calls.length, 1, 'no later step runs');
    assert.equal(error.outcomeKnown, true);
    assert.equal(error.category, 'business');
    assert.deepEqual(error.details, { category: 'business', stepId: 'lookup', status: 404, response: { error: 'gone' } });
  });

  it('rejects a second step by its status too', async () => {
    const { calls, dispatch } = mock(lookupReply, { status: 409, data: {} });
    const error = await rejects(() => saveSampleDraft(draft(), { dispatch }), 'BUSINESS_REJECTED');
    assert.equal(calls.length, 2);
    assert.equal(error.details.stepId, 'saveDraft');
  });

  it('names the category a rejected status means', async () => {
    const cases = [
      [401, 'AUTHORIZATION_REJECTED', 'authorization'],
      [403, 'AUTHORIZATION_REJECTED', 'authorization'],
      [404, 'BUSINESS_REJECTED', 'business'],
      [422, 'BUSINESS_REJECTED', 'business'],
      [408, 'UPSTREAM_STEP_REJECTED', 'upstream'],
      [500, 'UPSTREAM_STEP_REJECTED', 'upstream'],
      [503, 'UPSTREAM_STEP_REJECTED', 'upstream'],
      [302, 'UPSTREAM_STEP_REJECTED', 'upstream'],
      // The contract's categoryByStatus overrides the status class.
      [400, 'INPUT_REJECTED', 'input'],
      [429, 'BUSINESS_REJECTED', 'business'],
    ];
    for (const [status, code, category] of cases) {
      const { dispatch } = mock({ status, data: {} });
      const error = await rejects(() => saveSampleDraft(draft(), { dispatch }), code);
      assert.equal(error.details.category, category, `status ${status}`);
      assert.equal(normalizeToolError(error, WRITE).details.category, category, `normalized status ${status}`);
    }
  });

  it("keeps the backend's own code, message and field errors", async () => {
    const backend = { error: { code: 'SUBJECT_TAKEN', message: 'the subject is in use', fields: [{ field: 'subject', reason: 'taken' }] } };
    const { dispatch } = mock(lookupReply, { status: 422, data: backend });
    const error = await rejects(() => saveSampleDraft(draft(), { dispatch }), 'BUSINESS_REJECTED');
    assert.equal(error.message, 'step saveDraft answered 422; the contract accepts 200, 201, 204 (SUBJECT_TAKEN: the subject is in use)');
    assert.deepEqual(error.details, {
      category: 'business', stepId: 'saveDraft', status: 422,
      sourceCode: 'SUBJECT_TAKEN', sourceMessage: 'the subject is in use',
      fieldErrors: [{ field: 'subject', reason: 'taken' }], response: backend,
    });
    // The second step's rejection follows a write of nothing: the lookup
    // only reads, so the rejection is known and keeps its meaning.
    const normalized = normalizeToolError(error, WRITE);
    assert.equal(normalized.code, 'BUSINESS_REJECTED');
    assert.equal(normalized.details.sourceCode, 'SUBJECT_TAKEN');
    assert.deepEqual(normalized.details.fieldErrors, [{ field: 'subject', reason: 'taken' }]);
    assert.equal(normalized.retryable, false);
  });

  it('reads a numeric backend code as text and ignores what is not there', async () => {
    const { dispatch } = mock({ status: 403, data: { error: { code: 7, message: '' } } });
    const error = await rejects(() => saveSampleDraft(draft(), { dispatch }), 'AUTHORIZATION_REJECTED');
    assert.equal(error.details.sourceCode, '7');
    assert.ok(!Object.hasOwn(error.details, 'sourceMessage'));
    assert.ok(!Object.hasOwn(error.details, 'fieldErrors'));
  });

  it('names the category of input and output failures', async () => {
    const input = await rejects(() => saveSampleDraft({}, mock()), 'INVALID_INPUT');
    assert.equal(input.details.category, 'input');
    const { dispatch } = mock(lookupReply, { status: 201, data: {} });
    const output = await rejects(() => saveSampleDraft(draft(), { dispatch }), 'OUTPUT_CONTRACT_VIOLATED');
    assert.equal(output.details.category, 'output-contract');
    assert.equal(normalizeToolError(output, WRITE).details.category, 'unknown-outcome');
  });

  it('answers an empty body at an empty-body status with null data', async () => {
    const { calls, dispatch } = mock(lookupReply, { status: 204, data: null });
    assert.deepEqual(await saveSampleDraft(draft(), { dispatch }), { status: 204, data: null });
    assert.equal(calls.length, 2);
  });

  it('reports an empty body at another success status as an output contract violation', async () => {
    for (const status of [200, 201]) {
      const { dispatch } = mock(lookupReply, { status, data: null });
      const error = await rejects(() => saveSampleDraft(draft(), { dispatch }), 'OUTPUT_CONTRACT_VIOLATED');
      assert.equal(error.details.errors[0].keyword, 'emptyBodyStatusCodes');
      assert.equal(error.outcomeKnown, undefined, 'the write was sent');
    }
  });

  it('judges a body at an empty-body status as any other', async () => {
    const { dispatch } = mock(lookupReply, { status: 204, data: { draftId: 'draft-10' } });
    await rejects(() => saveSampleDraft(draft(), { dispatch }), 'OUTPUT_CONTRACT_VIOLATED');
    const ok = mock(lookupReply, { status: 204, data: { draftId: 'draft-9' } });
    assert.deepEqual(await saveSampleDraft(draft(), { dispatch: ok.dispatch }), { status: 204, data: { draftId: 'draft-9' } });
  });

  it('needs the values a later step reads from an earlier response', async () => {
    const { calls, dispatch } = mock({ status: 200, data: { draft: {} } });
    const error = await rejects(() => saveSampleDraft(draft(), { dispatch }), 'UPSTREAM_RESPONSE_INVALID');
    assert.equal(calls.length, 1);
    assert.equal(error.outcomeKnown, undefined, 'the first step was sent');
  });

  it('refuses a dispatcher answer without an integer status', async () => {
    await rejects(() => saveSampleDraft(draft(), mock({ data: {} })), 'UPSTREAM_RESPONSE_INVALID');
  });

  const broken = [
    ['a forbidden key', { draftId: 'd', error: 'denied' }],
    ['a missing required output', {}],
    ['a null required output', { draftId: null }],
    ['a wrong output type', { draftId: 7 }],
    ['a value outside the static domain', { draftId: 'draft-10' }],
  ];
  for (const [what, data] of broken) {
    it(`reports ${what} as an output contract violation of unknown outcome`, async () => {
      const { dispatch } = mock(lookupReply, { status: 200, data });
      const error = await rejects(() => saveSampleDraft(draft(), { dispatch }), 'OUTPUT_CONTRACT_VIOLATED');
      assert.equal(error.outcomeKnown, undefined, 'the write was sent');
    });
  }
});

describe('the error normalizer reads the failures', () => {
  it('keeps an input error of a write as a known rejection', async () => {
    const error = await rejects(() => saveSampleDraft({ ...draft(), page: 0 }, mock()), 'INVALID_INPUT');
    const toolError = normalizeToolError(error, WRITE);
    assert.equal(toolError.code, 'INVALID_INPUT');
    assert.equal(toolError.retryable, false);
    assert.equal(toolError.details.outcomeKnown, true);
  });

  it('turns a malformed write response into an unknown outcome', async () => {
    const error = await rejects(() => saveSampleDraft(draft(), mock(lookupReply, { status: 200, data: {} })), 'OUTPUT_CONTRACT_VIOLATED');
    assert.equal(normalizeToolError(error, WRITE).code, 'UNKNOWN_DISPATCH_OUTCOME');
  });
});

describe('guarded writes', () => {
  const grant = { grantId: 'grant-1', fileName: 'plan.pdf', mediaType: 'application/pdf', sizeBytes: 2048, sha256: 'a'.repeat(64) };
  const resolved = { content: 'UERGLTEuNA==', fileName: 'plan.pdf', mediaType: 'application/pdf' };

  function guarded(dispatch, extra = {}) {
    const guard = new PortableWorkflowGuard();
    guard.protect({
      workflowId: 'upload-sample-attachment',
      operationKey: 'op-1',
      bindingSources: { attachmentGrantId: { kind: 'capability-input', inputName: 'hostAttachmentGrant', path: ['grantId'] } },
      expectedValues: { attachmentGrantId: 'grant-1' },
      singleUse: true,
    });
    return {
      dispatch,
      workflowGuard: guard,
      protectedWorkflows: { 'upload-sample-attachment': { operationKey: 'op-1' } },
      resolvedAttachments: { hostAttachmentGrant: resolved },
      ...extra,
    };
  }

  it('dispatches once, through the guard, with the resolved attachment', async () => {
    const { calls, dispatch } = mock({ status: 201, data: { uploadedAttachmentGrant: { grantId: 'u-1', uploadResult: 'ok' } } });
    const result = await uploadSampleAttachment({ hostAttachmentGrant: grant }, guarded(dispatch));
    assert.deepEqual(calls, [{
      url: `${ORIGIN}/attachments`,
      options: { method: 'POST', authentication: 'runtime_context', headers: { accept: 'application/json' }, multipart: { file: resolved } },
    }]);
    assert.deepEqual(result, { status: 201, data: { uploadedAttachmentGrant: { grantId: 'u-1', uploadResult: 'ok' } } });
  });

  it('sends nothing when a binding does not match the protected operation', async () => {
    const { calls, dispatch } = mock();
    const error = await rejects(() => uploadSampleAttachment({ hostAttachmentGrant: { ...grant, grantId: 'other' } }, guarded(dispatch)),
      'WORKFLOW_BINDING_VIOLATION');
    assert.equal(error.outcomeKnown, true);
    assert.equal(calls.length, 0);
  });

  it('sends nothing without a guard in the runtime context', async () => {
    const { calls, dispatch } = mock();
    await rejects(() => uploadSampleAttachment({ hostAttachmentGrant: grant }, { dispatch, resolvedAttachments: { hostAttachmentGrant: resolved } }),
      'WORKFLOW_GUARD_UNAVAILABLE');
    assert.equal(calls.length, 0);
  });

  it('checks the attachment before the guard consumes the operation', async () => {
    const { calls, dispatch } = mock({ status: 201, data: { uploadedAttachmentGrant: { grantId: 'u-1', uploadResult: 'ok' } } });
    const context = guarded(dispatch, { resolvedAttachments: {} });
    const error = await rejects(() => uploadSampleAttachment({ hostAttachmentGrant: grant }, context), 'ATTACHMENT_NOT_RESOLVED');
    assert.equal(error.outcomeKnown, true);
    assert.equal(calls.length, 0);
    context.resolvedAttachments = { hostAttachmentGrant: resolved };
    await uploadSampleAttachment({ hostAttachmentGrant: grant }, context);
    assert.equal(calls.length, 1, 'the single-use operation was still available');
  });

  it('blocks the operation when a dispatched write breaks the output contract', async () => {
    const { dispatch } = mock({ status: 201, data: {} });
    const error = await rejects(() => uploadSampleAttachment({ hostAttachmentGrant: grant }, guarded(dispatch)), 'UNKNOWN_DISPATCH_OUTCOME');
    assert.equal(error.outcomeKnown, false);
  });

  it('builds the request from the guard\'s frozen copy of the input', async () => {
    const guard = new PortableWorkflowGuard();
    guard.protect({
      workflowId: 'submit-sample-request',
      operationKey: 'op-2',
      bindingSources: { validationGrantId: { kind: 'capability-input', inputName: 'validationGrant', path: ['grantId'] } },
      expectedValues: { validationGrantId: 'v-1' },
    });
    const input = {
      requestData: { subject: 'Seed swap' },
      validationGrant: { grantId: 'v-1', payloadDigest: 'd' },
      confirmationGrant: { grantId: 'c-1', validationGrantId: 'v-1', payloadDigest: 'd' },
    };
    let seen;
    const dispatch = async (url, options) => {
      seen = options;
      return { status: 201, data: { requestId: 'r-1' } };
    };
    await submitSampleRequest(input, { dispatch, workflowGuard: guard, protectedWorkflows: { 'submit-sample-request': { operationKey: 'op-2' } } });
    assert.ok(Object.isFrozen(seen.body.requestData), 'the body carries the guard\'s frozen snapshot');
    assert.notEqual(seen.body.requestData, input.requestData);
  });
});
