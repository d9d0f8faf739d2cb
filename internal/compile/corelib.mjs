// ---------------------------------------------------------------------------
// The helpers every compiled Function uses. They are the same in every
// package: code2skill compile writes them after the Functions, verbatim.
// ---------------------------------------------------------------------------

// FunctionError is a structured failure: a code, a message, JSON details
// that name its category (input, authorization, business, upstream,
// output-contract), never retryable, and outcomeKnown when nothing was
// dispatched or a response proved the rejection. An error without
// outcomeKnown from a write becomes UNKNOWN_DISPATCH_OUTCOME in
// portable-error-normalizer.mjs, which keeps the category it read.
class FunctionError extends Error {
  constructor(code, message, details, outcomeKnown, category) {
    super(message);
    this.name = 'FunctionError';
    this.code = code;
    this.category = category;
    this.details = { category, ...details };
    this.retryable = false;
    if (outcomeKnown) {
      this.outcomeKnown = true;
    }
  }
}

// MAX_ERRORS bounds how many schema violations one failure lists.
const MAX_ERRORS = 32;

// checkInput throws INVALID_INPUT unless input satisfies the capability's
// closed input schema, every value bound into a URL path is a usable path
// segment, and the input keeps the contract's conditional rules and the
// constraints the Function enforces. Nothing has been dispatched yet, so
// the outcome is known.
function checkInput(capability, input) {
  const errors = [];
  validate(capability.input, input, '', errors);
  if (errors.length === 0) {
    for (const name of capability.pathInputs) {
      if (!isPathSegment(input[name])) {
        addError(errors, pointer('', name), 'path', 'must be a non-empty URL path segment other than . and ..');
      }
    }
    checkRules(capability, input, errors);
  }
  if (errors.length > 0) {
    throw new FunctionError('INVALID_INPUT', `invalid input: ${describe(errors)}`, { errors }, true, 'input');
  }
}

// requireConfirmation throws CONFIRMATION_REQUIRED unless the trusted
// runtime context carries the confirmation the user gave for this call:
// context.confirmationGrantId, which only the Host sets, once the user
// confirmed. A write whose policy requires confirmation without a workflow
// guard to check it (the deployer requires it, no source enforces it)
// calls it before anything is dispatched, so the outcome is known.
function requireConfirmation(context) {
  const grant = ownValue(context, 'confirmationGrantId');
  if (typeof grant !== 'string' || grant === '') {
    throw new FunctionError('CONFIRMATION_REQUIRED',
      "this write needs the user's confirmation, and the trusted runtime context carries none; nothing was sent",
      {}, true, 'authorization');
  }
}

// checkRules records what breaks the capability's rules over several
// fields: an input left out while a requiredWhen condition of it holds, an
// input given while a forbiddenWhen condition of it holds (given means its
// member is there, null included, as for the schema's required), and a
// constraint that does not hold. The predicates are compiled from the
// contract's conditions; they read input that satisfies the schema.
function checkRules(capability, input, errors) {
  for (const rule of capability.requiredWhen ?? []) {
    if (!Object.hasOwn(input, rule.input) && rule.when(input)) {
      addError(errors, pointer('', rule.input), 'requiredWhen', 'is required while its condition holds');
    }
  }
  for (const rule of capability.forbiddenWhen ?? []) {
    if (Object.hasOwn(input, rule.input) && rule.when(input)) {
      addError(errors, pointer('', rule.input), 'forbiddenWhen', 'must be left out while its condition holds');
    }
  }
  for (const constraint of capability.constraints ?? []) {
    if (!constraint.holds(input)) {
      addError(errors, constraint.at === '' ? '/' : constraint.at, 'constraint', `breaks the constraint ${constraint.id}`);
    }
  }
}

// someAt is a leaf of a compiled condition: whether test accepts some value
// at path inside input, or ifNone when there is none. path[0] names an
// input; "*" walks into every element of an array; null, and a path that
// leads nowhere, give no value.
function someAt(input, path, ifNone, test) {
  const values = [];
  valuesAt(input, path, 0, values);
  return values.length === 0 ? ifNone : values.some(test);
}

// valuesAt collects the values other than null at path[i…] below value.
function valuesAt(value, path, i, out) {
  if (value === undefined || value === null) {
    return;
  }
  if (i === path.length) {
    out.push(value);
  } else if (path[i] === '*') {
    if (Array.isArray(value)) {
      for (const item of value) {
        valuesAt(item, path, i + 1, out);
      }
    }
  } else if (isRecord(value)) {
    valuesAt(ownValue(value, path[i]), path, i + 1, out);
  }
}

// sizeOf is the length of a string (in code points), an array or an
// object, and -1 for other values, which are neither empty nor non-empty.
function sizeOf(value) {
  if (typeof value === 'string') {
    return [...value].length;
  }
  if (Array.isArray(value)) {
    return value.length;
  }
  return isRecord(value) ? Object.keys(value).length : -1;
}

// requireAttachments throws ATTACHMENT_NOT_RESOLVED unless the Host resolved
// every named attachment input into context.resolvedAttachments. It runs
// before the first dispatch.
function requireAttachments(context, names) {
  const missing = names.filter((name) => attachmentOf(context, name) === undefined);
  if (missing.length > 0) {
    throw new FunctionError('ATTACHMENT_NOT_RESOLVED',
      `the Host did not resolve the attachment input(s) ${missing.join(', ')}; nothing was sent`,
      { inputs: missing }, true, 'input');
  }
}

// attachmentOf returns the content the Host resolved for an attachment input.
function attachmentOf(context, name) {
  const resolved = context !== null && typeof context === 'object' ? ownValue(context, 'resolvedAttachments') : undefined;
  return ownValue(resolved, name);
}

// withSignal returns a request's options with the runtime context's
// AbortSignal (the MCP SDK passes one per call, aborted when the client
// cancels the call), or the options as they are when the context has none.
function withSignal(request, context) {
  const signal = context !== null && typeof context === 'object' ? ownValue(context, 'signal') : undefined;
  return signal === undefined ? request : { ...request, signal };
}

// expectStatus throws unless the step's response status is one the
// contract accepts, so that no later step runs and no partial result is
// returned. The error keeps what the rejection means: its category comes
// from the contract's sourceError.categoryByStatus, else from the status
// (401 and 403 authorization, 408, 429 and 5xx upstream, another 4xx
// business), and names the code AUTHORIZATION_REJECTED, BUSINESS_REJECTED,
// INPUT_REJECTED or UPSTREAM_STEP_REJECTED. The backend's own code, message
// and field errors, read at the contract's sourceError paths, go into
// details as sourceCode, sourceMessage and fieldErrors, next to the whole
// response. The response proves the rejection; when an earlier step of the
// same call may have written, the outcome is not known.
function expectStatus(capability, response, stepId, statuses, outcomeKnown) {
  if (response === null || typeof response !== 'object' || !Number.isInteger(response.status)) {
    throw new FunctionError('UPSTREAM_RESPONSE_INVALID',
      `step ${stepId}: the dispatcher must return {status, data} with an integer status`, { stepId }, false, 'upstream');
  }
  if (statuses.includes(response.status)) {
    return;
  }
  const status = response.status;
  const category = statusCategory(capability.sourceError, status);
  const data = jsonOrNull(response.data);
  const details = { stepId, status };
  const source = capability.sourceError ?? {};
  const sourceCode = sourceText(data, source.codePath);
  const sourceMessage = sourceText(data, source.messagePath);
  if (sourceCode !== undefined) {
    details.sourceCode = sourceCode;
  }
  if (sourceMessage !== undefined) {
    details.sourceMessage = sourceMessage;
  }
  const fieldErrors = Array.isArray(source.fieldErrorsPath) ? valueAt(data, source.fieldErrorsPath, 0) : undefined;
  if (fieldErrors !== undefined && fieldErrors !== null) {
    details.fieldErrors = fieldErrors;
  }
  details.response = data;
  const said = [sourceCode, sourceMessage].filter((part) => part !== undefined).join(': ');
  throw new FunctionError(REJECTION_CODES[category],
    `step ${stepId} answered ${status}; the contract accepts ${statuses.join(', ')}` + (said === '' ? '' : ` (${said})`),
    details, outcomeKnown, category);
}

// REJECTION_CODES name a rejected step's error by its category.
const REJECTION_CODES = {
  input: 'INPUT_REJECTED',
  authorization: 'AUTHORIZATION_REJECTED',
  business: 'BUSINESS_REJECTED',
  upstream: 'UPSTREAM_STEP_REJECTED',
};

// statusCategory is the category a rejected status means.
function statusCategory(sourceError, status) {
  const declared = ownValue(sourceError?.categoryByStatus, String(status));
  if (Object.hasOwn(REJECTION_CODES, declared ?? '')) {
    return declared;
  }
  if (status === 401 || status === 403) {
    return 'authorization';
  }
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return 'business';
  }
  return 'upstream';
}

// sourceText is the string or number a rejected response carries at path,
// as text, or undefined when there is none.
function sourceText(data, path) {
  if (!Array.isArray(path)) {
    return undefined;
  }
  const value = valueAt(data, path, 0);
  if (typeof value === 'string' && value !== '') {
    return value;
  }
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

// fromResponse reads a value an earlier step's response must carry.
function fromResponse(response, stepId, path) {
  const value = valueAt(response.data, path, 0);
  if (value === undefined) {
    throw new FunctionError('UPSTREAM_RESPONSE_INVALID',
      `step ${stepId}: the response carries nothing at ${path.join('.')}, which a later request needs`,
      { stepId, path }, false, 'upstream');
  }
  return value;
}

// outputOf is the Function's result: the output step's status and the
// response data reduced to what the contract's closed output schema
// declares. A response without a body (data null) at a status the success
// rule accepts it (emptyBodyStatuses) is a success with null data, and at
// any other status a broken contract. A response carrying a forbidden key,
// or whose result breaks the output schema or leaves a required output
// empty, is OUTPUT_CONTRACT_VIOLATED.
function outputOf(capability, response) {
  const errors = [];
  const data = response.data;
  const emptyBody = capability.emptyBodyStatuses;
  if (data === null && emptyBody !== undefined) {
    if (emptyBody.includes(response.status)) {
      return { status: response.status, data: null };
    }
    addError(errors, '/data', 'emptyBodyStatusCodes', `must not be empty: a response without a body succeeds only with status ${emptyBody.join(', ')}`);
  }
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    for (const key of capability.forbiddenOutputKeys) {
      if (Object.hasOwn(data, key)) {
        addError(errors, pointer('/data', key), 'forbiddenOutputKeys', 'the response carries a forbidden key');
      }
    }
  }
  const result = { status: response.status, data: project(capability.output.properties.data, data, 0) };
  if (errors.length === 0) {
    validate(capability.output, result, '', errors);
  }
  if (errors.length === 0) {
    for (const path of capability.requiredOutputPaths) {
      if (!present(result.data, path, 0)) {
        addError(errors, '/data/' + path.map(escapePointer).join('/'), 'requiredOutputPaths', 'must be present and not null');
      }
    }
  }
  if (errors.length > 0) {
    throw new FunctionError('OUTPUT_CONTRACT_VIOLATED', `the response breaks the output contract: ${describe(errors)}`,
      { errors, status: response.status }, false, 'output-contract');
  }
  return result;
}

// bind places a value at path inside a request part (query, headers, body,
// multipart), creating the objects on the way. An omitted optional input
// (undefined) is left out.
function bind(target, path, value) {
  if (value === undefined) {
    return;
  }
  let node = target;
  for (const segment of path.slice(0, -1)) {
    let next = ownValue(node, segment);
    if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      next = {};
      setOwn(node, segment, next);
    }
    node = next;
  }
  setOwn(node, path[path.length - 1], value);
}

// expandPath replaces each {name} of a URL template with its value, percent-
// encoded as one path segment (RFC 3986 unreserved characters stay).
function expandPath(template, values) {
  return template.replace(/\{([^{}/?#]+)\}/g, (_, name) => {
    const value = ownValue(values, name);
    if (!isPathSegment(value)) {
      throw new FunctionError('UPSTREAM_RESPONSE_INVALID',
        `the URL path parameter ${name} has no usable value`, { parameter: name }, false, 'upstream');
    }
    return encodeURIComponent(String(value)).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  });
}

// isPathSegment reports whether a value can stand for one URL path segment:
// a string, number or boolean whose text is neither empty nor a dot segment,
// which URL parsers would resolve away.
function isPathSegment(value) {
  if (typeof value !== 'string' && typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) {
    return false;
  }
  const text = String(value);
  return text !== '' && text !== '.' && text !== '..';
}

// validate checks value against the portable JSON Schema subset: type
// (nullable included), enum, const, closed objects, required, properties,
// min/maxLength, pattern, format uri, minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, items, min/maxItems and uniqueItems. Lengths count
// Unicode code points.
function validate(schema, value, path, errors) {
  const fail = (keyword, message) => addError(errors, path === '' ? '/' : path, keyword, message);
  if (Object.hasOwn(schema, 'type')) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => hasType(value, type))) {
      fail('type', `must be ${types.join(' or ')}`);
      return;
    }
  }
  if (Object.hasOwn(schema, 'enum') && !schema.enum.some((allowed) => jsonEqual(allowed, value))) {
    fail('enum', `must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  if (Object.hasOwn(schema, 'const') && !jsonEqual(schema.const, value)) {
    fail('const', `must be ${JSON.stringify(schema.const)}`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (Object.hasOwn(schema, 'minLength') && length < schema.minLength) {
      fail('minLength', `must be at least ${schema.minLength} characters`);
    }
    if (Object.hasOwn(schema, 'maxLength') && length > schema.maxLength) {
      fail('maxLength', `must be at most ${schema.maxLength} characters`);
    }
    if (Object.hasOwn(schema, 'pattern') && !new RegExp(schema.pattern).test(value)) {
      fail('pattern', `must match ${schema.pattern}`);
    }
    if (schema.format === 'uri' && !isURI(value)) {
      fail('format', 'must be an absolute URI');
    }
  } else if (typeof value === 'number') {
    if (Object.hasOwn(schema, 'minimum') && value < schema.minimum) {
      fail('minimum', `must be at least ${schema.minimum}`);
    }
    if (Object.hasOwn(schema, 'maximum') && value > schema.maximum) {
      fail('maximum', `must be at most ${schema.maximum}`);
    }
    if (Object.hasOwn(schema, 'exclusiveMinimum') && value <= schema.exclusiveMinimum) {
      fail('exclusiveMinimum', `must be more than ${schema.exclusiveMinimum}`);
    }
    if (Object.hasOwn(schema, 'exclusiveMaximum') && value >= schema.exclusiveMaximum) {
      fail('exclusiveMaximum', `must be less than ${schema.exclusiveMaximum}`);
    }
  } else if (Array.isArray(value)) {
    if (Object.hasOwn(schema, 'minItems') && value.length < schema.minItems) {
      fail('minItems', `must hold at least ${schema.minItems} items`);
    }
    if (Object.hasOwn(schema, 'maxItems') && value.length > schema.maxItems) {
      fail('maxItems', `must hold at most ${schema.maxItems} items`);
    }
    if (schema.uniqueItems === true && value.some((item, i) => value.findIndex((other) => jsonEqual(item, other)) !== i)) {
      fail('uniqueItems', 'must not repeat an item');
    }
    if (Object.hasOwn(schema, 'items')) {
      value.forEach((item, i) => validate(schema.items, item, `${path}/${i}`, errors));
    }
  } else if (isRecord(value)) {
    const properties = Object.hasOwn(schema, 'properties') ? schema.properties : {};
    for (const name of schema.required ?? []) {
      if (!Object.hasOwn(value, name)) {
        addError(errors, pointer(path, name), 'required', 'is required');
      }
    }
    for (const name of Object.keys(value)) {
      if (Object.hasOwn(properties, name)) {
        validate(properties[name], value[name], pointer(path, name), errors);
      } else if (schema.additionalProperties === false) {
        addError(errors, pointer(path, name), 'additionalProperties', 'is not allowed');
      }
    }
  }
}

// addError records one violation, up to MAX_ERRORS of them.
function addError(errors, path, keyword, message) {
  if (errors.length < MAX_ERRORS) {
    errors.push({ path, keyword, message });
  }
}

// hasType reports whether value is of a JSON Schema type. Only plain JSON
// data qualifies: a Date or a Map is not an object, NaN is not a number.
function hasType(value, type) {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
  }
  return false;
}

// isURI accepts an absolute URI: a scheme, a colon, no white space, and a
// form the WHATWG URL parser reads.
function isURI(value) {
  return /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(value) && URL.canParse(value);
}

// jsonEqual compares two JSON values; object member order does not matter.
function jsonEqual(a, b) {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

// project keeps, in every closed object of the schema, only the members the
// schema declares: the contract's business output, without response echoes
// it does not name.
function project(schema, value, depth) {
  if (depth > 64 || value === null || typeof value !== 'object' || schema === undefined) {
    return value;
  }
  if (Array.isArray(value)) {
    return Object.hasOwn(schema, 'items') ? value.map((item) => project(schema.items, item, depth + 1)) : value;
  }
  if (schema.additionalProperties !== false || !Object.hasOwn(schema, 'properties')) {
    return value;
  }
  const out = {};
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(schema.properties, key)) {
      setOwn(out, key, project(schema.properties[key], value[key], depth + 1));
    }
  }
  return out;
}

// present reports whether path ("*" for every array element) leads to
// non-null values.
function present(value, path, i) {
  if (i === path.length) {
    return value !== null && value !== undefined;
  }
  if (path[i] === '*') {
    return Array.isArray(value) && value.every((item) => present(item, path, i + 1));
  }
  return isRecord(value) && Object.hasOwn(value, path[i]) && present(value[path[i]], path, i + 1);
}

// valueAt reads path ("*" maps over array elements) inside value, or
// undefined when it leads nowhere.
function valueAt(value, path, i) {
  if (i === path.length) {
    return value;
  }
  if (path[i] === '*') {
    if (!Array.isArray(value)) {
      return undefined;
    }
    const items = value.map((item) => valueAt(item, path, i + 1));
    return items.includes(undefined) ? undefined : items;
  }
  return valueAt(ownValue(value, path[i]), path, i + 1);
}

function ownValue(object, key) {
  if (object === null || typeof object !== 'object') {
    return undefined;
  }
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

// setOwn defines a member even when its name is __proto__.
function setOwn(object, key, value) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function isRecord(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function jsonOrNull(value) {
  try {
    return value === undefined ? null : JSON.parse(JSON.stringify(value));
  } catch {
    return null;
  }
}

function pointer(path, name) {
  return `${path}/${escapePointer(name)}`;
}

function escapePointer(name) {
  return String(name).replaceAll('~', '~0').replaceAll('/', '~1');
}

function describe(errors) {
  return errors.slice(0, 3).map((e) => `${e.path} ${e.message}`).join('; ') + (errors.length > 3 ? `; and ${errors.length - 3} more` : '');
}
