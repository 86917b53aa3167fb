import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  resolveRetryPolicy, retryInterval, decideRetry, DEFAULT_RETRY_POLICY, backoffDelays, temporalSchedule,
  type RetryPolicyData,
} from '../../src/retry/index.ts';
import { rejects } from './rejects.ts';


describe('Temporal/Cadence retry policy', () => {
  test('defaults: 1 s, coefficient 2, maximum 100 × initial, unlimited attempts, no non-retryable types', () => {
    assert.deepEqual(resolveRetryPolicy(undefined), {
      initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 100_000, maximumAttempts: 0, nonRetryableErrorTypes: [],
    });
    assert.deepEqual(resolveRetryPolicy({}), DEFAULT_RETRY_POLICY);
    assert.ok(Object.isFrozen(DEFAULT_RETRY_POLICY));
    assert.equal(resolveRetryPolicy({ initialInterval: '3s' }).maximumIntervalMs, 300_000);
  });

  test('retry interval = min(initial × coefficient^retries, maximum)', () => {
    const p = resolveRetryPolicy({});
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((a) => retryInterval(p, a)),
      [1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 100_000, 100_000, 100_000]);
    const q = resolveRetryPolicy({ initialInterval: '500ms', backoffCoefficient: 3, maximumInterval: '10s' });
    assert.deepEqual([1, 2, 3, 4, 5].map((a) => retryInterval(q, a)), [500, 1500, 4500, 10_000, 10_000]);
    const flat = resolveRetryPolicy({ initialInterval: '2s', backoffCoefficient: 1 });
    assert.deepEqual([1, 2, 3].map((a) => retryInterval(flat, a)), [2000, 2000, 2000]);
  });

  test('the engine function and the shared schedule agree', () => {
    for (const policy of [resolveRetryPolicy({}), resolveRetryPolicy({ jitter: 0.3, seed: 9 }), resolveRetryPolicy({ backoffCoefficient: 1.7, maximumInterval: '9s' })]) {
      const viaSchedule = backoffDelays(temporalSchedule(policy), (policy.seed ?? 0) >>> 0, 12);
      assert.deepEqual(Array.from({ length: 12 }, (_, i) => retryInterval(policy, i + 1)), viaSchedule);
    }
  });

  test('Cadence sample policy: 1 s, coefficient 2, maximum = expiration = 10 min, 5 attempts', () => {
    const p = resolveRetryPolicy({
      initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10m', expirationInterval: '10m', maximumAttempts: 5,
    });
    assert.equal(p.expirationIntervalMs, 600_000);
    assert.deepEqual([1, 2, 3, 4].map((attempt) => decideRetry(p, { attempt })), [
      { retry: true, delayMs: 1000 }, { retry: true, delayMs: 2000 }, { retry: true, delayMs: 4000 }, { retry: true, delayMs: 8000 },
    ]);
    assert.deepEqual(decideRetry(p, { attempt: 5 }), { retry: false, retryState: 'MaximumAttemptsReached' });
  });

  test('maximumAttempts: 0 = unlimited, 1 = no retries, negative = error', () => {
    assert.deepEqual(decideRetry(resolveRetryPolicy({ maximumAttempts: 0 }), { attempt: 10_000 }), { retry: true, delayMs: 100_000 });
    assert.deepEqual(decideRetry(resolveRetryPolicy({ maximumAttempts: 1 }), { attempt: 1 }), { retry: false, retryState: 'MaximumAttemptsReached' });
    rejects(() => resolveRetryPolicy({ maximumAttempts: -1 }), 'retry.maximumAttempts must be >= 0 (0 = unlimited, 1 = no retries), got -1', 'retry.maximumAttempts');
    rejects(() => resolveRetryPolicy({ maximumAttempts: 1.5 }), 'retry.maximumAttempts must be an integer, got 1.5');
  });

  test('validation names the field, the rule and the value', () => {
    rejects(() => resolveRetryPolicy({ backoffCoefficient: 0.5 }), 'retry.backoffCoefficient must be >= 1, got 0.5');
    rejects(() => resolveRetryPolicy({ initialInterval: '2s', maximumInterval: '1s' }, 'activity.retry'),
      'activity.retry.maximumInterval must be >= initialInterval (2000ms), got "1s"', 'activity.retry.maximumInterval');
    rejects(() => resolveRetryPolicy({ initialInterval: 0 }), 'retry.initialInterval must be greater than 0, got 0');
    rejects(() => resolveRetryPolicy({ initialInterval: 'soon' as never }), /retry\.initialInterval is not a valid duration: "soon"/);
    rejects(() => resolveRetryPolicy({ jitter: 1.5 }), 'retry.jitter must be a fraction between 0 and 1, got 1.5');
    rejects(() => resolveRetryPolicy({ seed: 0.5 }), 'retry.seed must be an integer, got 0.5');
    rejects(() => resolveRetryPolicy({ nonRetryableErrorTypes: ['A', ''] }), 'retry.nonRetryableErrorTypes[1] must be a non-empty string, got ""');
    rejects(() => resolveRetryPolicy({ maximumAttempt: 3 } as never), /^retry\.maximumAttempt is not a retry policy field/);
    rejects(() => resolveRetryPolicy({ expirationInterval: 0 }), 'retry.expirationInterval must be greater than 0, got 0');
  });

  test('accepts the resolved form and re-validates it', () => {
    const data: RetryPolicyData = { initialIntervalMs: 200, backoffCoefficient: 1.5, maximumIntervalMs: 1000, maximumAttempts: 4, nonRetryableErrorTypes: ['Bad'], expirationIntervalMs: 5000, jitter: 0.1, seed: 3 };
    assert.deepEqual(resolveRetryPolicy(data), data);
    assert.deepEqual(resolveRetryPolicy(resolveRetryPolicy({ initialInterval: '1.5s' })), resolveRetryPolicy({ initialInterval: 1500 }));
    rejects(() => resolveRetryPolicy({ ...data, maximumIntervalMs: 100 }), 'retry.maximumIntervalMs must be >= initialIntervalMs (200ms), got 100');
    rejects(() => resolveRetryPolicy({ ...data, initialIntervalMs: '1s' } as never), 'retry.initialIntervalMs must be a number of milliseconds, got "1s"');
    rejects(() => resolveRetryPolicy({ ...data, initialInterval: 5 } as never), /^retry\.initialInterval is not a retry policy field/);
  });

  test('non-retryable failures: by flag and by type, before the attempt count', () => {
    const p = resolveRetryPolicy({ nonRetryableErrorTypes: ['CardDeclined'], maximumAttempts: 2 });
    assert.deepEqual(decideRetry(p, { attempt: 1, failure: { type: 'CardDeclined' } }), { retry: false, retryState: 'NonRetryableFailure' });
    assert.deepEqual(decideRetry(p, { attempt: 2, failure: { type: 'CardDeclined' } }), { retry: false, retryState: 'NonRetryableFailure' });
    assert.deepEqual(decideRetry(p, { attempt: 1, failure: { type: 'Other', nonRetryable: true } }), { retry: false, retryState: 'NonRetryableFailure' });
    assert.deepEqual(decideRetry(p, { attempt: 1, failure: { type: 'Other' } }), { retry: true, delayMs: 1000 });
  });

  test('nextRetryDelay replaces the interval for that retry only', () => {
    const p = resolveRetryPolicy({});
    assert.deepEqual(decideRetry(p, { attempt: 3, failure: { nextRetryDelayMs: 250 } }), { retry: true, delayMs: 250 });
    assert.deepEqual(decideRetry(p, { attempt: 3, failure: { nextRetryDelayMs: 0 } }), { retry: true, delayMs: 0 });
    assert.deepEqual(decideRetry(p, { attempt: 4, failure: {} }), { retry: true, delayMs: 8000 });
  });

  test('expirationInterval: no retry that would start after it', () => {
    const p = resolveRetryPolicy({ expirationInterval: '10s' });
    assert.deepEqual(decideRetry(p, { attempt: 1, elapsedMs: 8000 }), { retry: true, delayMs: 1000 });
    assert.deepEqual(decideRetry(p, { attempt: 1, elapsedMs: 9000 }), { retry: true, delayMs: 1000 });
    assert.deepEqual(decideRetry(p, { attempt: 2, elapsedMs: 8001 }), { retry: false, retryState: 'Timeout' });
  });

  test('jitter: within ±jitter, capped at the maximum, pure in (policy, attempt, seedKey)', () => {
    const p = resolveRetryPolicy({ jitter: 0.2, seed: 42 });
    const seen = new Set<number>();
    for (let attempt = 1; attempt <= 12; attempt++) {
      const base = Math.min(1000 * 2 ** (attempt - 1), 100_000);
      for (const key of ['a', 'b', 'c', 'd']) {
        const d = retryInterval(p, attempt, key);
        assert.ok(d >= Math.floor(base * 0.8) && d <= Math.min(base * 1.2, 100_000), `attempt ${attempt}: ${d}`);
        assert.equal(retryInterval({ ...p }, attempt, key), d);
        seen.add(d);
      }
    }
    assert.ok(seen.size > 30, 'different keys give different delays');
    assert.notDeepEqual([1, 2, 3].map((a) => retryInterval(p, a, 'x')), [1, 2, 3].map((a) => retryInterval({ ...p, seed: 43 }, a, 'x')));
  });
});
