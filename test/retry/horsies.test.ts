import { test, describe, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import {
  RetryPolicy, backoffDelays, backoffDelay, ValidationError, resolveErrorCode, setGlobalExceptionMapper, CodedError,
  UNHANDLED_EXCEPTION, isErrorCode,
} from '../../src/retry/index.ts';

describe('horsies RetryPolicy', () => {
  test('fixed([60, 300, 900]) retries 3 times after 1 min, 5 min, 15 min', () => {
    const p = RetryPolicy.fixed(['60s', '300s', '900s'], { jitter: false });
    assert.equal(p.maxRetries, 3);
    assert.deepEqual(backoffDelays(p, 0), [60_000, 300_000, 900_000]);
    assert.deepEqual(RetryPolicy.create({ maxRetries: 3, intervals: ['60s', '300s', '900s'], backoffStrategy: 'fixed', jitter: false }), p);
  });

  test('the defaults are the seed\'s: 3 retries of [60, 300, 900] s, fixed, jitter on', () => {
    const p = RetryPolicy.create();
    assert.equal(p.maxRetries, 3);
    assert.equal(p.jitter, 0.25);
    assert.deepEqual(p.curve, { kind: 'fixed', intervalsMs: [60_000, 300_000, 900_000] });
  });

  test('exponential(base 30 s, 5 retries) → 30, 60, 120, 240, 480 s', () => {
    const p = RetryPolicy.exponential({ base: '30s', maxRetries: 5, jitter: false });
    assert.deepEqual(backoffDelays(p, 0), [30_000, 60_000, 120_000, 240_000, 480_000]);
  });

  test('jitter is on by default: ±25 %, 60 s → 45..75 s, and spreads', () => {
    const p = RetryPolicy.fixed(['60s']);
    const seen: number[] = [];
    for (let seed = 0; seed < 5000; seed++) {
      const d = backoffDelay(p, 1, seed);
      assert.ok(d >= 45_000 && d <= 75_000, String(d));
      seen.push(d);
    }
    assert.ok(Math.min(...seen) < 46_000 && Math.max(...seen) > 74_000, 'covers the range');
    const exp = RetryPolicy.exponential({ base: '30s', maxRetries: 5 });
    for (let seed = 0; seed < 500; seed++) {
      backoffDelays(exp, seed).forEach((d, i) => {
        const base = 30_000 * 2 ** i;
        assert.ok(d >= base * 0.75 && d <= base * 1.25);
      });
    }
  });

  test('validation: the list length must match maxRetries for fixed', () => {
    assert.throws(() => RetryPolicy.create({ maxRetries: 3, intervals: ['1s', '2s'], backoffStrategy: 'fixed' }), (err: unknown) => {
      assert.ok(err instanceof ValidationError);
      assert.equal(err.field, 'retryPolicy.intervals');
      assert.equal(err.message, 'retryPolicy.intervals length must match maxRetries for fixed backoff: 2 intervals, maxRetries 3');
      return true;
    });
    assert.throws(() => RetryPolicy.fixed(['1s', '2s'], { maxRetries: 3 }), /intervals length must match maxRetries/);
  });

  test('validation: maxRetries 1–20', () => {
    for (const bad of [0, 21, 2.5, -1]) {
      assert.throws(() => RetryPolicy.exponential({ base: '1s', maxRetries: bad }),
        (err: unknown) => err instanceof ValidationError && err.message === `exponential.maxRetries must be an integer from 1 to 20, got ${bad}`);
    }
    assert.throws(() => RetryPolicy.fixed([]), /fixed\.maxRetries must be an integer from 1 to 20, got 0/);
    assert.throws(() => RetryPolicy.fixed(Array(21).fill('1s')), /got 21/);
    assert.equal(RetryPolicy.exponential({ base: '1s', maxRetries: 20 }).maxRetries, 20);
  });

  test('validation: codes must be UPPER_SNAKE_CASE, class names are rejected', () => {
    for (const good of ['RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'UNHANDLED_EXCEPTION', 'WORKER_CRASHED', 'TIMEOUT', 'HTTP_503']) assert.ok(isErrorCode(good), good);
    for (const bad of ['TimeoutError', 'rate_limited', 'RATE-LIMITED', '_RATE', 'RATE__LIMITED', 'RATE_', '', '503']) assert.ok(!isErrorCode(bad), bad);
    assert.throws(() => new CodedError('TimeoutError'), (err: unknown) =>
      err instanceof ValidationError && /^errorCode must be an UPPER_SNAKE_CASE error code .*"TimeoutError"$/.test(err.message));
  });
});

describe('exception mapper resolution order', () => {
  class TimeoutError extends Error {}
  class ConnectionError extends Error {}
  class ConnectionResetError extends ConnectionError {}
  class PermissionError extends Error {}

  afterEach(() => setGlobalExceptionMapper(undefined));

  test('per-call map, then global map, then per-call default, then global default, then UNHANDLED_EXCEPTION', () => {
    const perCall = { exceptionMapper: new Map<any, string>([[TimeoutError, 'TIMEOUT']]) };
    assert.equal(resolveErrorCode(new PermissionError(), perCall), UNHANDLED_EXCEPTION);
    setGlobalExceptionMapper({ exceptionMapper: [[TimeoutError, 'GLOBAL_TIMEOUT'], [PermissionError, 'PERMISSION_DENIED']] });
    assert.equal(resolveErrorCode(new TimeoutError(), perCall), 'TIMEOUT', 'per-call wins over global');
    assert.equal(resolveErrorCode(new PermissionError(), perCall), 'PERMISSION_DENIED', 'global map before defaults');
    assert.equal(resolveErrorCode(new ConnectionError(), { ...perCall, defaultUnhandledErrorCode: 'CALL_DEFAULT' }), 'CALL_DEFAULT');
    setGlobalExceptionMapper({ defaultUnhandledErrorCode: 'GLOBAL_DEFAULT' });
    assert.equal(resolveErrorCode(new ConnectionError(), perCall), 'GLOBAL_DEFAULT');
    assert.equal(resolveErrorCode(new ConnectionError(), { ...perCall, defaultUnhandledErrorCode: 'CALL_DEFAULT' }), 'CALL_DEFAULT');
  });

  test('exact class only: subclasses do not match', () => {
    const perCall = { exceptionMapper: new Map<any, string>([[ConnectionError, 'CONNECTION_ERROR']]) };
    assert.equal(resolveErrorCode(new ConnectionError(), perCall), 'CONNECTION_ERROR');
    assert.equal(resolveErrorCode(new ConnectionResetError(), perCall), UNHANDLED_EXCEPTION);
  });

  test('an explicit code is never mapped', () => {
    const perCall = { exceptionMapper: new Map<any, string>([[CodedError, 'MAPPED']]) };
    assert.equal(resolveErrorCode(new CodedError('RATE_LIMITED'), perCall), 'RATE_LIMITED');
    assert.equal(resolveErrorCode(Object.assign(new Error('x'), { errorCode: 'DEADLOCK' }), perCall), 'DEADLOCK');
    assert.equal(resolveErrorCode('a string', perCall), UNHANDLED_EXCEPTION);
  });

  test('mapper codes are validated', () => {
    assert.throws(() => setGlobalExceptionMapper({ exceptionMapper: [[TimeoutError, 'TimeoutError']] }),
      /exceptionMapper\[0\]\[1\] must be an UPPER_SNAKE_CASE error code/);
    assert.throws(() => setGlobalExceptionMapper({ defaultUnhandledErrorCode: 'oops' }), /defaultUnhandledErrorCode must be an UPPER_SNAKE_CASE/);
  });
});
