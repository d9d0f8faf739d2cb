// Function core of the tasks-board package: one named async function per
// capability, callable with or without MCP. Each builds its request, sends it
// to the service whose base URL the host configured and returns the HTTP
// result unchanged as { httpStatus, bodyText }. Reading what a status or a
// body means is the agent's job, not the Function's.
//
// The tasks API is a Flask application: it logs a user in with e-mail and
// password (POST auth/login) and answers with a short-lived access token,
// sent as Authorization: Bearer <token>; validation errors are 422 with
// { errors }.
//
// Every Function sends through send(), the one place that resolves the
// service's address, authenticates, limits the request in time, stops a
// write under CODE2SKILL_DRY_RUN=1 and reads the response.
// Authentication: an access token from logging in once, renewed on a 401.
//
// Every Function takes the Tool input and an optional runtime context:
//   context.fetch      the fetch implementation (default: globalThis.fetch)
//   context.env        the environment to read (default: process.env)
//   context.signal     aborts the request; the MCP server passes the MCP
//                      request's own, so a call the host cancels stops
//   context.timeoutMs  the time limit of one call, body included (default 30 s)
//   context.sessions   where the logged-in session is kept (default: this
//                      process's memory)

import { readHttpResponse } from '../portable-agent-result.mjs';

/** The variable holding the base URL of the API service. The host sets it; there is no default. */
export const API_BASE_URL = 'CODE2SKILL_TASKS_BOARD_API_BASE_URL';

/** The variable holding the user name the server logs in to the API service with. The host injects it; it is never a Tool argument, a result or a log line. */
export const API_USERNAME = 'CODE2SKILL_TASKS_BOARD_API_USERNAME';

/** The variable holding the password the server logs in to the API service with. The host injects it; it is never a Tool argument, a result or a log line. */
export const API_PASSWORD = 'CODE2SKILL_TASKS_BOARD_API_PASSWORD';

/** Where the API service logs a user in: use the path the application's own client posts to. */
export const LOGIN_PATH = 'auth/login';

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

/**
 * Thrown when the API service refuses to log the configured user in,
 * or logs it in without an access token. It names the variables to check,
 * never their values.
 */
export class LoginFailedError extends Error {
  constructor(httpStatus, reason) {
    const variables = [API_USERNAME, API_PASSWORD];
    super(`the API service ${reason} (HTTP ${httpStatus}): check ${variables.join(' and ')}`);
    this.name = 'LoginFailedError';
    this.code = 'LOGIN_FAILED';
    this.details = { httpStatus, variables };
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
  const base = required(env, variable, "the API service's base URL");
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

// sessions keeps the access token of each service and user, in this
// process's memory only: never on disk, never in a result. It holds the
// login in progress, so that calls made at the same time log in once.
// The API issues short-lived tokens (15 minutes): an expired one gets a
// 401, and the server logs in again, once.
const sessions = new Map();

// session returns the access token of the configured user, logging in
// when there is none yet or when renew is set.
function session(env, fetch, context, signal, renew) {
  const username = required(env, API_USERNAME, 'the user name the server logs in with');
  const password = required(env, API_PASSWORD, 'the password the server logs in with');
  const store = context.sessions ?? sessions;
  const url = endpoint(env, API_BASE_URL, LOGIN_PATH);
  const key = `${url.href} ${username}`;
  if (!renew && store.has(key)) {
    return store.get(key);
  }
  const token = logIn(fetch, url, username, password, signal);
  store.set(key, token);
  token.catch(() => store.get(key) === token && store.delete(key));
  return token;
}

// logIn posts the user's e-mail and password, as the web client's login
// form does, and returns the access token of the answer
// ({ access_token, token_type: "bearer", expires_in }).
async function logIn(fetch, url, email, password, signal) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
    signal,
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new LoginFailedError(response.status, 'refused the login');
  }
  let token;
  try {
    token = (await response.json())?.access_token;
  } catch {
    token = undefined;
  }
  if (typeof token !== 'string' || token === '') {
    throw new LoginFailedError(response.status, 'answered the login without an access token');
  }
  return token;
}

// shown returns the headers as a dry run shows them: credentials are
// never shown.
function shown(headers) {
  const out = { ...headers };
  for (const name of ['authorization', 'cookie']) {
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
 * Sends one request to the API service and returns its answer as
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
  const url = endpoint(env, API_BASE_URL, request.path);
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
  required(env, API_USERNAME, 'the user name the server logs in with');
  required(env, API_PASSWORD, 'the password the server logs in with');
  if (WRITE_METHODS.has(method) && env[DRY_RUN] === '1') {
    const result = { dryRun: true, request: { method, url: url.href, headers: shown({ ...headers, authorization: '' }), body: request.body } };
    if (request.checksNotRun?.length) {
      result.checksNotRun = request.checksNotRun;
    }
    return result;
  }
  const signal = callSignal(context);
  const attempt = async (renew) => {
    const token = await session(env, fetch, context, signal, renew);
    return fetch(url, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body, signal });
  };
  let response = await attempt(false);
  if (response.status === 401) {
    // The token expired: log in again, once.
    await response.body?.cancel();
    response = await attempt(true);
  }
  return readHttpResponse(response);
}

/** Lists the projects the user belongs to, a page at a time. Read-only. */
export async function listProjects(input = {}, context = {}) {
  return send({ method: 'GET', path: 'projects', query: { page: optionalText(input.page), per_page: optionalText(input.perPage) } }, context);
}

/** Searches tasks by words and state; the API reads searches through POST. Read-only. */
export async function searchTasks(input = {}, context = {}) {
  return send({ method: 'POST', path: 'tasks/search', body: { query: optionalText(input.query) ?? '', status: optionalText(input.status) } }, context);
}

/** Creates a task in a project. The API takes the due date as YYYY-MM-DD. */
export async function createTask(input = {}, context = {}) {
  const title = optionalText(input.title);
  if (title === undefined) {
    throw new MissingInputError('title');
  }
  return send({
    method: 'POST',
    path: `projects/${pathSegment(input.projectId, 'projectId')}/tasks`,
    body: { title, due_date: optionalText(input.dueDate), assignee_id: optionalText(input.assigneeId) },
  }, context);
}

/** Changes a task's state or title; only what is given is sent. */
export async function updateTask(input = {}, context = {}) {
  const changes = {};
  const status = optionalText(input.status);
  if (status !== undefined) changes.status = status;
  const title = optionalText(input.title);
  if (title !== undefined) changes.title = title;
  return send({ method: 'PATCH', path: `tasks/${pathSegment(input.taskId, 'taskId')}`, body: changes }, context);
}

/** Deletes a task; the API answers 204. */
export async function deleteTask(input = {}, context = {}) {
  return send({ method: 'DELETE', path: `tasks/${pathSegment(input.taskId, 'taskId')}` }, context);
}
