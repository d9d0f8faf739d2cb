import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listMyReservations, cancelReservation, MissingConfigurationError, MissingInputError } from '../function-core/index.mjs';
import { env, token, recordingFetch, forbiddenFetch } from './helpers.mjs';

// What the reservation service answers for GET members/me/reservations: it
// repeats the member's session token, which must not reach the agent.
const answer = JSON.stringify({
  member: { memberId: 'm-7', name: 'A. Gardener', sessionToken: 'sess-0123456789abcdef' },
  reservations: [{ reservationId: 'r-1', varietyName: 'Early pea', packetCount: 2, pickupAt: '2026-04-03T09:30:00', status: 'active' }],
});

test('the member\'s reservations are read with the member\'s token, filtered by state', async () => {
  const { fetch, calls } = recordingFetch(200, '{"member":{"memberId":"m-7"},"reservations":[]}');
  const result = await listMyReservations({ status: ' active ' }, { env, fetch });
  assert.deepEqual(calls, [{
    method: 'GET',
    url: 'https://reservations.seed-library.invalid/v2/members/me/reservations?status=active',
    headers: { accept: 'application/json', authorization: `Token ${token}` },
    body: undefined,
  }]);
  assert.deepEqual(result, { httpStatus: 200, bodyText: '{"member":{"memberId":"m-7"},"reservations":[]}' });
});

test('the session token the service repeats is removed, everything else kept', async () => {
  const { fetch } = recordingFetch(200, answer);
  const result = await listMyReservations({}, { env, fetch });
  const body = JSON.parse(result.bodyText);
  assert.equal(result.httpStatus, 200);
  assert.deepEqual(body.member, { memberId: 'm-7', name: 'A. Gardener' });
  assert.deepEqual(body.reservations, JSON.parse(answer).reservations);
  assert.ok(!result.bodyText.includes('sess-0123456789abcdef'), 'the result still holds the session token');
});

test('a refusal is passed through as status and body', async () => {
  const { fetch } = recordingFetch(401, '{"error":"token expired"}');
  assert.deepEqual(await listMyReservations({}, { env, fetch }), { httpStatus: 401, bodyText: '{"error":"token expired"}' });
});

test('a cancellation is a DELETE of the reservation, its id one path segment', async () => {
  const { fetch, calls } = recordingFetch(200, '{"reservationId":"r/1","status":"cancelled"}');
  const result = await cancelReservation({ reservationId: ' r/1 ' }, { env, fetch });
  assert.deepEqual(calls.map((c) => [c.method, c.url, c.headers.authorization, c.body]), [
    ['DELETE', 'https://reservations.seed-library.invalid/v2/reservations/r%2F1', `Token ${token}`, undefined],
  ]);
  assert.deepEqual(result, { httpStatus: 200, bodyText: '{"reservationId":"r/1","status":"cancelled"}' });
});

test('a cancellation without a reservation id stops before any request', async () => {
  for (const reservationId of [undefined, null, '', '  ']) {
    await assert.rejects(
      cancelReservation({ reservationId }, { env, fetch: forbiddenFetch() }),
      (error) => error instanceof MissingInputError && error.input === 'reservationId',
    );
  }
});

test('a cancellation under dry-run sends nothing', async () => {
  const result = await cancelReservation({ reservationId: 'r-1' }, { env: { ...env, CODE2SKILL_DRY_RUN: '1' }, fetch: forbiddenFetch() });
  assert.deepEqual(result, {
    dryRun: true,
    request: {
      method: 'DELETE',
      url: 'https://reservations.seed-library.invalid/v2/reservations/r-1',
      headers: { accept: 'application/json', authorization: '[credential, not shown]' },
      body: undefined,
    },
  });
});

test('without the reservation service configured, nothing is sent', async () => {
  for (const missing of ['CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL', 'CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN']) {
    const partial = { ...env, [missing]: '' };
    for (const call of [() => listMyReservations({}, { env: partial, fetch: forbiddenFetch() }), () => cancelReservation({ reservationId: 'r-1' }, { env: partial, fetch: forbiddenFetch() })]) {
      await assert.rejects(call(), (error) => error instanceof MissingConfigurationError && error.variable === missing);
    }
  }
});
