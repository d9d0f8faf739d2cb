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
