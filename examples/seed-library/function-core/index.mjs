// Function core of the seed-library package: one named async function per
// capability. Each builds the request the seed library's own client sends,
// calls the service whose base URL the host configured, and passes the HTTP
// result through unchanged (httpStatus + bodyText): deciding what a status
// or body means is left to the agent.
//
// Every function takes the Tool input and an optional runtime context:
//   context.fetch      the fetch implementation (default: globalThis.fetch)
//   context.env        the environment to read (default: process.env)
//   context.signal     aborts the request: the MCP server passes the
//                      request's signal, so a call the host cancels stops
//   context.timeoutMs  the time limit of one request (default 30 s)

import { readHttpResponse } from '../portable-agent-result.mjs';

/** The time limit of one request, body included, unless context.timeoutMs says otherwise. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Thrown before any request when the host has not configured a service's
 * base URL. There is no default environment: a missing address stops here.
 */
export class MissingConfigurationError extends Error {
  constructor(variable) {
    super(`${variable} is not set: the host must configure the service's base URL before this Tool can run`);
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

// serviceUrl resolves path against a service's base URL, read by the caller
// from the variable it names.
function serviceUrl(base, variable, path) {
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
 * Lists the varieties of the catalog, optionally filtered by a search phrase
 * and by the month they are sown in. Read-only.
 */
export async function searchSeedVarieties(input = {}, context = {}) {
  const env = context.env ?? process.env;
  const fetch = context.fetch ?? globalThis.fetch;
  const url = serviceUrl(env.CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL, 'CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL', 'varieties');
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
 * the request, and nothing from an earlier selection is kept.
 */
export async function reserveSeedPackets(input = {}, context = {}) {
  const env = context.env ?? process.env;
  const fetch = context.fetch ?? globalThis.fetch;
  const url = serviceUrl(env.CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL, 'CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL', 'reservations');
  const selected = input.selectedVariety && typeof input.selectedVariety === 'object' ? input.selectedVariety : {};
  const varietyId = text(selected.varietyId);
  if (varietyId === undefined) {
    throw new MissingInputError('selectedVariety.varietyId');
  }
  const body = {
    variety_id: varietyId,
    lot_code: text(selected.lotCode),
    packet_count: count(input.packetCount),
    pickup_at: pickupTimestamp(input.pickupDate, input.pickupTime),
    member_note: text(input.note),
  };
  const request = {
    method: 'POST',
    url: url.href,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  // Dry-run: CODE2SKILL_DRY_RUN=1 returns the request instead of sending it.
  if (env.CODE2SKILL_DRY_RUN === '1') {
    return { dryRun: true, request: { ...request, body: JSON.parse(request.body) } };
  }
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: requestSignal(context),
  });
  return readHttpResponse(response);
}
