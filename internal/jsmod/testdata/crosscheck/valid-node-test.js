import { test } from 'node:test';
import assert from 'node:assert/strict';

test('requests go to the configured base URL', async (t) => {
  process.env.CODE2SKILL_GARDEN_PLOTS_BASE_URL = 'https://api.invalid';
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url: String(url), method: init?.method ?? 'GET' });
    return new Response('{"plots":[]}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const { listPlots } = await import('../function-core/index.mjs');
  const result = await listPlots({ onlyFree: true }, { fetch, env: process.env });
  assert.equal(result.httpStatus, 200);
  assert.deepEqual(calls, [{ url: 'https://api.invalid/plots?only_free=true', method: 'GET' }]);
  t.diagnostic(`made ${calls.length} call(s)`);
});
