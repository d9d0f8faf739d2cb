import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reserveSeedPackets, pickupTimestamp, MissingConfigurationError, MissingInputError } from '../function-core/index.mjs';
import { env, token, recordingFetch, forbiddenFetch } from './helpers.mjs';

// Two anonymous records as search_seed_varieties returns them. The second has
// no lot code: switching to it must not carry the first record's lot along.
const firstRecord = { varietyId: 'var-0001', lotCode: 'lot-a', name: 'Variety one', packetsAvailable: 4 };
const secondRecord = { varietyId: 'var-0002', name: 'Variety two', packetsAvailable: 9 };

test('the selected record is passed whole and switches completely between calls', async () => {
  const { fetch, calls } = recordingFetch(201, '{"reservationId":"r-1"}');
  const context = { env, fetch };
  await reserveSeedPackets({ selectedVariety: firstRecord, packetCount: 2, pickupDate: '2026-04-03', pickupTime: '9:30' }, context);
  await reserveSeedPackets({ selectedVariety: secondRecord, packetCount: '1', pickupDate: '2026-04-04' }, context);

  assert.equal(calls.length, 2);
  assert.deepEqual(JSON.parse(calls[0].body), {
    reservation: { variety_id: 'var-0001', lot_code: 'lot-a', packet_count: 2, pickup_at: '2026-04-03T09:30:00' },
  });
  assert.deepEqual(JSON.parse(calls[1].body), {
    reservation: { variety_id: 'var-0002', packet_count: 1, pickup_at: '2026-04-04T00:00:00' },
  });
  assert.ok(!calls[1].body.includes('lot-a'), 'the second request still carries the first record');
});

test('a reservation is a POST to the reservation service as the member', async () => {
  const { fetch, calls } = recordingFetch(201, '{"reservationId":"r-2"}');
  const result = await reserveSeedPackets({ selectedVariety: firstRecord, packetCount: 1, pickupDate: '2026-05-01', note: ' for the school garden ' }, { env, fetch });
  assert.deepEqual(calls, [{
    method: 'POST',
    url: 'https://reservations.seed-library.invalid/v2/reservations',
    headers: { accept: 'application/json', authorization: `Token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      reservation: { variety_id: 'var-0001', lot_code: 'lot-a', packet_count: 1, pickup_at: '2026-05-01T00:00:00', member_note: 'for the school garden' },
    }),
  }]);
  assert.deepEqual(result, { httpStatus: 201, bodyText: '{"reservationId":"r-2"}' });
});

test('a rejection is passed through as status and body', async () => {
  const { fetch } = recordingFetch(409, '{"error":"only 4 packets left"}');
  const result = await reserveSeedPackets({ selectedVariety: firstRecord, packetCount: 5 }, { env, fetch });
  assert.deepEqual(result, { httpStatus: 409, bodyText: '{"error":"only 4 packets left"}' });
});

test('dry-run returns the request, token not shown, and sends nothing', async () => {
  const result = await reserveSeedPackets(
    { selectedVariety: firstRecord, packetCount: 3, pickupDate: '2026-04-03', pickupTime: '14:05' },
    { env: { ...env, CODE2SKILL_DRY_RUN: '1' }, fetch: forbiddenFetch() },
  );
  assert.deepEqual(result, {
    dryRun: true,
    request: {
      method: 'POST',
      url: 'https://reservations.seed-library.invalid/v2/reservations',
      headers: { accept: 'application/json', authorization: '[credential, not shown]', 'content-type': 'application/json' },
      body: { reservation: { variety_id: 'var-0001', lot_code: 'lot-a', packet_count: 3, pickup_at: '2026-04-03T14:05:00' } },
    },
  });
  assert.ok(!JSON.stringify(result).includes(token), 'the dry run shows the token');
});

test('a missing token stops before any request', async () => {
  const { CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN, ...withoutToken } = env;
  await assert.rejects(
    reserveSeedPackets({ selectedVariety: firstRecord, packetCount: 1 }, { env: withoutToken, fetch: forbiddenFetch() }),
    (error) => error instanceof MissingConfigurationError && error.variable === 'CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN' && !error.message.includes(token),
  );
});

test('a missing base URL stops before any request', async () => {
  await assert.rejects(
    reserveSeedPackets({ selectedVariety: firstRecord }, { env: { CODE2SKILL_DRY_RUN: '1' }, fetch: forbiddenFetch() }),
    MissingConfigurationError,
  );
});

test('a record without its variety id stops before any request', async () => {
  for (const selectedVariety of [undefined, null, {}, { lotCode: 'lot-a' }, { varietyId: ' ' }]) {
    for (const dryRun of ['0', '1']) {
      await assert.rejects(
        reserveSeedPackets({ selectedVariety, packetCount: 1 }, { env: { ...env, CODE2SKILL_DRY_RUN: dryRun }, fetch: forbiddenFetch() }),
        (error) => error instanceof MissingInputError && error.input === 'selectedVariety.varietyId',
      );
    }
  }
});

test('pickup date and time join into one local timestamp', () => {
  assert.equal(pickupTimestamp('2026-04-03', '9:30'), '2026-04-03T09:30:00');
  assert.equal(pickupTimestamp('2026-04-03', '09:30:15'), '2026-04-03T09:30:15');
  assert.equal(pickupTimestamp('2026-04-03', null), '2026-04-03T00:00:00');
  assert.equal(pickupTimestamp(undefined, '10:00'), undefined);
});
