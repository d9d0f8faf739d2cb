import assert from 'node:assert/strict';
import { test } from 'node:test';

import { followAuthor, unfollowAuthor, DRY_RUN, PrecheckError } from '../function-core/index.mjs';
import { contextWith, env, forbiddenFetch, routedFetch } from './helpers.mjs';

const me = [200, '{"data":{"username":"mossgazer"}}'];
const profile = '{"data":{"username":"fernwatch","following":true}}';

test('follow_author reads the user, then follows the author', async () => {
  const { fetch, requests } = routedFetch({ 'GET user': me, 'POST profiles/fernwatch/follow': [200, profile] });
  const result = await followAuthor({ username: 'fernwatch' }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => `${r.method} ${r.url}`), ['GET https://notes.invalid/api/user', 'POST https://notes.invalid/api/profiles/fernwatch/follow']);
  assert.deepEqual(result, { httpStatus: 200, bodyText: profile });
});

test('nobody follows or unfollows themselves', async () => {
  for (const fn of [followAuthor, unfollowAuthor]) {
    const { fetch, requests } = routedFetch({ 'GET user': me });
    await assert.rejects(fn({ username: 'MossGazer' }, contextWith(fetch)), (error) => error instanceof PrecheckError && error.message === 'you cannot follow yourself');
    assert.deepEqual(requests.map((r) => r.method), ['GET']);
  }
});

test('unfollow_author sends DELETE and passes a 404 through', async () => {
  const { fetch } = routedFetch({ 'GET user': me, 'DELETE profiles/nobody/follow': [404, '{"errors":{"profile":["not found"]}}'] });
  assert.deepEqual(await unfollowAuthor({ username: 'nobody' }, contextWith(fetch)), { httpStatus: 404, bodyText: '{"errors":{"profile":["not found"]}}' });
});

test('a refused read of the user is passed through, and nothing is written', async () => {
  const { fetch, requests } = routedFetch({ 'GET user': [401, '{"errors":{"token":["is expired"]}}'] });
  assert.deepEqual(await followAuthor({ username: 'fernwatch' }, contextWith(fetch)), { httpStatus: 401, bodyText: '{"errors":{"token":["is expired"]}}' });
  assert.equal(requests.length, 1);
});

test('a dry run of a follow sends nothing and names the check', async () => {
  const result = await followAuthor({ username: 'fernwatch' }, contextWith(forbiddenFetch, { env: { ...env, [DRY_RUN]: '1' } }));
  assert.equal(result.dryRun, true);
  assert.deepEqual(result.checksNotRun, ['the author is not the user']);
  assert.equal(result.request.url, 'https://notes.invalid/api/profiles/fernwatch/follow');
});
