// A write the deployer requires confirmed, compiled from the reference
// contract (node_test.go), under real node: its Function checks the trusted
// runtime context's confirmation before anything is dispatched.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { saveSampleDraft } from '../function-core/index.mjs';
import { normalizeToolError } from '../portable-error-normalizer.mjs';

const POLICY = { sideEffect: 'update', idempotency: 'idempotent', automaticRetry: 'never', confirmation: 'trusted-confirmation-required', unknownOutcome: 'stop-and-reconcile' };
const input = { requestData: { subject: 'Seed swap' } };

function counted() {
  const calls = [];
  return { calls, dispatch: async (url, options) => { calls.push({ url, options }); return { status: 200, data: { draftId: 'draft-1' } }; } };
}

describe('a write the deployer requires confirmed', () => {
  for (const [what, extra] of [['no confirmation', {}], ['an empty confirmation', { confirmationGrantId: '' }], ['a confirmation that is not text', { confirmationGrantId: true }]]) {
    it(`sends nothing with ${what}`, async () => {
      const { calls, dispatch } = counted();
      let thrown;
      try {
        await saveSampleDraft(input, { dispatch, ...extra });
      } catch (error) {
        thrown = error;
      }
      assert.equal(thrown?.code, 'CONFIRMATION_REQUIRED');
      assert.equal(thrown.outcomeKnown, true);
      assert.equal(calls.length, 0);
      const toolError = normalizeToolError(thrown, POLICY);
      assert.equal(toolError.code, 'CONFIRMATION_REQUIRED', 'a known refusal keeps its code');
      assert.equal(toolError.retryable, false);
    });
  }

  it('does not read a confirmation the context inherits', async () => {
    const { calls, dispatch } = counted();
    const context = Object.create({ confirmationGrantId: 'inherited' });
    context.dispatch = dispatch;
    await assert.rejects(() => saveSampleDraft(input, context), { code: 'CONFIRMATION_REQUIRED' });
    assert.equal(calls.length, 0);
  });

  it('dispatches once the context carries the confirmation', async () => {
    const { calls, dispatch } = counted();
    const result = await saveSampleDraft(input, Object.freeze({ dispatch, confirmationGrantId: 'confirmation-1' }));
    assert.deepEqual(result, { status: 200, data: { draftId: 'draft-1' } });
    assert.equal(calls.length, 1);
  });
});
