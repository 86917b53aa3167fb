import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, CodedError, RetryError, retry, cadenceReason } from '../../src/retry/index.ts';
import { ApplicationFailure, TimeoutFailure } from '../../src/common/failure.ts';

/**
 * Regression: `cadenceInternal:Generic` and `cadenceInternal:Panic` in nonRetryableErrorTypes
 * matched nothing, so a policy ported from Cadence went on retrying errors its seed says stop:
 * "Error reason for panic error is cadenceInternal:Panic. Error reason for any other error is
 * cadenceInternal:Generic." In TypeScript a panic is a TypeError, RangeError, ReferenceError or
 * SyntaxError; a custom error is an ApplicationFailure or an error with a `type` of its own.
 */

/** How many attempts retry() makes on `fn` with three allowed and `types` non-retryable. */
async function attempts(types: string[], make: () => unknown): Promise<number> {
  let calls = 0;
  try {
    await retry(() => {
      calls++;
      throw make();
    }, { policy: Backoff.constant(0, 2), nonRetryableErrorTypes: types });
  } catch (err) {
    assert.ok(err instanceof RetryError);
  }
  return calls;
}

class CustomTyped extends Error {
  readonly type = 'Throttled';
}

describe("Cadence's error reasons in nonRetryableErrorTypes", () => {
  test('cadenceInternal:Panic stops on TypeError, RangeError, ReferenceError and SyntaxError, and only on them', async () => {
    for (const make of [() => new TypeError('x is undefined'), () => new RangeError('r'), () => new ReferenceError('y'), () => new SyntaxError('s')]) {
      assert.equal(await attempts(['cadenceInternal:Panic'], make), 1, make().name);
    }
    assert.equal(await attempts(['cadenceInternal:Panic'], () => new Error('plain')), 3);
    assert.equal(await attempts(['cadenceInternal:Panic'], () => ApplicationFailure.create({ message: 'custom', type: 'TypeError' })), 3,
      'a custom error is not a panic, whatever its type says');
  });

  test('cadenceInternal:Generic stops on any other error, not on panics, custom errors or timeouts', async () => {
    for (const make of [() => new Error('plain'), () => new (class Oops extends Error {})('sub'), () => 'a string', () => ({ some: 'object' }),
      () => new CodedError('RATE_LIMITED')]) {
      assert.equal(await attempts(['cadenceInternal:Generic'], make), 1, String(make()));
    }
    for (const make of [() => new TypeError('t'), () => ApplicationFailure.create({ message: 'c', type: 'CardDeclined' }),
      () => ApplicationFailure.retryable('untyped'), () => new CustomTyped('own type'), () => new TimeoutFailure('late', 'StartToClose')]) {
      assert.equal(await attempts(['cadenceInternal:Generic'], make), 3, String(make()));
    }
  });

  test('the classification is one pure function of the failure', () => {
    assert.equal(cadenceReason({ kind: 'Application', type: 'TypeError', typeFromClass: true }), 'cadenceInternal:Panic');
    assert.equal(cadenceReason({ kind: 'Application', type: 'Error', typeFromClass: true }), 'cadenceInternal:Generic');
    assert.equal(cadenceReason({ kind: 'Application', type: 'TypeError' }), undefined);
    assert.equal(cadenceReason({ kind: 'Timeout', type: 'StartToCloseTimeout' }), undefined);
  });
});
