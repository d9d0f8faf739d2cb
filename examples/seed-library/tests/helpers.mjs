// Shared test helpers: a recording fetch mock, and an environment that
// points every service at a reserved .invalid host with a fake member
// token, so no test can reach a network or hold a real credential.

export const token = 'test-member-token-not-a-real-one';

export const env = {
  CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL: 'https://catalog.seed-library.invalid/api/',
  CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL: 'https://reservations.seed-library.invalid/v2',
  CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN: token,
};

/**
 * A fetch that records each request whole, as the service would receive
 * it (method, URL, headers with lower-cased names, body as text), and
 * answers with the given status and body.
 */
export function recordingFetch(status = 200, body = '{}') {
  const calls = [];
  const fetch = async (url, init = {}) => {
    calls.push({
      method: init.method ?? 'GET',
      url: String(url),
      headers: Object.fromEntries(new Headers(init.headers)),
      body: init.body ?? undefined,
    });
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, calls };
}

/** A fetch that must not be called. */
export function forbiddenFetch() {
  return async (url) => {
    throw new Error(`unexpected request to ${url}`);
  };
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
