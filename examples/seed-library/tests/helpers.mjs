// Shared test helpers: a recording fetch mock and an environment that points
// every service at a reserved .invalid host, so no test can reach a network.

export const env = {
  CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL: 'https://catalog.seed-library.invalid/api/',
  CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL: 'https://reservations.seed-library.invalid/v2',
};

/** A fetch that records each request and answers with the given status and body. */
export function recordingFetch(status = 200, body = '{}') {
  const calls = [];
  const fetch = async (url, init = {}) => {
    calls.push({ url: String(url), method: init.method, headers: init.headers, body: init.body });
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
