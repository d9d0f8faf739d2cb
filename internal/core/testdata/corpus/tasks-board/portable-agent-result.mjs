// portable-agent-result.mjs: how a core-export-v1 MCP Tool hands a result to
// the agent. Reviewed once and copied byte-for-byte into every package; edit
// the original, never a copy.
//
// The Tool passes through what the business call produced and never judges
// it: success, failure, retry and "was it written" are the agent's reading of
// the real response, not ours.
//
//   toAgentResult(value)        a result was obtained (any HTTP status
//                               included): a normal Tool result.
//   toAgentError(error)         no result was obtained at all (the request
//                               never got a response): isError with a
//                               serialisable description of the error as
//                               JSON text, and no structuredContent, so
//                               that a client checking structuredContent
//                               against a Tool's output schema returns it.
//   readHttpResponse(response)  a fetch Response of any status:
//                               { httpStatus, bodyText } with the full body.
//   httpResultFromError(error)  an HTTP client threw on 4xx/5xx but the error
//                               carries the response: the same
//                               { httpStatus, bodyText }, or undefined when
//                               there is no response to read.
//
// A Tool callback therefore reads:
//
//   async (input) => {
//     try {
//       return toAgentResult(await lookupOrders(input));
//     } catch (error) {
//       return toAgentError(error);
//     }
//   }
//
// and a Function whose client throws on 4xx/5xx reads:
//
//   try {
//     return await client.get(path);
//   } catch (error) {
//     const result = await httpResultFromError(error);
//     if (result) return result;
//     throw error;
//   }

// MAX_CAUSE_DEPTH bounds how many nested causes toAgentError describes;
// network failures in Node nest two or three deep.
const MAX_CAUSE_DEPTH = 4;

// Error properties worth keeping: Node system errors (ECONNREFUSED,
// ENOTFOUND ...) carry these, and none of them holds a secret or a local path.
const ERROR_FIELDS = ['code', 'errno', 'syscall'];

// Error properties that say where the request went: the host, address and
// port of a service are deployment configuration the agent has no use for,
// so they are dropped, and their values are masked in messages.
const LOCATION_FIELDS = ['hostname', 'host', 'address', 'port'];

/**
 * Projects any obtained result into an MCP Tool result. The text content is
 * the value itself when it is a string and its JSON text otherwise. A JSON
 * object is also returned as structuredContent; arrays and scalars are not,
 * because MCP requires structuredContent to be an object and wrapping them
 * would invent a key the response never had.
 *
 * @param {unknown} value what the Function returned
 * @returns {{content: {type: 'text', text: string}[], structuredContent?: object}}
 */
export function toAgentResult(value) {
  let data;
  try {
    data = jsonValue(value, new Set()) ?? null;
  } catch {
    // jsonValue reads defensively; this is the last line against a value
    // no reading survives, such as one nested deep enough to exhaust the
    // stack.
    data = '[Unreadable]';
  }
  const result = {
    content: [{ type: 'text', text: typeof data === 'string' ? data : JSON.stringify(data) }],
  };
  if (isRecord(data)) {
    result.structuredContent = data;
  }
  return result;
}

/**
 * Projects an error into an isError Tool result. Use it only when no
 * response was obtained; an HTTP error response is a result (see
 * httpResultFromError). The description keeps name, message, system error
 * fields, details and causes, and drops stacks, which hold local paths.
 *
 * The description {error: {...}} is the JSON of the one text block; the
 * result carries no structuredContent, which clients such as the
 * TypeScript SDK Client would validate against the Tool's output schema,
 * error or not, and throw on.
 *
 * @param {unknown} error what was thrown
 * @returns {{isError: true, content: {type: 'text', text: string}[]}}
 */
export function toAgentError(error) {
  const payload = { error: describeError(error, 0) };
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(payload) }],
  };
}

/**
 * Reads a fetch Response of any status into { httpStatus, bodyText }, with
 * the full body as text.
 *
 * @param {Response} response
 * @returns {Promise<{httpStatus: number, bodyText: string}>}
 */
export async function readHttpResponse(response) {
  const httpStatus = statusOf(response);
  if (httpStatus === undefined) {
    throw new TypeError('readHttpResponse: expected an HTTP response with a status between 100 and 599');
  }
  return { httpStatus, bodyText: await bodyTextOf(response) };
}

/**
 * Recovers the HTTP result from an error thrown by a client that rejects
 * 4xx/5xx responses but keeps them on the error: fetch-style clients (ky,
 * ofetch) and axios, got and superagent style response objects, or a thrown
 * fetch Response itself.
 *
 * @param {unknown} error what the client threw
 * @returns {Promise<{httpStatus: number, bodyText: string} | undefined>}
 *   undefined when the error carries no response, so the caller rethrows it
 */
export async function httpResultFromError(error) {
  const response = responseOf(error);
  if (response === undefined) {
    return undefined;
  }
  return { httpStatus: statusOf(response), bodyText: await bodyTextOf(response) };
}

function responseOf(error) {
  if (error === null || typeof error !== 'object') {
    return undefined;
  }
  if (typeof Response === 'function' && error instanceof Response) {
    return error;
  }
  const response = error.response;
  if (response !== null && typeof response === 'object' && statusOf(response) !== undefined) {
    return response;
  }
  return undefined;
}

// statusOf returns the HTTP status of a response object: status (fetch,
// axios, superagent) or statusCode (got, node:http), if it is a valid one.
function statusOf(response) {
  if (response === null || typeof response !== 'object') {
    return undefined;
  }
  for (const status of [response.status, response.statusCode]) {
    if (Number.isInteger(status) && status >= 100 && status <= 599) {
      return status;
    }
  }
  return undefined;
}

async function bodyTextOf(response) {
  if (typeof response.text === 'function') {
    // A fetch Response (fetch, ky, ofetch). ofetch reads the body before it
    // throws and keeps the parsed value as _data.
    if (!response.bodyUsed) {
      return await response.text();
    }
    return '_data' in response ? textOf(response._data) : '';
  }
  if (typeof response.text === 'string') {
    return response.text; // superagent keeps the raw text
  }
  if ('data' in response) {
    return textOf(response.data); // axios: string, bytes or parsed JSON
  }
  if ('body' in response) {
    return textOf(response.body); // got: string, Buffer or parsed JSON
  }
  return '';
}

// textOf turns a body a client has already read into text. Bytes are decoded
// as UTF-8; a value the client parsed from JSON is serialised again, which
// keeps its meaning but not its original spacing.
function textOf(body) {
  if (body === undefined || body === null) {
    return '';
  }
  if (typeof body === 'string') {
    return body;
  }
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    return new TextDecoder().decode(body);
  }
  if (typeof ReadableStream === 'function' && body instanceof ReadableStream) {
    return ''; // a stream nobody can read any more
  }
  return JSON.stringify(jsonValue(body, new Set()) ?? null);
}

// maskLocation replaces the values of an error's location fields in its
// message: "getaddrinfo ENOTFOUND orders.internal" becomes
// "getaddrinfo ENOTFOUND [hostname]".
function maskLocation(error, message) {
  let masked = message;
  for (const field of LOCATION_FIELDS) {
    const value = error[field];
    if (typeof value === 'string' && value !== '') {
      masked = masked.split(value).join(`[${field}]`);
    } else if (Number.isInteger(value)) {
      // A port is masked as a whole number only: port 80 leaves 1800 alone.
      masked = masked.replace(new RegExp(`(?<![0-9])${value}(?![0-9])`, 'g'), `[${field}]`);
    }
  }
  return masked;
}

// withoutLocation returns a plain copy of a thrown object without its
// location fields.
function withoutLocation(error) {
  const copy = {};
  for (const [key, value] of Object.entries(error)) {
    if (!LOCATION_FIELDS.includes(key)) {
      copy[key] = value;
    }
  }
  return copy;
}

function describeError(error, depth) {
  try {
    if (error === null || typeof error !== 'object') {
      return { name: 'Error', message: String(error) };
    }
    const out = {
      name: typeof error.name === 'string' && error.name !== '' ? error.name : 'Error',
      message: maskLocation(
        error,
        typeof error.message === 'string' ? error.message : JSON.stringify(jsonValue(withoutLocation(error), new Set())),
      ),
    };
    for (const field of ERROR_FIELDS) {
      const value = error[field];
      if (typeof value === 'string' || typeof value === 'number') {
        out[field] = value;
      }
    }
    if (error.details !== undefined) {
      out.details = jsonValue(error.details, new Set()) ?? null;
    }
    if (depth < MAX_CAUSE_DEPTH) {
      if (Array.isArray(error.errors)) {
        out.errors = error.errors.map((e) => describeError(e, depth + 1));
      }
      if (error.cause !== undefined) {
        out.cause = describeError(error.cause, depth + 1);
      }
    }
    return out;
  } catch {
    // A getter or proxy that throws must not turn an error report into a
    // crash of the Tool.
    return { name: 'Error', message: 'the thrown value could not be read' };
  }
}

// jsonValue returns the value JSON would carry (what reaches the agent
// anyway) without throwing: toJSON is honoured (once: a toJSON that returns
// its own object, or another object with a toJSON, is not called again),
// BigInt becomes its decimal string, non-finite numbers become null,
// undefined members are dropped, a reference to an enclosing object becomes
// "[Circular]", and a member whose getter or toJSON throws becomes
// "[Unreadable]".
function jsonValue(value, ancestors, viaToJSON = false) {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return undefined; // undefined, functions and symbols, as in JSON
  }
  if (value === null) {
    return null;
  }
  if (ancestors.has(value)) {
    return '[Circular]';
  }
  if (!viaToJSON) {
    let toJSON;
    try {
      toJSON = value.toJSON;
    } catch {
      return '[Unreadable]';
    }
    if (typeof toJSON === 'function') {
      let replaced;
      try {
        replaced = toJSON.call(value);
      } catch {
        return '[Unreadable]';
      }
      return jsonValue(replaced, ancestors, replaced !== null && typeof replaced === 'object');
    }
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const out = [];
      for (let i = 0; i < value.length; i++) {
        out.push(member(value, i, ancestors) ?? null);
      }
      return out;
    }
    let keys;
    try {
      keys = Object.keys(value);
    } catch {
      return '[Unreadable]';
    }
    const out = {};
    for (const key of keys) {
      const converted = member(value, key, ancestors);
      if (converted !== undefined) {
        out[key] = converted;
      }
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}

// member converts one member of an object or array, reading it defensively.
function member(container, key, ancestors) {
  let item;
  try {
    item = container[key];
  } catch {
    return '[Unreadable]';
  }
  return jsonValue(item, ancestors);
}

function isRecord(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
