// Authentication: the host's token, as `Authorization: Token <token>`. The credentials come from
// the host's environment only; a missing one stops the call before any
// request, and none reaches a result.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  NOTES_TOKEN,
  AUTH_HEADER,
  AUTH_SCHEME,
  MissingConfigurationError,
  send,
} from '../function-core/index.mjs';
import { contextWith, env, forbiddenFetch, recordingFetch, secrets } from './helpers.mjs';

test('every request carries the token', async () => {
  const { fetch, requests } = recordingFetch();
  await send({ method: 'GET', path: 'orders' }, contextWith(fetch));
  assert.equal(requests[0].headers[AUTH_HEADER], `${AUTH_SCHEME} ${env[NOTES_TOKEN]}`);
  assert.equal(requests[0].headers['authorization'], `Token ${env[NOTES_TOKEN]}`);
});

test('a 401 is the service\'s answer: passed through, not retried', async () => {
  const { fetch, requests } = recordingFetch(401, '{"error":"token expired"}');
  const result = await send({ method: 'GET', path: 'orders' }, contextWith(fetch));
  assert.deepEqual(result, { httpStatus: 401, bodyText: '{"error":"token expired"}' });
  assert.equal(requests.length, 1);
});

test('a missing credential stops the call before any request', async () => {
  for (const variable of [NOTES_TOKEN]) {
    const context = contextWith(forbiddenFetch, { env: { ...env, [variable]: '' } });
    await assert.rejects(send({ method: 'GET', path: 'orders' }, context), (error) => {
      assert.ok(error instanceof MissingConfigurationError);
      assert.deepEqual(error.details, { variable });
      return true;
    });
  }
});
