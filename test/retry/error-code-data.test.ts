import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RetryPolicy, RetryError, Backoff, resolveErrorCodeOf, resolvePolicyData, retry, CodedError, ValidationError,
} from '../../src/retry/index.ts';

/**
 * An engine activity's exception mapper is written in the workflow, where its classes are other
 * copies, so it travels as data keyed by class name; the one resolution function reads both.
 */
class TimeoutError extends Error {}
class Other extends Error {}

describe('exception mappers as data (class names)', () => {
  test("the seed's order over names and classes: task map, global map, task default, global default", () => {
    const task = { exceptionNames: new Map([['TimeoutError', 'TIMEOUT']]), defaultUnhandledErrorCode: 'TASK_DEFAULT' };
    const global = { exceptionMapper: new Map([[TimeoutError, 'GLOBAL_TIMEOUT'], [RangeError, 'OUT_OF_RANGE']]), defaultUnhandledErrorCode: 'GLOBAL_DEFAULT' };
    assert.deepEqual(resolveErrorCodeOf(new TimeoutError('t'), task, global), { code: 'TIMEOUT', source: 'mapper' });
    assert.deepEqual(resolveErrorCodeOf(new RangeError('r'), task, global), { code: 'OUT_OF_RANGE', source: 'mapper' });
    assert.deepEqual(resolveErrorCodeOf(new Other('o'), task, global), { code: 'TASK_DEFAULT', source: 'default' });
    assert.deepEqual(resolveErrorCodeOf(new Other('o'), {}, global), { code: 'GLOBAL_DEFAULT', source: 'default' });
    assert.deepEqual(resolveErrorCodeOf(new Other('o'), {}, {}), { code: 'UNHANDLED_EXCEPTION', source: 'unhandled' });
    assert.deepEqual(resolveErrorCodeOf(new CodedError('RATE_LIMITED'), task, global), { code: 'RATE_LIMITED', source: 'explicit' });
    class SubTimeout extends TimeoutError {}
    assert.equal(resolveErrorCodeOf(new SubTimeout('s'), task, {}).code, 'TASK_DEFAULT', 'exact class only: a subclass is not mapped');
  });

  test('a policy carrying errorCodes feeds retry() as the per-call level', async () => {
    const data = { ...resolvePolicyData(RetryPolicy.fixed(['0s', '0s'], { jitter: false, autoRetryFor: ['TIMEOUT'] })),
      errorCodes: { exceptionMapper: { TimeoutError: 'TIMEOUT' } } };
    let calls = 0;
    await assert.rejects(retry(() => {
      calls++;
      throw new TimeoutError('slow');
    }, { policy: resolvePolicyData(data) }), (err: unknown) => err instanceof RetryError && err.retryState === 'MaximumAttemptsReached');
    assert.equal(calls, 3);
    calls = 0;
    await assert.rejects(retry(() => {
      calls++;
      throw new Other('x');
    }, { policy: resolvePolicyData(data) }), (err: unknown) => err instanceof RetryError && err.retryState === 'NonRetryableFailure');
    assert.equal(calls, 1);
  });

  test('bad errorCodes data is refused naming the field', () => {
    const base = resolvePolicyData(Backoff.constant(10, 1));
    assert.throws(() => resolvePolicyData({ ...base, errorCodes: { exceptionMapper: { TimeoutError: 'timeout' } } } as never, 'retryPolicy'),
      (err: unknown) => err instanceof ValidationError && err.field === 'retryPolicy.errorCodes.exceptionMapper.TimeoutError');
    assert.throws(() => resolvePolicyData({ ...resolvePolicyData({ maximumAttempts: 2 }), errorCodes: { mapper: {} } } as never, 'retryPolicy'),
      (err: unknown) => err instanceof ValidationError && err.field === 'retryPolicy.errorCodes.mapper');
  });
});
