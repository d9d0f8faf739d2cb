import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchSeedVarieties, MissingConfigurationError } from '../function-core/index.mjs';
import { env, recordingFetch, forbiddenFetch, hangingFetch } from './helpers.mjs';

test('search sends the phrase and month as query parameters', async () => {
  const { fetch, calls } = recordingFetch(200, '{"varieties":[]}');
  const result = await searchSeedVarieties({ query: ' early pea ', sowingMonth: '3' }, { env, fetch });
  assert.equal(calls.length, 1);
  assert.equal(calls[0].method, 'GET');
  assert.equal(calls[0].url, 'https://catalog.seed-library.invalid/api/varieties?q=early+pea&sowing_month=3');
  assert.deepEqual(result, { httpStatus: 200, bodyText: '{"varieties":[]}' });
});

test('search leaves out filters that were not given', async () => {
  const { fetch, calls } = recordingFetch();
  await searchSeedVarieties({ query: null, sowingMonth: '' }, { env, fetch });
  assert.equal(calls[0].url, 'https://catalog.seed-library.invalid/api/varieties');
});

test('an error status is passed through, not judged', async () => {
  const { fetch } = recordingFetch(503, 'catalog is being restocked');
  const result = await searchSeedVarieties({}, { env, fetch });
  assert.deepEqual(result, { httpStatus: 503, bodyText: 'catalog is being restocked' });
});

test('a missing base URL stops before any request', async () => {
  await assert.rejects(
    searchSeedVarieties({ query: 'bean' }, { env: {}, fetch: forbiddenFetch() }),
    (error) => error instanceof MissingConfigurationError && error.variable === 'CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL',
  );
});

test('a request that takes too long is stopped', { timeout: 10_000 }, async () => {
  const { fetch, aborted } = hangingFetch();
  await assert.rejects(searchSeedVarieties({}, { env, fetch, timeoutMs: 20 }), { name: 'TimeoutError' });
  assert.equal((await aborted).name, 'TimeoutError');
});

test('a request stops when the caller aborts it', async () => {
  const { fetch, started, aborted } = hangingFetch();
  const controller = new AbortController();
  const pending = searchSeedVarieties({}, { env, fetch, signal: controller.signal });
  await started;
  controller.abort();
  await assert.rejects(pending, { name: 'AbortError' });
  assert.equal((await aborted).name, 'AbortError');
});
