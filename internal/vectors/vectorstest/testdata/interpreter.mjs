// A hand-written Function core for test packages: it runs every capability
// of function-core/capability-bundle.json the way spec §4 describes a
// Function, so that the vector tests run against a core of the contract's
// shape without the compiler:
//
//   export async function <functionExport>(input, context)
//     -> {status, data}, or throws an Error with code, details, retryable
//        and outcomeKnown
//
// Input is validated against the derived inputSchema (every keyword of the
// portable subset), the conditional rules and the Function-enforced
// constraints; HTTP steps are dispatched with context.dispatch(url,
// {method, headers, query, body, multipart}) exactly as their bindings say;
// a status outside a step's successStatusCodes throws the rejection of its
// category, as compiled code does (categoryByStatus of the error contract's
// sourceError, else 401/403 AUTHORIZATION_REJECTED, another 4xx but 408 and
// 429 BUSINESS_REJECTED, the rest UPSTREAM_STEP_REJECTED), with
// outcomeKnown: true. A deterministic-workflow write hands the call to
// the workflow guard, in the guard's documented shape.
//
// make(capabilityId, faults) returns the Function; each fault breaks one
// behaviour, so that a test can show the vector that catches it.

import bundle from './capability-bundle.json' with { type: 'json' };
import schemaContract from './schema-contract.json' with { type: 'json' };
import { protectedWorkflowStateFor } from '../portable-workflow-guard.mjs';

function fail(code, message, details = {}, extra = {}) {
  return Object.assign(new Error(message), { code, details, retryable: false, outcomeKnown: true, ...extra });
}

const REJECTIONS = { input: 'INPUT_REJECTED', authorization: 'AUTHORIZATION_REJECTED', business: 'BUSINESS_REJECTED', upstream: 'UPSTREAM_STEP_REJECTED' };

// rejection is the category of a rejected status under the error contract.
function rejection(errorContract, status) {
  const declared = errorContract?.sourceError?.categoryByStatus?.[String(status)];
  if (Object.hasOwn(REJECTIONS, declared ?? '')) {
    return declared;
  }
  if (status === 401 || status === 403) {
    return 'authorization';
  }
  return status >= 400 && status < 500 && status !== 408 && status !== 429 ? 'business' : 'upstream';
}

export function make(capabilityId, faults = {}) {
  const cap = bundle.capabilities.find((c) => c.capabilityId === capabilityId);
  const projection = schemaContract.capabilities.find((c) => c.capabilityId === capabilityId);
  const workflowId = cap.runtimeProtection && cap.runtimeProtection.mode === 'deterministic-workflow' ? cap.runtimeProtection.workflowId : null;
  let frozen;
  return async function (input, context = {}) {
    if (faults.exitProcess) {
      process.exit(3);
    }
    if (faults.spin) {
      for (;;) {}
    }
    if (faults.hang) {
      await new Promise(() => {});
    }
    if (faults.alwaysThrow) {
      // The message names the module's location, which must not reach
      // evidence as the temporary path it ran from.
      throw fail('SAMPLE_UNAVAILABLE', `this Function refuses every call (${import.meta.url})`);
    }
    if (!faults.noValidation) {
      const errors = [];
      validate(projection.inputSchema, input, 'input', errors, faults);
      if (!faults.noConditionalRules) {
        conditionalRules(projection.conditionalRules, input, errors);
      }
      constraints(cap.constraints || [], input, errors);
      if (errors.length > 0) {
        const extra = faults.inputErrorUnknownOutcome ? { outcomeKnown: undefined } : {};
        throw fail('INVALID_INPUT', 'the input does not satisfy the contract', { errors }, extra);
      }
    }
    // A write that needs the user's confirmation, which no workflow guard
    // checks, sends nothing without it in the trusted runtime context.
    const confirmation = cap.operationPolicy.confirmation;
    if (!workflowId && cap.sideEffect !== 'read' && confirmation !== 'not-required' && !faults.skipConfirmation &&
        (typeof context.confirmationGrantId !== 'string' || context.confirmationGrantId === '')) {
      throw fail('CONFIRMATION_REQUIRED', 'the user did not confirm this write', {});
    }
    if (faults.freezeInput) {
      frozen ??= structuredClone(input);
      input = frozen;
    }
    if (cap.implementation.kind === 'local') {
      const data = {};
      for (const out of cap.outputs) {
        // A static domain's value; otherwise a plain value of the type (a
        // compiler refuses such a local capability, a hand-written core
        // computes it).
        const fallback = { integer: 0, number: 0, string: '', boolean: false, array: [], object: {} }[out.type];
        data[out.path[0]] = out.valueDomain && out.valueDomain.kind === 'static' ? out.valueDomain.values[0] : fallback;
      }
      return { status: 'success', data };
    }
    if (workflowId && !faults.bypassGuard) {
      const protectedWorkflowState = protectedWorkflowStateFor(context, workflowId);
      const dispatch = faults.guardClosure ? (safeInput) => steps(cap, safeInput, context, faults) : context.dispatch;
      return protectedWorkflowState.guard.dispatchWithPolicy({
        workflowId,
        input,
        runtimeContext: context,
        operationKey: protectedWorkflowState.operationKey,
      }, dispatch);
    }
    if (typeof context.dispatch !== 'function') {
      throw fail('DISPATCH_CONTEXT_REQUIRED', 'context.dispatch is required');
    }
    return steps(cap, input, context, faults);
  };
}

// steps dispatches the HTTP steps in order and returns the output step's
// response.
async function steps(cap, input, context, faults) {
  const responses = {};
  let output;
  for (const step of cap.implementation.steps) {
    let url = step.url;
    const options = { method: step.method, headers: {} };
    for (const [name, value] of Object.entries(step.headers || {})) {
      options.headers[name.toLowerCase()] = value;
    }
    if (faults.extraHeader) {
      options.headers['x-sample-extra'] = '1';
    }
    for (const b of step.bindings || []) {
      let value;
      let present = true;
      switch (b.source.kind) {
        case 'input':
          present = Object.hasOwn(input, b.source.inputName);
          value = input[b.source.inputName];
          if (!present && faults.sendOmittedAsNull) {
            present = true;
            value = null;
          }
          break;
        case 'prior_response':
          value = b.source.path.reduce((v, k) => (v == null ? v : v[k]), responses[b.source.stepId].data);
          break;
        case 'host_resolved_attachment': {
          const resolved = context.resolvedAttachments;
          if (faults.forwardRawGrant) {
            value = input[b.source.inputName];
          } else if (faults.dispatchWithoutResolution) {
            value = resolved && resolved[b.source.inputName];
          } else {
            if (!resolved || !Object.hasOwn(resolved, b.source.inputName)) {
              throw fail('ATTACHMENT_NOT_RESOLVED', 'the approved attachment was not resolved by the Host', { input: b.source.inputName });
            }
            value = resolved[b.source.inputName];
          }
          break;
        }
      }
      if (!present) {
        continue;
      }
      if (faults.dropQuery && b.location === 'query') {
        continue;
      }
      switch (b.location) {
        case 'path':
          url = url.replace('{' + b.path[0] + '}', encodeURIComponent(String(value)));
          break;
        case 'query':
          (options.query ??= {})[b.path[0]] = value;
          break;
        case 'header':
          options.headers[b.path[0].toLowerCase()] = value;
          break;
        case 'multipart':
          (options.multipart ??= {})[b.path[0]] = value;
          break;
        case 'body': {
          options.body ??= {};
          let node = options.body;
          for (const seg of b.path.slice(0, -1)) {
            node = node[seg] ??= {};
          }
          node[b.path.at(-1)] = value;
          break;
        }
      }
    }
    let response;
    try {
      response = await context.dispatch(url, options);
    } catch (error) {
      if (faults.retryOnFailure) {
        response = await context.dispatch(url, options);
      } else if (faults.markTransportKnown) {
        throw Object.assign(error, { outcomeKnown: true });
      } else {
        throw error;
      }
    }
    const accepted = step.successStatusCodes || [200];
    if (!faults.ignoreStatus && !accepted.includes(response.status)) {
      const extra = faults.businessUnknown ? { outcomeKnown: undefined } : {};
      const category = faults.collapseCategories ? 'upstream' : rejection(cap.errorContract, response.status);
      throw fail(REJECTIONS[category], `step ${step.stepId} answered ${response.status}`, { stepId: step.stepId, status: response.status }, { category, ...extra });
    }
    responses[step.stepId] = response;
    if (step.stepId === cap.implementation.outputStepId) {
      output = response;
    }
  }
  if (output.data === null) {
    // A response without a body is a success with null data only at the
    // success rule's empty-body statuses.
    const emptyBody = cap.successRule.emptyBodyStatusCodes ?? [];
    if (faults.emptyBodyAnyStatus || (emptyBody.includes(output.status) && !faults.emptyBodyRefused)) {
      return { status: output.status, data: null };
    }
    throw fail('OUTPUT_CONTRACT_VIOLATED', `the response to ${output.status} has no body`, { status: output.status },
      { category: 'output-contract', outcomeKnown: undefined });
  }
  if (faults.freezeOutput) {
    cap.frozenOutput ??= structuredClone(output.data);
    output = { status: output.status, data: cap.frozenOutput };
  }
  const data = faults.forbiddenKey ? { ...output.data, errors: [] } : output.data;
  return { status: output.status, data };
}

// validate checks a value against a portable-subset schema.
function validate(schema, value, at, errors, faults) {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((t) => typeMatches(t, value))) {
    errors.push(`${at}: want ${types.join(' or ')}`);
    return;
  }
  if (value === null) {
    return;
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errors.push(`${at}: not one of the allowed values`);
  }
  if (Object.hasOwn(schema, 'const') && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    errors.push(`${at}: not the constant value`);
  }
  if (typeof value === 'string' && !faults.skipKeywords) {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) errors.push(`${at}: too short`);
    if (schema.maxLength !== undefined && length > schema.maxLength) errors.push(`${at}: too long`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) errors.push(`${at}: does not match ${schema.pattern}`);
    if (schema.format === 'uri' && !/^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/.test(value)) errors.push(`${at}: not a URI`);
  }
  if (typeof value === 'number' && !faults.skipKeywords) {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: below the minimum`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: above the maximum`);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) errors.push(`${at}: not above the exclusive minimum`);
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) errors.push(`${at}: not below the exclusive maximum`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${at}: too few items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${at}: too many items`);
    if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) errors.push(`${at}: items repeat`);
    if (schema.items) value.forEach((v, i) => validate(schema.items, v, `${at}[${i}]`, errors, faults));
  } else if (typeof value === 'object') {
    const props = schema.properties || {};
    for (const name of schema.required || []) {
      if (!Object.hasOwn(value, name)) errors.push(`${at}.${name}: required`);
    }
    for (const [name, v] of Object.entries(value)) {
      if (Object.hasOwn(props, name)) {
        validate(props[name], v, `${at}.${name}`, errors, faults);
      } else if (schema.additionalProperties === false && !faults.acceptUnexpected) {
        errors.push(`${at}.${name}: not allowed`);
      }
    }
  }
}

function typeMatches(type, value) {
  switch (type) {
    case 'null': return value === null;
    case 'boolean': return typeof value === 'boolean';
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'string': return typeof value === 'string';
    case 'array': return Array.isArray(value);
    case 'object': return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
  return false;
}

function conditionalRules(rules, input, errors) {
  for (const [name, rule] of Object.entries(rules || {})) {
    const present = Object.hasOwn(input, name);
    if (!present && (rule.requiredWhen || []).some((c) => holds(c, input))) {
      errors.push(`input.${name}: required by a condition`);
    }
    if (present && (rule.forbiddenWhen || []).some((c) => holds(c, input))) {
      errors.push(`input.${name}: forbidden by a condition`);
    }
  }
}

function constraints(list, input, errors) {
  for (const c of list) {
    if (!/function|schema/.test(c.enforcement)) {
      continue;
    }
    if (c.kind === 'cross-field' && c.if && c.then && holds(c.if, input) && !holds(c.then, input)) {
      errors.push(`constraint ${c.constraintId}`);
    }
    if (c.kind === 'forbidden-shape') {
      const v = c.path.reduce((x, k) => (x == null ? undefined : x[k]), input);
      if (c.predicate.operator === 'absent' ? v !== undefined && v !== null : !empty(v)) {
        errors.push(`constraint ${c.constraintId}`);
      }
    }
  }
}

function empty(v) {
  return v == null || (typeof v === 'string' || Array.isArray(v) ? v.length === 0 : typeof v === 'object' && Object.keys(v).length === 0);
}

function holds(cond, input) {
  switch (cond.operator) {
    case 'and': return (cond.conditions || cond.operands).every((c) => holds(c, input));
    case 'or': return (cond.conditions || cond.operands).some((c) => holds(c, input));
    case 'not': return !holds(cond.condition, input);
  }
  const v = cond.path.reduce((x, k) => (x == null ? undefined : x[k]), input);
  const found = v !== undefined && v !== null;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  switch (cond.operator) {
    case 'equals': return found && same(v, cond.value);
    case 'not-equals': return !found || !same(v, cond.value);
    case 'in': return found && cond.value.some((x) => same(v, x));
    case 'not-in': return !found || !cond.value.some((x) => same(v, x));
    case 'present': return found;
    case 'absent': return !found;
    case 'non-empty': return found && !empty(v);
    case 'empty': return empty(v);
    case 'gt': return typeof v === 'number' && v > cond.value;
    case 'gte': return typeof v === 'number' && v >= cond.value;
    case 'lt': return typeof v === 'number' && v < cond.value;
    case 'lte': return typeof v === 'number' && v <= cond.value;
  }
  return false;
}
