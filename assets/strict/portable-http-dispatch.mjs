// portable-http-dispatch.mjs: the default dispatcher of a strict-export-v1
// Function core. Reviewed once and copied byte-for-byte into every strict
// package that sends HTTP requests; edit the original, never a copy.
//
// A compiled Function sends each request of its contract through the
// dispatcher of its trusted runtime context,
//
//   context.dispatch(url, {method, authentication, headers, query?, body?, multipart?})
//     → {status, data}
//
// and uses dispatchHttp, which implements the same contract with node's
// fetch, only when the context supplies no dispatcher of its own (a plain
// stdio MCP session, a direct call):
//
//   const dispatch = typeof context?.dispatch === "function" ? context.dispatch : dispatchHttp;
//
// dispatchHttp serves requests that need no credentials, authentication
// "none", and nothing else. Any other authentication (cookie_session,
// runtime_context, …) is refused before anything is sent, with
// HOST_AUTHENTICATION_REQUIRED: only the Host can supply those credentials,
// through its own context.dispatch. A credential header (authorization,
// proxy-authorization, cookie) is refused the same way, so that no
// credential ever comes from a Tool's arguments.
//
// The options:
//
//   method          GET, HEAD, POST, PUT, PATCH or DELETE.
//   authentication  "none" (see above).
//   headers         {name: value}, sent with lower-case names. A value is a
//                   string, a finite number or a boolean; null and undefined
//                   leave the header out.
//   query           {name: value}, appended after the URL's own query terms,
//                   in member order. A string, finite number or boolean is
//                   one term; an array repeats its key once per element
//                   (tags=a&tags=b), elements being scalars; a nested object
//                   names its members in brackets (page[size]=2,
//                   filter[range][from]=1), the encoding of a query built
//                   from nested binding paths; null and undefined are left
//                   out, in arrays too. Names and values are percent-encoded
//                   with encodeURIComponent.
//   body            JSON data, sent as JSON with content-type
//                   application/json (a content-type header the request
//                   already has must be JSON). Not with GET or HEAD, not
//                   with multipart.
//   multipart       {field: value}, sent as multipart/form-data. A string,
//                   finite number or boolean is a text field; a Blob (a File
//                   keeps its name and type), an ArrayBuffer or a typed
//                   array is a file part, as the Host hands resolved
//                   attachment content over; an array repeats the field
//                   once per element; null and undefined leave it out.
//   signal          an optional AbortSignal that cancels the request.
//   timeoutMs       the time limit of the whole exchange, response body
//                   included, in milliseconds; 30 000 when absent.
//
// Any other option, or a value outside these forms, is refused before
// anything is sent (DISPATCH_REQUEST_INVALID): the dispatcher never guesses
// an encoding.
//
// dispatchHostHttp(url, options, credentials) is the same request sent on
// behalf of a Host: the Host's runtime (portable-host-runtime.mjs) uses it
// inside the context.dispatch it hands a Function, after it has chosen the
// deployed address and the credentials the request's authentication needs.
// options.authentication may then name any kind, and credentials.headers
// ({name: value}) are added to the request after the Function's own
// headers were checked: a credential header still never comes from the
// Function. A Function core never imports it; the strict runtime rules
// allow it { dispatchHttp } only.
//
// Exactly one request is sent. Redirects are not followed: a 3xx status is
// the answer, for the contract's success statuses to judge, so that no
// request goes to a URL the contract does not name. The answer is
// {status, data}: data is the body parsed as JSON when it parses, else its
// text (UTF-8), and null when the body is empty. A body larger than 16 MiB
// is not read (UPSTREAM_RESPONSE_TOO_LARGE).
//
// Every failure is an error with code, message, details and retryable, the
// fields portable-error-normalizer.mjs reads. A refusal before fetch is
// called also carries outcomeKnown: true: nothing was sent. A failure once
// fetch was called (a refused or dropped connection, an unknown host, the
// time limit, a cancellation, a body that cannot be read) carries no
// outcomeKnown, even when it may have come before a byte left: fetch does
// not say how far it got, and the server may have acted, so the normalizer
// reports a write as UNKNOWN_DISPATCH_OUTCOME. Such a failure is retryable
// only for GET and HEAD, which do not write.

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const SAFE_METHODS = ['GET', 'HEAD'];
const OPTIONS = ['method', 'authentication', 'headers', 'query', 'body', 'multipart', 'signal', 'timeoutMs'];

// The only authentication a request may need to be sent from here.
const NO_AUTHENTICATION = 'none';

// Headers that carry credentials: only the Host sets them.
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

// HEADER_VALUE is an HTTP field value: visible characters, obs-text, spaces
// and tabs (RFC 9110, section 5.5).
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

// HEADER_NAME is an HTTP field name: a token (RFC 9110, section 5.1).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_TIMEOUT_MS = 600_000;
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

// MAX_DEPTH bounds how deeply query and body values may nest.
const MAX_DEPTH = 64;

/**
 * Sends one HTTP request that needs no credentials and returns its status
 * and data.
 *
 * @param {string} url the absolute http(s) URL, with its own query terms
 * @param {{method: string, authentication: string, headers?: object, query?: object, body?: unknown,
 *   multipart?: object, signal?: AbortSignal, timeoutMs?: number}} options
 * @returns {Promise<{status: number, data: unknown}>}
 */
export async function dispatchHttp(url, options) {
  return send(prepare(url, options, null));
}

/**
 * Sends one HTTP request on behalf of a Host, with the credentials the Host
 * adds, and returns its status and data.
 *
 * @param {string} url the absolute http(s) URL the Host chose, with its own query terms
 * @param {object} options the Function's options, as dispatchHttp takes them
 * @param {{headers: Record<string, string>}} credentials the credential headers the Host adds
 * @returns {Promise<{status: number, data: unknown}>}
 */
export async function dispatchHostHttp(url, options, credentials) {
  return send(prepare(url, options, hostHeadersOf(credentials)));
}

// send sends a prepared request and reads its answer.
async function send(request) {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout]);
  const where = { method: request.method, path: request.shownURL };
  let response;
  try {
    response = await fetch(request.href, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    throw sendFailure(error, request, timeout, where, 'UPSTREAM_UNREACHABLE',
      `${request.method} ${request.shownURL} failed before a response arrived`);
  }
  let bytes;
  try {
    bytes = await readBody(response, { ...where, status: response.status });
  } catch (error) {
    if (error instanceof DispatchError) {
      throw error;
    }
    throw sendFailure(error, request, timeout, { ...where, status: response.status }, 'UPSTREAM_RESPONSE_INCOMPLETE',
      `${request.method} ${request.shownURL} answered ${response.status}, and its body could not be read`);
  }
  return { status: response.status, data: parseBody(bytes) };
}

// DispatchError is every failure of dispatchHttp.
class DispatchError extends Error {
  constructor(code, message, details, { retryable = false, outcomeKnown = false, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'DispatchError';
    this.code = code;
    this.details = details;
    this.retryable = retryable;
    if (outcomeKnown) {
      this.outcomeKnown = true;
    }
  }
}

// invalid is a request the dispatcher refuses to send.
function invalid(message, details = {}) {
  return new DispatchError('DISPATCH_REQUEST_INVALID', `${message}; nothing was sent`, details, { outcomeKnown: true });
}

// prepare checks every option and builds what fetch sends, or throws before
// anything is sent. hostHeaders are the credential headers a Host adds, or
// null for a request that must need no credentials.
function prepare(url, options, hostHeaders) {
  if (!isRecord(options)) {
    throw invalid('the options must be an object');
  }
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) {
      throw invalid(`unknown option ${JSON.stringify(key)}; the options are ${OPTIONS.join(', ')}`, { option: key });
    }
  }
  const authentication = ownValue(options, 'authentication');
  if (hostHeaders !== null) {
    if (typeof authentication !== 'string' || authentication === '') {
      throw invalid('the authentication must name the kind the request needs', { option: 'authentication' });
    }
  } else if (authentication !== NO_AUTHENTICATION) {
    const named = typeof authentication === 'string' ? authentication : null;
    throw new DispatchError('HOST_AUTHENTICATION_REQUIRED',
      `this request needs ${named === null ? 'an undeclared' : named} authentication, whose credentials only the Host ` +
      'can supply through its own context.dispatch; the default dispatcher sends only requests whose authentication is ' +
      'none, and nothing was sent', { authentication: named }, { outcomeKnown: true });
  }

  const method = ownValue(options, 'method');
  if (!METHODS.includes(method)) {
    throw invalid(`the method must be one of ${METHODS.join(', ')}`, { option: 'method' });
  }
  const target = parseURL(url);
  const request = {
    method,
    href: target.href,
    shownURL: target.shown,
    origin: target.origin,
    hosts: target.hosts,
    headers: headersOf(ownValue(options, 'headers')),
    body: undefined,
    signal: signalOf(ownValue(options, 'signal')),
    timeoutMs: timeoutOf(ownValue(options, 'timeoutMs')),
  };
  for (const [name, value] of hostHeaders ?? []) {
    request.headers.set(name, value);
  }

  const query = ownValue(options, 'query');
  if (query !== undefined) {
    if (!isRecord(query)) {
      throw invalid('the query must be an object', { option: 'query' });
    }
    const terms = [];
    for (const name of Object.keys(query)) {
      queryTerms(terms, name, ownValue(query, name), 0);
    }
    if (terms.length > 0) {
      const separator = target.hasQuery ? '&' : (request.href.endsWith('?') ? '' : '?');
      request.href += separator + terms.join('&');
    }
  }

  const body = ownValue(options, 'body');
  const multipart = ownValue(options, 'multipart');
  if (body !== undefined && multipart !== undefined) {
    throw invalid('a request has a JSON body or a multipart body, not both', { option: 'multipart' });
  }
  if ((body !== undefined || multipart !== undefined) && SAFE_METHODS.includes(method)) {
    throw invalid(`a ${method} request has no body`, { option: body !== undefined ? 'body' : 'multipart' });
  }
  const contentType = request.headers.get('content-type');
  if (body !== undefined) {
    checkJSON(body, '', 0);
    if (contentType === null) {
      request.headers.set('content-type', 'application/json');
    } else if (!isJSONMediaType(contentType)) {
      throw invalid(`the body is sent as JSON, and the request's content-type is ${contentType}`, { option: 'headers', header: 'content-type' });
    }
    request.body = JSON.stringify(body);
  }
  if (multipart !== undefined) {
    if (contentType !== null) {
      throw invalid('a multipart request sets its own content-type with the part boundary; the request must not set one',
        { option: 'headers', header: 'content-type' });
    }
    request.body = formDataOf(multipart);
  }
  if (request.signal?.aborted) {
    throw new DispatchError('DISPATCH_ABORTED', `${method} ${target.shown} was cancelled before it was sent; nothing was sent`,
      { method, path: target.shown }, { outcomeKnown: true });
  }
  return request;
}

// parseURL accepts an absolute http(s) URL without credentials. shown is
// its path, for messages: where the deployment is (its origin, from the
// Host's configuration) never reaches the agent; the server's own log
// (stderr) names it when a request fails.
function parseURL(url) {
  if (typeof url !== 'string') {
    throw invalid('the URL must be a string', { option: 'url' });
  }
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    logLocally(`${JSON.stringify(url)} is not an absolute URL`);
    throw invalid('the URL is not an absolute URL (the server\'s log names it)', { option: 'url' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalid(`the URL must be http or https, not ${parsed.protocol}`, { option: 'url' });
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw invalid('the URL must not carry credentials', { option: 'url' });
  }
  parsed.hash = '';
  return {
    href: parsed.href, shown: parsed.pathname, origin: parsed.origin, hosts: [parsed.host, parsed.hostname],
    hasQuery: parsed.search.length > 1,
  };
}

// headersOf builds the request headers, names lower-case, refusing
// credentials.
function headersOf(headers) {
  const out = new Headers();
  if (headers === undefined) {
    return out;
  }
  if (!isRecord(headers)) {
    throw invalid('the headers must be an object', { option: 'headers' });
  }
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(lower)) {
      throw invalid(`${JSON.stringify(name)} is not an HTTP header name`, { option: 'headers', header: name });
    }
    if (CREDENTIAL_HEADERS.includes(lower)) {
      throw new DispatchError('HOST_AUTHENTICATION_REQUIRED',
        `the ${lower} header carries credentials, which only the Host supplies through its own context.dispatch; nothing was sent`,
        { authentication: NO_AUTHENTICATION, header: lower }, { outcomeKnown: true });
    }
    const value = ownValue(headers, name);
    if (value === undefined || value === null) {
      continue;
    }
    const text = scalarText(value);
    if (text === undefined || !HEADER_VALUE.test(text)) {
      throw invalid(`the value of the ${lower} header must be a string of visible Latin-1 characters, spaces and tabs, a finite number or a boolean`,
        { option: 'headers', header: lower });
    }
    if (out.has(lower)) {
      throw invalid(`the ${lower} header is given twice`, { option: 'headers', header: lower });
    }
    try {
      out.set(lower, text);
    } catch {
      throw invalid(`the ${lower} header is not a valid HTTP header`, { option: 'headers', header: lower });
    }
  }
  return out;
}

// hostHeadersOf checks the credential headers a Host adds: HTTP header
// names and values, each name once. It returns [name, value] pairs.
function hostHeadersOf(credentials) {
  const headers = isRecord(credentials) ? ownValue(credentials, 'headers') : undefined;
  if (!isRecord(headers)) {
    throw invalid('the Host\'s credentials must be {headers: {name: value}}', { option: 'credentials' });
  }
  const out = [];
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    const value = ownValue(headers, name);
    if (!HEADER_NAME.test(lower) || typeof value !== 'string' || !HEADER_VALUE.test(value) ||
        out.some(([seen]) => seen === lower)) {
      // The value is a credential: it stays out of the message.
      throw invalid(`the Host's credential header ${JSON.stringify(lower)} is not a valid HTTP header`,
        { option: 'credentials', header: lower });
    }
    out.push([lower, value]);
  }
  return out;
}

// queryTerms appends the encoded terms of one query member.
function queryTerms(terms, name, value, depth) {
  if (value === undefined || value === null) {
    return;
  }
  if (depth > MAX_DEPTH) {
    throw invalid(`the query member ${name} nests too deeply`, { option: 'query', name });
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item !== null && typeof item === 'object') {
        throw invalid(`the query member ${name} is an array holding an object or array; arrays in a query hold scalars`,
          { option: 'query', name });
      }
      queryTerms(terms, name, item, depth + 1);
    }
    return;
  }
  if (isRecord(value)) {
    for (const key of Object.keys(value)) {
      queryTerms(terms, `${name}[${key}]`, ownValue(value, key), depth + 1);
    }
    return;
  }
  const text = scalarText(value);
  if (text === undefined || !name.isWellFormed() || !text.isWellFormed()) {
    throw invalid(`the query member ${name} must be a string, a finite number, a boolean, an array of those or an object`,
      { option: 'query', name });
  }
  terms.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
}

// formDataOf builds a multipart body.
function formDataOf(multipart) {
  if (!isRecord(multipart)) {
    throw invalid('the multipart body must be an object', { option: 'multipart' });
  }
  const form = new FormData();
  for (const field of Object.keys(multipart)) {
    const value = ownValue(multipart, field);
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) {
        continue;
      }
      const part = partOf(item);
      if (part === undefined) {
        throw invalid(`the multipart field ${field} must be a string, a finite number, a boolean, a Blob, bytes or an array of those`,
          { option: 'multipart', field });
      }
      form.append(field, part);
    }
  }
  return form;
}

// partOf returns what FormData.append takes for one multipart value, or
// undefined.
function partOf(value) {
  if (value instanceof Blob) {
    return value;
  }
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    return new Blob([value]);
  }
  return scalarText(value);
}

// checkJSON refuses a body that is not JSON data: what JSON.stringify would
// drop or change (functions, symbols, non-finite numbers, class instances,
// Blobs) must not silently vanish from a request.
function checkJSON(value, path, depth) {
  const fail = (what) => invalid(`the body ${path === '' ? '' : `member ${path} `}${what}; the body must be JSON data`,
    { option: 'body', path });
  if (depth > MAX_DEPTH) {
    throw fail('nests too deeply');
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) {
        throw fail('is not a finite number');
      }
      return;
    case 'object':
      break;
    default:
      throw fail(`is a ${typeof value}`);
  }
  if (value === null) {
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkJSON(item, `${path}/${i}`, depth + 1));
    return;
  }
  if (!isRecord(value)) {
    throw fail('is not a plain object');
  }
  for (const key of Object.keys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (!('value' in descriptor)) {
      throw fail(`has an accessor ${key}`);
    }
    if (descriptor.value !== undefined) {
      checkJSON(descriptor.value, `${path}/${key}`, depth + 1);
    }
  }
}

function isJSONMediaType(contentType) {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

function signalOf(signal) {
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw invalid('the signal must be an AbortSignal', { option: 'signal' });
  }
  return signal;
}

function timeoutOf(timeoutMs) {
  if (timeoutMs === undefined) {
    return DEFAULT_TIMEOUT_MS;
  }
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS) {
    throw invalid(`the time limit must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`, { option: 'timeoutMs' });
  }
  return timeoutMs;
}

// sendFailure describes a failure after sending began. The server may have
// acted, so the outcome is not known.
function sendFailure(error, request, timeout, details, code, message) {
  const retryable = SAFE_METHODS.includes(request.method);
  const cause = causeOf(error);
  logLocally(`${request.method} ${request.origin}${request.shownURL} failed: ${cause?.message ?? cause}`);
  const masked = maskedCause(cause, request);
  if (request.signal?.aborted) {
    return new DispatchError('DISPATCH_ABORTED', `${request.method} ${request.shownURL} was cancelled after it was sent`,
      details, { cause: masked });
  }
  if (timeout.aborted) {
    return new DispatchError('UPSTREAM_TIMEOUT',
      `${request.method} ${request.shownURL} did not complete within ${request.timeoutMs} ms`, details,
      { retryable, cause: masked });
  }
  return new DispatchError(code, message, details, { retryable, cause: masked });
}

// causeOf returns the error that says what went wrong: fetch wraps the
// system error (ECONNREFUSED, ECONNRESET …) in a TypeError as its cause.
function causeOf(error) {
  if (error !== null && typeof error === 'object' && error.cause !== null && typeof error.cause === 'object') {
    return error.cause;
  }
  return error;
}

// maskedCause is what of a transport failure's cause the agent may see:
// its name, code and message, with the deployment's host masked (the
// normalizer masks every network address: connect ECONNREFUSED
// 10.1.2.3:443).
function maskedCause(cause, request) {
  if (cause === null || typeof cause !== 'object') {
    return cause;
  }
  const out = { name: typeof cause.name === 'string' ? cause.name : 'Error' };
  if (typeof cause.code === 'string') {
    out.code = cause.code;
  }
  if (typeof cause.message === 'string') {
    let text = cause.message;
    for (const host of request.hosts) {
      if (host !== '') {
        text = text.split(host).join('[host]');
      }
    }
    out.message = text;
  }
  return out;
}

// logLocally writes a line to the server's own log (stderr), which the
// Host keeps and the agent never reads: where a failed request went.
function logLocally(line) {
  try {
    console.error(`portable-http-dispatch: ${line}`);
  } catch {
    // A log that cannot be written is no reason to fail the call.
  }
}

// readBody reads the whole response body, up to MAX_RESPONSE_BYTES.
async function readBody(response, details) {
  if (response.body === null) {
    return new Uint8Array(0);
  }
  const reader = response.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw new DispatchError('UPSTREAM_RESPONSE_TOO_LARGE',
        `the response to ${details.method} ${details.path} is larger than ${MAX_RESPONSE_BYTES} bytes and was not read`,
        { ...details, limit: MAX_RESPONSE_BYTES });
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

// parseBody is the data of a response: its JSON value, else its text; null
// when it is empty.
function parseBody(bytes) {
  if (bytes.byteLength === 0) {
    return null;
  }
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// scalarText is the text of a string, finite number or boolean, or
// undefined for anything else.
function scalarText(value) {
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
      return String(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
  }
  return undefined;
}

function ownValue(object, key) {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

// isRecord accepts plain objects only: object literals, parsed JSON and
// Object.create(null).
function isRecord(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
