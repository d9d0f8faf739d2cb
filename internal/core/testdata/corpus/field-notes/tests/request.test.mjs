// send(), the one place every Function sends through: path inputs, time
// limits, cancellation and dry-run.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DRY_RUN, MissingInputError, isDryRun, pathSegment, send } from '../function-core/index.mjs';
import { contextWith, env, forbiddenFetch, hangingFetch, json, recordingFetch, secrets } from './helpers.mjs';

test('a path input is sent as one encoded segment', async () => {
  const { fetch, requests } = recordingFetch();
  await send({ method: 'GET', path: `items/${pathSegment(' a/b ', 'itemId')}` }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => r.url), ['https://notes.invalid/api/' + 'items/a%2Fb']);
});

test('a missing path input stops the call before any request', async () => {
  for (const value of [undefined, null, '', '  ']) {
    await assert.rejects(
      async () => send({ method: 'GET', path: `items/${pathSegment(value, 'itemId')}` }, contextWith(forbiddenFetch)),
      (error) => error instanceof MissingInputError && error.details.input === 'itemId',
    );
  }
});

test('a call that takes too long is stopped', { timeout: 10_000 }, async () => {
  const { fetch, aborted } = hangingFetch();
  await assert.rejects(send({ method: 'GET', path: 'slow' }, contextWith(fetch, { timeoutMs: 20 })), { name: 'TimeoutError' });
  assert.equal((await aborted).name, 'TimeoutError');
});

test('a call stops when the caller aborts it', async () => {
  const { fetch, started, aborted } = hangingFetch();
  const controller = new AbortController();
  const pending = send({ method: 'GET', path: 'slow' }, contextWith(fetch, { signal: controller.signal }));
  await started;
  controller.abort();
  await assert.rejects(pending, { name: 'AbortError' });
  assert.equal((await aborted).name, 'AbortError');
});

test('a write sends its body as JSON', async () => {
  const { fetch, requests } = recordingFetch(201, '{"id":"o-1"}');
  const result = await send({ method: 'POST', path: 'orders', body: { quantity: 2 } }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => [r.method, r.url, r.headers['content-type']]), [['POST', 'https://notes.invalid/api/' + 'orders', 'application/json']]);
  assert.deepEqual(json(requests[0]), { quantity: 2 });
  assert.deepEqual(result, { httpStatus: 201, bodyText: '{"id":"o-1"}' });
});

test('a write under dry-run returns the request and sends nothing', async () => {
  const context = contextWith(forbiddenFetch, { env: { ...env, [DRY_RUN]: '1' } });
  const result = await send({ method: 'POST', path: 'orders', body: { quantity: 2 } }, context);
  assert.deepEqual(result, {
    dryRun: true,
    request: {
      method: 'POST',
      url: 'https://notes.invalid/api/' + 'orders',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'authorization': '[credential, not shown]' },
      body: { quantity: 2 },
    },
  });
  for (const secret of secrets) {
    assert.ok(!JSON.stringify(result).includes(secret), 'the dry run shows a credential');
  }
});

test('a 204 passes through with an empty body', async () => {
  const { fetch } = recordingFetch(204);
  assert.deepEqual(await send({ method: 'DELETE', path: 'orders/o-1' }, contextWith(fetch)), { httpStatus: 204, bodyText: '' });
});

test('a dry run names the pre-checks it did not run', async () => {
  const context = contextWith(forbiddenFetch, { env: { ...env, [DRY_RUN]: '1' } });
  assert.equal(isDryRun(context), true);
  assert.equal(isDryRun(contextWith(forbiddenFetch)), false);
  const result = await send({ method: 'DELETE', path: 'orders/o-1', checksNotRun: ['the order is still open'] }, context);
  assert.equal(result.dryRun, true);
  assert.deepEqual(result.checksNotRun, ['the order is still open']);
});

test('a read is sent even under dry-run', async () => {
  const { fetch, requests } = recordingFetch();
  await send({ method: 'GET', path: 'orders' }, contextWith(fetch, { env: { ...env, [DRY_RUN]: '1' } }));
  assert.equal(requests.length, 1);
});
