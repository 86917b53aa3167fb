import { test, describe, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import {
  RetryPolicy, backoffDelays, backoffDelay, ValidationError, resolveErrorCode, setGlobalExceptionMapper, CodedError,
  UNHANDLED_EXCEPTION, isErrorCode, retry, RetryError, ManualClock, WORKER_CRASHED, decideRetry, resolvePolicyData,
} from '../../src/retry/index.ts';
import { flushMicrotasks } from '../../src/retry/clock.ts';

/** Runs `retry()` on a ManualClock, jumping to each pending sleep, and returns the attempts made and the outcome. */
async function runOnClock(errors: unknown[], options: Parameters<typeof retry>[1]): Promise<{ attempts: number; waits: number[]; error?: RetryError }> {
  const clock = new ManualClock(0);
  let attempts = 0;
  const waits: number[] = [];
  const run = retry(({ attempt }) => {
    attempts = attempt;
    if (attempt <= errors.length) throw errors[attempt - 1];
    return 'ok';
  }, { ...options, clock, onRetry: (e) => void waits.push(e.delayMs) });
  let settled = false;
  run.then(() => (settled = true), () => (settled = true));
  for (let i = 0; i < 1000 && !settled; i++) {
    await flushMicrotasks(50);
    const due = clock.nextDue();
    if (due !== undefined) await clock.set(due);
  }
  try {
    await run;
    return { attempts, waits };
  } catch (error) {
    assert.ok(error instanceof RetryError);
    return { attempts, waits, error };
  }
}

describe('horsies RetryPolicy', () => {
  test('numbers are seconds, as the seed writes them: fixed([60, 300, 900]) waits 1 min, 5 min, 15 min', () => {
    const p = RetryPolicy.fixed([60, 300, 900], { jitter: false });
    assert.deepEqual(backoffDelays(p, 0), [60_000, 300_000, 900_000]);
    assert.deepEqual(backoffDelays(RetryPolicy.fixed([1, 2, 5], { jitter: false }), 0), [1000, 2000, 5000]);
    assert.deepEqual(backoffDelays(RetryPolicy.exponential({ base: 30, maxRetries: 5, jitter: false }), 0), [30_000, 60_000, 120_000, 240_000, 480_000]);
    assert.deepEqual(backoffDelays(RetryPolicy.fixed([0.5, '2 minutes', '1h'], { jitter: false }), 0), [500, 120_000, 3_600_000], 'strings with units keep working');
    assert.deepEqual(backoffDelays(RetryPolicy.create({ intervals: [60, 300, 900], jitter: false }), 0), [60_000, 300_000, 900_000]);
  });

  test('a string without a unit is refused: it would mean milliseconds elsewhere', () => {
    assert.throws(() => RetryPolicy.fixed(['60' as never]),
      /^ValidationError: fixed\.intervals\[0\] must be a number of seconds or a string with a unit such as "60s" or "5m", got "60"$/);
    assert.throws(() => RetryPolicy.fixed([-1]), /fixed\.intervals\[0\] must be a finite number of seconds >= 0, got -1/);
    assert.throws(() => RetryPolicy.exponential({ base: 'soon' as never }), /exponential\.intervals\[0\] is not a valid duration: "soon"/);
  });

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
    assert.deepEqual(p.autoRetryFor, []);
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

describe('horsies autoRetryFor', () => {
  class TimeoutError extends Error {}
  afterEach(() => setGlobalExceptionMapper(undefined));

  test('under a horsies policy only failures whose code is listed are retried', async () => {
    const policy = RetryPolicy.fixed([1, 2, 5], { jitter: false, autoRetryFor: ['RATE_LIMITED', 'DEADLOCK'] });
    const retried = await runOnClock([new CodedError('RATE_LIMITED'), new CodedError('DEADLOCK')], { policy });
    assert.equal(retried.error, undefined);
    assert.equal(retried.attempts, 3);
    assert.deepEqual(retried.waits, [1000, 2000]);
    const other = await runOnClock([new CodedError('RATE_LIMITED'), new CodedError('PERMISSION_DENIED')], { policy });
    assert.equal(other.error?.retryState, 'NonRetryableFailure');
    assert.equal(other.attempts, 2);
    const unmapped = await runOnClock([new Error('plain')], { policy });
    assert.equal(unmapped.error?.retryState, 'NonRetryableFailure', 'a plain error has the code UNHANDLED_EXCEPTION, which is not listed');
    assert.equal(unmapped.attempts, 1);
  });

  test('no autoRetryFor: a horsies policy retries nothing, as in horsies; library codes can be listed', async () => {
    const none = await runOnClock([new Error('x')], { policy: RetryPolicy.fixed([1], { jitter: false }) });
    assert.equal(none.error?.retryState, 'NonRetryableFailure');
    assert.equal(none.attempts, 1);
    const unhandled = await runOnClock([new Error('x'), new TimeoutError('t')],
      { policy: RetryPolicy.fixed([1, 1], { jitter: false, autoRetryFor: [UNHANDLED_EXCEPTION] }) });
    assert.equal(unhandled.attempts, 3);
    setGlobalExceptionMapper({ exceptionMapper: [[TimeoutError, 'TIMEOUT']] });
    const mapped = await runOnClock([new TimeoutError('t')], { policy: RetryPolicy.exponential({ base: 1, jitter: false, autoRetryFor: ['TIMEOUT'] }) });
    assert.equal(mapped.attempts, 2, 'the global exception mapper gives the code');
    const fromCall = await runOnClock([new CodedError('RATE_LIMITED')], { policy: RetryPolicy.fixed([1], { jitter: false }), autoRetryFor: ['RATE_LIMITED'] });
    assert.equal(fromCall.attempts, 2, "retry()'s own autoRetryFor adds to the policy's");
  });

  test('autoRetryFor is validated: UPPER_SNAKE_CASE codes only', () => {
    assert.throws(() => RetryPolicy.fixed([1], { autoRetryFor: ['TimeoutError'] }), /fixed\.autoRetryFor\[0\] must be an UPPER_SNAKE_CASE error code/);
    assert.throws(() => RetryPolicy.exponential({ base: 1, autoRetryFor: 'RATE_LIMITED' as never }), /exponential\.autoRetryFor must be an array of error codes/);
  });

  test('the engine decision: a failure\'s errorCode against autoRetryFor; WORKER_CRASHED is a code like any other', () => {
    const data = resolvePolicyData(RetryPolicy.fixed([60, 300], { jitter: false, autoRetryFor: [WORKER_CRASHED] }));
    assert.deepEqual(decideRetry(data, { attempt: 1, failure: { type: 'StartToCloseTimeout', errorCode: WORKER_CRASHED } }), { retry: true, delayMs: 60_000 });
    assert.deepEqual(decideRetry(data, { attempt: 2, failure: { errorCode: WORKER_CRASHED } }), { retry: true, delayMs: 300_000 });
    assert.deepEqual(decideRetry(data, { attempt: 3, failure: { errorCode: WORKER_CRASHED } }), { retry: false, retryState: 'MaximumAttemptsReached' });
    assert.deepEqual(decideRetry(data, { attempt: 1, failure: { type: 'Error' } }), { retry: false, retryState: 'NonRetryableFailure' });
    assert.deepEqual(decideRetry(data, { attempt: 1, failure: { errorCode: 'RATE_LIMITED' } }), { retry: false, retryState: 'NonRetryableFailure' });
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

/** Type-level checks: `tsc --noEmit` fails if a line marked @ts-expect-error compiles. */
export function horsiesTypeChecks(): unknown[] {
  return [
    RetryPolicy.fixed([60, 300, 900]),
    RetryPolicy.fixed(['60s', '5 minutes', 900]),
    RetryPolicy.exponential({ base: 30 }),
    // @ts-expect-error a string without a unit would mean milliseconds elsewhere and seconds here
    RetryPolicy.fixed(['60']),
    // @ts-expect-error a malformed duration
    RetryPolicy.exponential({ base: '30 secs please' }),
  ];
}
