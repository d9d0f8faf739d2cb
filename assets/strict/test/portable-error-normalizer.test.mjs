import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { UNKNOWN_DISPATCH_OUTCOME, normalizeToolError } from '../portable-error-normalizer.mjs';

const readPolicy = {
  sideEffect: 'read',
  idempotency: 'safe',
  automaticRetry: 'read-only-bounded',
  confirmation: 'not-required',
  unknownOutcome: 'not-applicable',
};
const createPolicy = {
  sideEffect: 'create',
  idempotency: 'at-most-once',
  automaticRetry: 'never',
  confirmation: 'trusted-confirmation-required',
  unknownOutcome: 'stop-and-reconcile',
};
const updatePolicy = { ...createPolicy, sideEffect: 'update', idempotency: 'idempotent', confirmation: 'not-required', unknownOutcome: 'reconcile-before-any-retry' };
const deletePolicy = { ...createPolicy, sideEffect: 'delete' };
const writePolicies = [createPolicy, updatePolicy, deletePolicy];

function fetchFailed(code = 'ECONNRESET') {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(`read ${code}`), { code }) });
}

function rejection(code, details, extra = {}) {
  return Object.assign(new Error(`rejected: ${code}`), { code, details, ...extra });
}

// assertShape checks the contract every result keeps, whatever went in.
function assertShape(result) {
  assert.deepEqual(Object.keys(result).sort(), ['code', 'details', 'message', 'retryable']);
  assert.equal(typeof result.code, 'string');
  assert.notEqual(result.code, '');
  assert.equal(typeof result.message, 'string');
  assert.notEqual(result.message, '');
  assert.equal(typeof result.details, 'object');
  assert.ok(result.details !== null && !Array.isArray(result.details));
  assert.equal(typeof result.retryable, 'boolean');
  assert.deepEqual(JSON.parse(JSON.stringify(result)), result, 'the result must survive JSON');
}

describe('writes', () => {
  for (const policy of writePolicies) {
    it(`turns a transport failure into UNKNOWN_DISPATCH_OUTCOME (${policy.sideEffect})`, () => {
      const result = normalizeToolError(fetchFailed(), policy);
      assertShape(result);
      assert.equal(result.code, UNKNOWN_DISPATCH_OUTCOME);
      assert.equal(result.retryable, false);
      assert.equal(result.details.outcomeKnown, false);
      assert.equal(result.details.unknownOutcome, policy.unknownOutcome);
      assert.deepEqual(result.details.cause, { name: 'Error', message: 'read ECONNRESET', code: 'ECONNRESET' });
    });
  }

  it('turns an unmarked error with a code into UNKNOWN_DISPATCH_OUTCOME and keeps the original', () => {
    const result = normalizeToolError(rejection('VALIDATION_FAILED', { field: 'amount' }), createPolicy);
    assertShape(result);
    assert.equal(result.code, UNKNOWN_DISPATCH_OUTCOME);
    assert.equal(result.retryable, false);
    assert.deepEqual(result.details.originalError, {
      name: 'Error',
      message: 'rejected: VALIDATION_FAILED',
      category: 'unclassified',
      code: 'VALIDATION_FAILED',
    });
    assert.equal(result.details.category, 'unknown-outcome');
  });

  it('ignores retryable: true on an unknown outcome', () => {
    const result = normalizeToolError(Object.assign(new Error('timeout'), { retryable: true }), updatePolicy);
    assert.equal(result.code, UNKNOWN_DISPATCH_OUTCOME);
    assert.equal(result.retryable, false);
  });

  it('treats outcomeKnown other than true as unknown', () => {
    for (const outcomeKnown of [false, 'true', 1, null, undefined]) {
      const result = normalizeToolError(rejection('CONFLICT', {}, { outcomeKnown }), createPolicy);
      assert.equal(result.code, UNKNOWN_DISPATCH_OUTCOME, `outcomeKnown: ${String(outcomeKnown)}`);
    }
  });

  it('keeps the code of a known rejection but disallows replay', () => {
    const error = rejection('QUOTA_EXCEEDED', { limit: 5, fields: ['quantity'] }, { outcomeKnown: true, retryable: true });
    for (const policy of writePolicies) {
      const result = normalizeToolError(error, policy);
      assertShape(result);
      assert.deepEqual(result, {
        code: 'QUOTA_EXCEEDED',
        message: 'rejected: QUOTA_EXCEEDED',
        details: { limit: 5, fields: ['quantity'], category: 'unclassified', outcomeKnown: true },
        retryable: false,
      });
    }
  });

  it('gives a known rejection without code a generic one', () => {
    const result = normalizeToolError({ message: 'bad request', outcomeKnown: true }, createPolicy);
    assert.equal(result.code, 'TOOL_EXECUTION_FAILED');
    assert.equal(result.details.outcomeKnown, true);
  });

  it('fails closed without a usable policy', () => {
    for (const policy of [undefined, null, 'read', {}, { sideEffect: 'READ' }, [readPolicy]]) {
      const result = normalizeToolError(fetchFailed(), policy);
      assertShape(result);
      assert.equal(result.code, UNKNOWN_DISPATCH_OUTCOME);
      assert.equal(result.retryable, false);
    }
  });
});

// The two normaliser vectors strict behaviour checks derive for writes.
describe('behaviour vectors', () => {
  it('a bare {message} from a write is an unknown, non-retryable outcome', () => {
    const result = normalizeToolError({ message: 'connection dropped' }, createPolicy);
    assert.equal(result.code, UNKNOWN_DISPATCH_OUTCOME);
    assert.equal(result.retryable, false);
  });

  it('a {code, message, details, outcomeKnown: true} backend rejection stays structured', () => {
    const result = normalizeToolError(
      { code: 'SAMPLE_REJECTED', message: 'sample rejected', details: { field: 'title' }, outcomeKnown: true },
      updatePolicy,
    );
    assert.equal(result.code, 'SAMPLE_REJECTED');
    assert.equal(result.retryable, false);
    assert.equal(result.details.outcomeKnown, true);
    assert.equal(result.details.field, 'title');
  });
});

describe('reads', () => {
  it('keeps the code, details and retryability of a Function error', () => {
    const error = rejection('NOT_FOUND', { id: 'sample-1' }, { retryable: false, outcomeKnown: true });
    assert.deepEqual(normalizeToolError(error, readPolicy), {
      code: 'NOT_FOUND',
      message: 'rejected: NOT_FOUND',
      details: { id: 'sample-1', category: 'unclassified' },
      retryable: false,
    });
  });

  it('lets a transport failure be retried within the bound', () => {
    const result = normalizeToolError(fetchFailed('EAI_AGAIN'), readPolicy);
    assertShape(result);
    assert.equal(result.code, 'UPSTREAM_UNREACHABLE');
    assert.equal(result.retryable, true);
    assert.equal(result.details.cause.code, 'EAI_AGAIN');
  });

  it('keeps a system code as the code', () => {
    const result = normalizeToolError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), readPolicy);
    assert.equal(result.code, 'ECONNREFUSED');
    assert.equal(result.retryable, true);
  });

  it('never makes a read retryable when the policy does not allow retries', () => {
    const result = normalizeToolError(fetchFailed(), { ...readPolicy, automaticRetry: 'never' });
    assert.equal(result.retryable, false);
  });

  it('does not retry an unknown programming error', () => {
    const result = normalizeToolError(new RangeError('index out of range'), readPolicy);
    assertShape(result);
    assert.equal(result.code, 'TOOL_EXECUTION_FAILED');
    assert.equal(result.retryable, false);
  });

  it('honours an explicit retryable: true', () => {
    const result = normalizeToolError(rejection('RATE_LIMITED', {}, { retryable: true, outcomeKnown: true }), readPolicy);
    assert.equal(result.code, 'RATE_LIMITED');
    assert.equal(result.retryable, true);
  });
});

// Every result names its category in details.category.
describe('addresses', () => {
  it('masks where a failed request went in a cause of its own', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:8443'), { code: 'ECONNREFUSED', address: '10.1.2.3', port: 8443 });
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND', hostname: 'db.internal' });
    for (const c of [cause, dns]) {
      const error = new TypeError('fetch failed', { cause: c });
      const seen = JSON.stringify(normalizeToolError(error, readPolicy));
      assert.doesNotMatch(seen, /10\.1\.2\.3|8443|db\.internal/, seen);
      assert.match(seen, new RegExp(c.code), 'the failure itself is still said');
    }
  });
});

describe('categories', () => {
  const categorised = (code, category, extra = {}) =>
    Object.assign(new Error(`rejected: ${code}`), { code, category, details: { category, sourceCode: 'E42' }, ...extra });

  it('keeps the category a Function gave, for reads and known write rejections', () => {
    for (const category of ['input', 'authorization', 'business', 'upstream', 'output-contract']) {
      const read = normalizeToolError(categorised('X', category, { outcomeKnown: true }), readPolicy);
      assert.equal(read.details.category, category);
      assert.equal(read.details.sourceCode, 'E42');
      const write = normalizeToolError(categorised('X', category, { outcomeKnown: true }), createPolicy);
      assert.equal(write.code, 'X');
      assert.equal(write.details.category, category);
    }
  });

  it('replaces a category outside the vocabulary', () => {
    const result = normalizeToolError(categorised('X', 'whatever', { outcomeKnown: true }), readPolicy);
    assert.equal(result.details.category, 'unclassified');
  });

  it('reads the category of a reviewed dispatcher or guard code', () => {
    const cases = {
      HOST_AUTHENTICATION_REQUIRED: 'authorization',
      DISPATCH_REQUEST_INVALID: 'input',
      UPSTREAM_TIMEOUT: 'network',
      UPSTREAM_RESPONSE_TOO_LARGE: 'upstream',
      PROTECTED_OPERATION_MISSING: 'input',
    };
    for (const [code, category] of Object.entries(cases)) {
      const result = normalizeToolError(rejection(code, {}, { outcomeKnown: true }), readPolicy);
      assert.equal(result.details.category, category, code);
    }
  });

  it('calls a transport failure a network failure', () => {
    assert.equal(normalizeToolError(fetchFailed(), readPolicy).details.category, 'network');
  });

  it('calls an unknown write outcome unknown-outcome and keeps the original category', () => {
    const result = normalizeToolError(categorised('BUSINESS_REJECTED', 'business'), createPolicy);
    assert.equal(result.code, UNKNOWN_DISPATCH_OUTCOME);
    assert.equal(result.details.category, 'unknown-outcome');
    assert.equal(result.details.originalError.category, 'business');
  });

  it('calls what it cannot read unclassified', () => {
    for (const error of [undefined, 'text', new RangeError('index out of range')]) {
      assert.equal(normalizeToolError(error, readPolicy).details.category, 'unclassified');
    }
  });
});

describe('hostile and odd inputs', () => {
  const odd = [
    undefined,
    null,
    'plain string',
    42,
    Symbol('thrown'),
    {},
    [],
    new Error(''),
    Object.assign(new Error('with bad details'), { details: 'not an object' }),
    Object.assign(new Error('with class details'), { details: new Map([['a', 1]]) }),
    new Proxy({}, { get() { throw new Error('trap'); } }),
  ];
  for (const [i, error] of odd.entries()) {
    for (const policy of [readPolicy, createPolicy]) {
      it(`normalises odd value #${i} for a ${policy.sideEffect}`, () => {
        assertShape(normalizeToolError(error, policy));
      });
    }
  }

  it('copies only plain data into details', () => {
    let getterCalls = 0;
    const details = {
      kept: 'yes',
      nested: { list: [1, Number.NaN, 'x'] },
      get secret() {
        getterCalls++;
        return 'never read';
      },
      fn() {},
      when: new Date(0),
    };
    const cyclic = { name: 'loop' };
    cyclic.self = cyclic;
    details.cyclic = cyclic;
    const result = normalizeToolError(rejection('BAD', details, { outcomeKnown: true }), readPolicy);
    assertShape(result);
    assert.equal(getterCalls, 0, 'a getter in details must not run');
    assert.equal(result.details.kept, 'yes');
    assert.deepEqual(result.details.nested, { list: [1, null, 'x'] });
    assert.equal('secret' in result.details, false);
    assert.equal('fn' in result.details, false);
    assert.equal('when' in result.details, false);
  });

  it('does not leak a stack into the result', () => {
    const text = JSON.stringify(normalizeToolError(new Error('boom'), createPolicy));
    assert.doesNotMatch(text, /\.mjs|at /);
  });
});
