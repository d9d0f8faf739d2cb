// Function core of the field-notes package: one named async function per
// capability, callable with or without MCP. Each builds the request the
// field-notes web client sends, sends it to the notes service whose base URL
// the host configured and returns the HTTP result unchanged as
// { httpStatus, bodyText }. Reading what a status or a body means is the
// agent's job, not the Function's.
//
// The notes service wraps every answer in { data, pagination }: lists carry
// pagination.after, the cursor of the next page (null on the last one).
//
// Three writes check, as the web client does, what the service itself does
// not: a comment is edited or deleted only by its author, and nobody follows
// or unfollows themselves. Each reads the signed-in user (GET user) and, for
// a comment, the comment, before it sends anything; a refusal is a
// PrecheckError. Under CODE2SKILL_DRY_RUN=1 nothing is sent, these reads
// neither: the dry run names the checks it did not run.
//
// Every Function sends through send(), the one place that resolves the
// service's address, authenticates, limits the request in time, stops a
// write under CODE2SKILL_DRY_RUN=1 and reads the response.
// Authentication: the host's token, as `Authorization: Token <token>`.
//
// Every Function takes the Tool input and an optional runtime context:
//   context.fetch      the fetch implementation (default: globalThis.fetch)
//   context.env        the environment to read (default: process.env)
//   context.signal     aborts the request; the MCP server passes the MCP
//                      request's own, so a call the host cancels stops
//   context.timeoutMs  the time limit of one call, body included (default 30 s)

import { readHttpResponse } from '../portable-agent-result.mjs';

/** The variable holding the base URL of the NOTES service. The host sets it; there is no default. */
export const NOTES_BASE_URL = 'CODE2SKILL_FIELD_NOTES_NOTES_BASE_URL';

/** The variable holding the token the NOTES service expects as `Authorization: Token <token>`. The host injects it; it is never a Tool argument, a result or a log line. */
export const NOTES_TOKEN = 'CODE2SKILL_FIELD_NOTES_NOTES_TOKEN';

/** The header the NOTES service reads its token from, and the word before the token: the ones the application's own client sends. */
export const AUTH_HEADER = 'authorization';
export const AUTH_SCHEME = 'Token';

/** The variable that turns writes into dry runs: with '1' a write returns the request instead of sending it. */
export const DRY_RUN = 'CODE2SKILL_DRY_RUN';

/** The time limit of one call, body included, unless context.timeoutMs says otherwise. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Thrown before any request is sent when the host has not configured a
 * variable the call needs: a missing address never falls back to some
 * environment found in the source, a missing credential is never guessed.
 */
export class MissingConfigurationError extends Error {
  constructor(variable, what) {
    super(`${variable} is not set: the host must configure ${what}`);
    this.name = 'MissingConfigurationError';
    this.code = 'NOT_CONFIGURED';
    this.details = { variable };
  }
}

/**
 * Thrown before any request is sent when an input that says what the
 * request acts on is missing: GET items/:id without an id must not become
 * GET items/.
 */
export class MissingInputError extends Error {
  constructor(input) {
    super(`${input} is missing: the call needs it to know what to act on`);
    this.name = 'MissingInputError';
    this.code = 'MISSING_INPUT';
    this.details = { input };
  }
}

function settings(context) {
  return {
    env: context.env ?? process.env,
    fetch: context.fetch ?? globalThis.fetch,
  };
}

// required reads a variable the host must set, and stops the call before any
// request when it is not set.
function required(env, variable, what) {
  const value = typeof env[variable] === 'string' ? env[variable].trim() : '';
  if (value === '') {
    throw new MissingConfigurationError(variable, what);
  }
  return value;
}

// endpoint resolves path against the configured base URL, keeping any path
// the base URL already has ("https://host/api" + "orders" is
// "https://host/api/orders").
function endpoint(env, variable, path) {
  const base = required(env, variable, "the NOTES service's base URL");
  return new URL(path, base.endsWith('/') ? base : `${base}/`);
}

// callSignal ends a call when the caller aborts it or when it runs out of
// time. AbortSignal.any needs Node.js 20.3 or later.
function callSignal(context) {
  const timeout = AbortSignal.timeout(context.timeoutMs ?? REQUEST_TIMEOUT_MS);
  return context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
}

// optionalText turns a loosely typed value ("x", 3, null, "") into trimmed
// text, or undefined when nothing was given. It rejects nothing: the backend
// decides what is valid.
function optionalText(value) {
  if (value === undefined || value === null) {
    return undefined;
  }
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

/**
 * Returns an input as one encoded URL path segment, or stops the call when
 * it is missing. Build every path from inputs with it:
 *   send({ method: 'GET', path: `orders/${pathSegment(input.orderId, 'orderId')}` }, context)
 */
export function pathSegment(value, input) {
  const text = optionalText(value);
  if (text === undefined) {
    throw new MissingInputError(input);
  }
  return encodeURIComponent(text);
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// shown returns the headers as a dry run shows them: credentials are
// never shown.
function shown(headers) {
  const out = { ...headers };
  for (const name of ['authorization', 'cookie', AUTH_HEADER]) {
    if (name in out) {
      out[name] = '[credential, not shown]';
    }
  }
  return out;
}

/**
 * Whether the call is a dry run (CODE2SKILL_DRY_RUN=1). A dry run sends
 * nothing, not even the reads that pre-check a write (the record is the
 * user's own, its state allows the change): it must work offline and
 * change nothing. A write that pre-checks asks first, and in a dry run
 * returns the write it would send, naming the checks the real call makes
 * before it:
 *
 *   const write = { method: 'DELETE', path: `comments/${pathSegment(input.commentId, 'commentId')}` };
 *   if (isDryRun(context)) return send({ ...write, checksNotRun: ["the comment is the user's own"] }, context);
 *   const read = await send({ method: 'GET', path: write.path }, context);
 *   if (read.httpStatus !== 200) return read; // the service's own refusal, passed through
 *   if (JSON.parse(read.bodyText).author !== ...) throw new PrecheckError("the comment is not the user's own");
 *   return send(write, context);
 */
export function isDryRun(context = {}) {
  return settings(context).env[DRY_RUN] === '1';
}

/**
 * Sends one request to the NOTES service and returns its answer as
 * { httpStatus, bodyText }, whatever the status (a 204's bodyText is '').
 * request is
 *   { method, path, query, body, checksNotRun }
 * with path relative to the base URL (build inputs into it with
 * pathSegment), query values left out when undefined, and body sent as JSON.
 * A write (POST, PUT, PATCH, DELETE) under CODE2SKILL_DRY_RUN=1 is not sent:
 * the result is { dryRun: true, request }, with checksNotRun, the pre-checks
 * a dry run skips, when the Function names them.
 */
export async function send(request, context = {}) {
  const { env, fetch } = settings(context);
  const url = endpoint(env, NOTES_BASE_URL, request.path);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) {
      url.searchParams.set(name, String(value));
    }
  }
  const method = request.method ?? 'GET';
  const headers = { accept: 'application/json' };
  let body;
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  headers[AUTH_HEADER] = `${AUTH_SCHEME} ${required(env, NOTES_TOKEN, 'the token of the NOTES service')}`;
  if (WRITE_METHODS.has(method) && env[DRY_RUN] === '1') {
    const result = { dryRun: true, request: { method, url: url.href, headers: shown(headers), body: request.body } };
    if (request.checksNotRun?.length) {
      result.checksNotRun = request.checksNotRun;
    }
    return result;
  }
  const signal = callSignal(context);
  const response = await fetch(url, { method, headers, body, signal });
  return readHttpResponse(response);
}

/**
 * Thrown before the write when a check the web client makes fails: the
 * comment is not the signed-in user's, or the user would follow
 * themselves. Nothing is written.
 */
export class PrecheckError extends Error {
  constructor(reason) {
    super(reason);
    this.name = 'PrecheckError';
    this.code = 'PRECHECK_FAILED';
  }
}

// data reads the data member of a { data, pagination } answer.
function data(result) {
  try {
    return JSON.parse(result.bodyText)?.data;
  } catch {
    return undefined;
  }
}

// signedInUser reads who the host's token belongs to.
async function signedInUser(context) {
  const read = await send({ method: 'GET', path: 'user' }, context);
  if (read.httpStatus !== 200) return { refused: read };
  const username = optionalText(data(read)?.username);
  if (username === undefined) {
    throw new PrecheckError('the notes service did not say who is signed in');
  }
  return { username };
}

// ownComment reads a comment and the signed-in user, and stops unless the
// user wrote the comment: the service lets anyone edit or delete any
// comment, only the web client hides the buttons.
async function ownComment(path, context) {
  const read = await send({ method: 'GET', path }, context);
  if (read.httpStatus !== 200) return read;
  const me = await signedInUser(context);
  if (me.refused) return me.refused;
  if (optionalText(data(read)?.author?.username) !== me.username) {
    throw new PrecheckError("the comment must be the user's own");
  }
  return undefined;
}

// notSelf stops unless the author to follow or unfollow is someone else.
async function notSelf(username, context) {
  const me = await signedInUser(context);
  if (me.refused) return me.refused;
  if (me.username.toLowerCase() === username.toLowerCase()) {
    throw new PrecheckError('you cannot follow yourself');
  }
  return undefined;
}

/** Lists notes, newest first, a page at a time. Read-only. */
export async function listNotes(input = {}, context = {}) {
  return send({
    method: 'GET',
    path: 'notes',
    query: { author: optionalText(input.author), tag: optionalText(input.tag), after: optionalText(input.after), limit: optionalText(input.limit) },
  }, context);
}

/** Lists the notes of the authors the user follows, a page at a time. Read-only. */
export async function listFeed(input = {}, context = {}) {
  return send({ method: 'GET', path: 'notes/feed', query: { after: optionalText(input.after), limit: optionalText(input.limit) } }, context);
}

/** Lists the comments of one note, oldest first, a page at a time. Read-only. */
export async function listComments(input = {}, context = {}) {
  return send({
    method: 'GET',
    path: `notes/${pathSegment(input.slug, 'slug')}/comments`,
    query: { after: optionalText(input.after) },
  }, context);
}

/** Adds a comment to a note, as the signed-in user. The service reads it under "comment". */
export async function addComment(input = {}, context = {}) {
  const body = optionalText(input.body);
  if (body === undefined) {
    throw new MissingInputError('body');
  }
  return send({ method: 'POST', path: `notes/${pathSegment(input.slug, 'slug')}/comments`, body: { comment: { body } } }, context);
}

/** Changes the text of one of the user's own comments. */
export async function editComment(input = {}, context = {}) {
  const path = `notes/${pathSegment(input.slug, 'slug')}/comments/${pathSegment(input.commentId, 'commentId')}`;
  const body = optionalText(input.body);
  if (body === undefined) {
    throw new MissingInputError('body');
  }
  const write = { method: 'PUT', path, body: { comment: { body } } };
  if (isDryRun(context)) {
    return send({ ...write, checksNotRun: ["the comment is the user's own"] }, context);
  }
  return (await ownComment(path, context)) ?? send(write, context);
}

/** Deletes one of the user's own comments; the service answers 204. */
export async function deleteComment(input = {}, context = {}) {
  const path = `notes/${pathSegment(input.slug, 'slug')}/comments/${pathSegment(input.commentId, 'commentId')}`;
  const write = { method: 'DELETE', path };
  if (isDryRun(context)) {
    return send({ ...write, checksNotRun: ["the comment is the user's own"] }, context);
  }
  return (await ownComment(path, context)) ?? send(write, context);
}

/** Follows an author: their notes join the user's feed. */
export async function followAuthor(input = {}, context = {}) {
  const username = pathSegment(input.username, 'username');
  const write = { method: 'POST', path: `profiles/${username}/follow` };
  if (isDryRun(context)) {
    return send({ ...write, checksNotRun: ['the author is not the user'] }, context);
  }
  return (await notSelf(decodeURIComponent(username), context)) ?? send(write, context);
}

/** Stops following an author. */
export async function unfollowAuthor(input = {}, context = {}) {
  const username = pathSegment(input.username, 'username');
  const write = { method: 'DELETE', path: `profiles/${username}/follow` };
  if (isDryRun(context)) {
    return send({ ...write, checksNotRun: ['the author is not the user'] }, context);
  }
  return (await notSelf(decodeURIComponent(username), context)) ?? send(write, context);
}
