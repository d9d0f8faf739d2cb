// Function core of the seed-library package: one named async function per
// capability. Each builds the request the seed library's own client sends,
// calls the service whose base URL the host configured, and passes the HTTP
// result through unchanged (httpStatus + bodyText): deciding what a status
// or body means is left to the agent.
//
// Two services: the catalog, which anyone may read, and the reservation
// service, which knows the member by the token the host injects
// (Authorization: Token <token>).
//
// Every function takes the Tool input and an optional runtime context:
//   context.fetch      the fetch implementation (default: globalThis.fetch)
//   context.env        the environment to read (default: process.env)
//   context.signal     aborts the request: the MCP server passes the
//                      request's signal, so a call the host cancels stops
//   context.timeoutMs  the time limit of one request (default 30 s)

import { readHttpResponse } from '../portable-agent-result.mjs';

/** The variables the host sets: the two services' base URLs and the member's token. */
export const CATALOG_BASE_URL = 'CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL';
export const RESERVATIONS_BASE_URL = 'CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL';
export const RESERVATIONS_TOKEN = 'CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN';

/** With '1', a write returns the request it would send instead of sending it. */
export const DRY_RUN = 'CODE2SKILL_DRY_RUN';

/** The time limit of one request, body included, unless context.timeoutMs says otherwise. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** What a dry run shows instead of the member's token. */
export const NOT_SHOWN = '[credential, not shown]';

/**
 * Thrown before any request when the host has not configured a variable
 * the call needs. There is no default environment and no default token:
 * a missing one stops here.
 */
export class MissingConfigurationError extends Error {
  constructor(variable, what = "the service's base URL") {
    super(`${variable} is not set: the host must configure ${what} before this Tool can run`);
    this.name = 'MissingConfigurationError';
    this.code = 'MISSING_CONFIGURATION';
    this.variable = variable;
  }
}

/**
 * Thrown before any request when an input that names what the request acts
 * on is missing: without it the request would go somewhere else (or
 * nowhere the member meant).
 */
export class MissingInputError extends Error {
  constructor(input) {
    super(`${input} is missing: the call needs it to know what to act on`);
    this.name = 'MissingInputError';
    this.code = 'MISSING_INPUT';
    this.input = input;
  }
}

// requestSignal limits a request in time and lets the caller abort it.
// AbortSignal.any needs Node.js 20.3 or later.
function requestSignal(context) {
  const timeout = AbortSignal.timeout(context.timeoutMs ?? REQUEST_TIMEOUT_MS);
  return context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
}

// serviceUrl resolves path against the base URL held by a variable, keeping
// the base URL's own path ("https://host/v2" + "reservations" is
// "https://host/v2/reservations").
function serviceUrl(env, variable, path) {
  const base = env[variable];
  if (typeof base !== 'string' || base.trim() === '') {
    throw new MissingConfigurationError(variable);
  }
  return new URL(path, base.trim().replace(/\/*$/, '/'));
}

// Values arrive from agents loosely typed ("3" or 3, null for "not given");
// these helpers normalise them without rejecting anything the backend might
// accept: the backend stays the authority on what is valid.
function present(value) {
  return value !== undefined && value !== null && value !== '';
}

function text(value) {
  const trimmed = present(value) ? String(value).trim() : '';
  return trimmed === '' ? undefined : trimmed;
}

function count(value) {
  if (!present(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}

/**
 * Returns an input as one encoded URL path segment, or stops the call when
 * it is missing: DELETE reservations/ is not "the reservation".
 */
export function pathSegment(value, input) {
  const segment = text(value);
  if (segment === undefined) {
    throw new MissingInputError(input);
  }
  return encodeURIComponent(segment);
}

/**
 * The pickup slot as the reservation client sends it: the chosen date and
 * time joined into one local ISO timestamp, "2026-04-03" + "9:30" →
 * "2026-04-03T09:30:00".
 */
export function pickupTimestamp(date, time) {
  const day = text(date);
  if (day === undefined) return undefined;
  const clock = text(time) ?? '00:00';
  const [hours = '0', minutes = '0', seconds = '0'] = clock.split(':');
  const pad = (part) => String(part).padStart(2, '0');
  return `${day}T${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
}

/**
 * Sends one request to the reservation service as the member the host's
 * token names, and returns its answer as { httpStatus, bodyText }. A write
 * under CODE2SKILL_DRY_RUN=1 is not sent: the result is
 * { dryRun: true, request } with the token not shown.
 */
async function reservations(method, path, body, context) {
  const env = context.env ?? process.env;
  const fetch = context.fetch ?? globalThis.fetch;
  const url = serviceUrl(env, RESERVATIONS_BASE_URL, path);
  const token = text(env[RESERVATIONS_TOKEN]);
  if (token === undefined) {
    throw new MissingConfigurationError(RESERVATIONS_TOKEN, "the member's reservation token");
  }
  const headers = { accept: 'application/json', authorization: `Token ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const request = { method, url: url.href, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  if (method !== 'GET' && env[DRY_RUN] === '1') {
    const shown = request.body === undefined ? undefined : JSON.parse(request.body); // exactly what would be sent
    return { dryRun: true, request: { method, url: url.href, headers: { ...headers, authorization: NOT_SHOWN }, body: shown } };
  }
  const response = await fetch(request.url, { ...request, signal: requestSignal(context) });
  return readHttpResponse(response);
}

/**
 * Removes fields from a JSON body passed through: the reservation service
 * repeats the member's session token in its answers, and a credential never
 * reaches the agent. Everything else, and any body that is not JSON, stays
 * as it was.
 */
export function withoutFields(result, paths) {
  let body;
  try {
    body = JSON.parse(result.bodyText);
  } catch {
    return result;
  }
  let removed = false;
  for (const path of paths) {
    const parent = path.slice(0, -1).reduce((value, key) => (value && typeof value === 'object' ? value[key] : undefined), body);
    const last = path[path.length - 1];
    if (parent && typeof parent === 'object' && Object.hasOwn(parent, last)) {
      delete parent[last];
      removed = true;
    }
  }
  return removed ? { ...result, bodyText: JSON.stringify(body) } : result;
}

/** The credential fields of the reservation service's answers. */
export const CREDENTIAL_FIELDS = [['member', 'sessionToken']];

/**
 * Lists the varieties of the catalog, optionally filtered by a search phrase
 * and by the month they are sown in. Read-only.
 */
export async function searchSeedVarieties(input = {}, context = {}) {
  const env = context.env ?? process.env;
  const fetch = context.fetch ?? globalThis.fetch;
  const url = serviceUrl(env, CATALOG_BASE_URL, 'varieties');
  const query = text(input.query);
  if (query !== undefined) url.searchParams.set('q', query);
  const month = count(input.sowingMonth);
  if (month !== undefined) url.searchParams.set('sowing_month', String(month));
  const response = await fetch(url, { method: 'GET', headers: { accept: 'application/json' }, signal: requestSignal(context) });
  return readHttpResponse(response);
}

/**
 * Reserves seed packets of the variety the member selected from a search
 * result. The selected record is passed whole: its id and lot both go into
 * the request, and nothing from an earlier selection is kept. The service
 * reads the reservation under a "reservation" key.
 */
export async function reserveSeedPackets(input = {}, context = {}) {
  const selected = input.selectedVariety && typeof input.selectedVariety === 'object' ? input.selectedVariety : {};
  const varietyId = text(selected.varietyId);
  if (varietyId === undefined) {
    throw new MissingInputError('selectedVariety.varietyId');
  }
  const reservation = {
    variety_id: varietyId,
    lot_code: text(selected.lotCode),
    packet_count: count(input.packetCount),
    pickup_at: pickupTimestamp(input.pickupDate, input.pickupTime),
    member_note: text(input.note),
  };
  return reservations('POST', 'reservations', { reservation }, context);
}

/**
 * Lists the member's own reservations, optionally only those in one state.
 * Read-only. The member's session token the service repeats is removed.
 */
export async function listMyReservations(input = {}, context = {}) {
  const status = text(input.status);
  const path = status === undefined ? 'members/me/reservations' : `members/me/reservations?status=${encodeURIComponent(status)}`;
  return withoutFields(await reservations('GET', path, undefined, context), CREDENTIAL_FIELDS);
}

/**
 * Cancels one of the member's reservations. The packets go back to the
 * shelf for anyone to reserve; a cancelled reservation cannot be restored.
 */
export async function cancelReservation(input = {}, context = {}) {
  return reservations('DELETE', `reservations/${pathSegment(input.reservationId, 'reservationId')}`, undefined, context);
}
