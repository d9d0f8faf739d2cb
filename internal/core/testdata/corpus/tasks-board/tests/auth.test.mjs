// Authentication: an access token from logging in once, renewed on a 401. The credentials come from
// the host's environment only; a missing one stops the call before any
// request, and none reaches a result.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  API_USERNAME,
  API_PASSWORD,
  LoginFailedError,
  MissingConfigurationError,
  send,
} from '../function-core/index.mjs';
import { contextWith, env, forbiddenFetch, recordingFetch, secrets } from './helpers.mjs';

test('the server logs in once and sends the access token', async () => {
  const { fetch, requests, logins } = recordingFetch();
  const context = contextWith(fetch);
  await send({ method: 'GET', path: 'orders' }, context);
  await send({ method: 'GET', path: 'orders' }, context);
  assert.deepEqual(logins, [{ email: env[API_USERNAME], password: env[API_PASSWORD] }]);
  assert.deepEqual(requests.map((r) => r.headers.authorization), ['Bearer token-1', 'Bearer token-1']);
});

test('calls made at the same time log in once', async () => {
  const { fetch, requests, logins } = recordingFetch();
  const context = contextWith(fetch);
  await Promise.all([1, 2, 3].map(() => send({ method: 'GET', path: 'orders' }, context)));
  assert.equal(logins.length, 1);
  assert.equal(requests.length, 3);
});

test('a 401 renews the token exactly once', async () => {
  const { fetch, requests, logins } = recordingFetch(200, '{}', { statuses: [401, 200] });
  const result = await send({ method: 'GET', path: 'orders' }, contextWith(fetch));
  assert.equal(result.httpStatus, 200);
  assert.equal(logins.length, 2);
  assert.deepEqual(requests.map((r) => r.headers.authorization), ['Bearer token-1', 'Bearer token-2']);
});

test('a 401 after renewing is the service\'s answer', async () => {
  const { fetch, requests, logins } = recordingFetch(200, '{"error":"no access"}', { statuses: [401, 401, 200] });
  const result = await send({ method: 'GET', path: 'orders' }, contextWith(fetch));
  assert.deepEqual(result, { httpStatus: 401, bodyText: '{"error":"no access"}' });
  assert.equal(logins.length, 2);
  assert.equal(requests.length, 2);
});

test('a refused login stops the call and names the variables, not their values', async () => {
  const { fetch, requests } = recordingFetch(200, '{}', { loginStatus: 401 });
  await assert.rejects(send({ method: 'GET', path: 'orders' }, contextWith(fetch)), (error) => {
    assert.ok(error instanceof LoginFailedError);
    assert.deepEqual(error.details, { httpStatus: 401, variables: [API_USERNAME, API_PASSWORD] });
    for (const secret of secrets) {
      assert.ok(!error.message.includes(secret), 'the error shows a credential');
    }
    return true;
  });
  assert.equal(requests.length, 0);
});

test('a missing credential stops the call before any request', async () => {
  for (const variable of [API_USERNAME, API_PASSWORD]) {
    const context = contextWith(forbiddenFetch, { env: { ...env, [variable]: '' } });
    await assert.rejects(send({ method: 'GET', path: 'orders' }, context), (error) => {
      assert.ok(error instanceof MissingConfigurationError);
      assert.deepEqual(error.details, { variable });
      return true;
    });
  }
});
