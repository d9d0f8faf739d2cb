// Test helpers: an environment that points the service at the reserved
// .invalid domain, which never resolves, fake credentials, and fetch
// stand-ins, so that no test can reach a network.

import { API_BASE_URL, API_USERNAME, API_PASSWORD } from '../function-core/index.mjs';

export const env = {
  [API_BASE_URL]: 'https://api.invalid/',
  [API_USERNAME]: 'test-username-not-a-real-one',
  [API_PASSWORD]: 'test-password-not-a-real-one',
};

/** The fake credential values: no result or error may carry them. */
export const secrets = ['test-username-not-a-real-one', 'test-password-not-a-real-one'];

/**
 * The runtime context of one test: the environment above, a fetch and
 * a session store of its own, so that every test starts logged out.
 */
export function contextWith(fetch, more = {}) {
  return { env, fetch, sessions: new Map(), ...more };
}

// recorded is a request as the service would receive it: method, URL,
// headers (names lower-cased) and body (as text; undefined without one).
function recorded(url, init) {
  const body = init.body;
  return {
    method: init.method ?? 'GET',
    url: String(url),
    headers: Object.fromEntries(new Headers(init.headers)),
    body: body === undefined || body === null ? undefined : typeof body === 'string' ? body : String(body),
  };
}

// answer is a Response as a service sends it: a status that has no body
// (204, 205, 304) gets none, whatever body the test gave.
function answer(status, body, headers) {
  return new Response([204, 205, 304].includes(status) ? null : body, { status, headers });
}

/**
 * A fetch that records every request whole (method, URL, headers, body)
 * and answers with status and body (none for a 204); json(request) reads
 * a recorded JSON body.
 * It also plays the login: a POST to the login path answers with a new
 * access token, token-1, token-2 … (recorded in logins) or, when
 * loginStatus says so, refuses.
 * statuses, when given, are the answers to the successive requests.
 */
export function recordingFetch(status = 200, body = '{}', { statuses = [], loginStatus = 200 } = {}) {
  const requests = [];
  const logins = [];
  const fetch = async (url, init = {}) => {
    if (new URL(url).pathname.endsWith('/login')) {
      logins.push(JSON.parse(init.body));
      const token = `{"access_token":"token-${logins.length}","token_type":"bearer","expires_in":900}`;
      return answer(loginStatus, loginStatus === 200 ? token : '{"error":"invalid credentials"}', { 'content-type': 'application/json' });
    }
    requests.push(recorded(url, init));
    return answer(statuses[requests.length - 1] ?? status, body, { 'content-type': 'application/json' });
  };
  return { fetch, requests, logins };
}

/** The JSON body of a recorded request. */
export function json(request) {
  return JSON.parse(request.body);
}

/** A fetch that fails the way Node's does when a host cannot be reached. */
export async function unreachableFetch(url) {
  const cause = Object.assign(new Error(`getaddrinfo ENOTFOUND ${new URL(url).hostname}`), {
    code: 'ENOTFOUND',
    syscall: 'getaddrinfo',
    hostname: new URL(url).hostname,
  });
  throw new TypeError('fetch failed', { cause });
}

/** A fetch that must not be called. */
export async function forbiddenFetch(url) {
  throw new Error(`no request may be sent, but one went to ${url}`);
}

/**
 * A fetch that never answers on its own: it waits for the request's signal.
 * started resolves when it is called, aborted with the abort reason.
 */
export function hangingFetch() {
  let called, abortedWith;
  const started = new Promise((resolve) => (called = resolve));
  const aborted = new Promise((resolve) => (abortedWith = resolve));
  const fetch = (url, init = {}) =>
    new Promise((resolve, reject) => {
      if (new URL(url).pathname.endsWith('/login')) {
        resolve(new Response('{"access_token":"token-1"}', { status: 200 }));
        return;
      }
      // A pending request keeps node running, as a real connection does
      // (the time limit's own timer does not).
      const pending = setInterval(() => {}, 60_000);
      called();
      init.signal?.addEventListener('abort', () => {
        clearInterval(pending);
        abortedWith(init.signal.reason);
        reject(init.signal.reason);
      });
    });
  return { fetch, started, aborted };
}
