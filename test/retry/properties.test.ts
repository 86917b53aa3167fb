import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  Backoff, RetryPolicy, backoffDelays, resolveRetryPolicy, retryInterval, temporalSchedule, type BackoffSchedule,
} from '../../src/retry/index.ts';

const ms = fc.integer({ min: 0, max: 120_000 });
const count = fc.integer({ min: 0, max: 40 });
const seed = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const jitter = fc.oneof(fc.constant(false), fc.double({ min: 0, max: 1, noNaN: true }));
const polly = fc.record({ fastFirst: fc.boolean(), ceiling: ms, jitter }, { requiredKeys: ['fastFirst', 'jitter'] });

/** Any schedule any builder can make, with the bound its delays must respect. */
const schedules: fc.Arbitrary<{ schedule: BackoffSchedule; bound: number; retries: number }> = fc.oneof(
  fc.tuple(ms, count, polly).map(([d, n, o]) => ({ schedule: Backoff.constant(d, n, o), bound: o.ceiling ?? d * 2, retries: n })),
  fc.tuple(ms, count, fc.double({ min: 0, max: 10, noNaN: true }), polly)
    .map(([d, n, factor, o]) => ({ schedule: Backoff.linear(d, n, { ...o, factor }), bound: o.ceiling ?? Infinity, retries: n })),
  fc.tuple(ms, count, fc.double({ min: 1, max: 10, noNaN: true }), polly)
    .map(([d, n, factor, o]) => ({ schedule: Backoff.exponential(d, n, { ...o, factor }), bound: o.ceiling ?? Infinity, retries: n })),
  fc.tuple(ms, count, polly).map(([d, n, o]) => ({ schedule: Backoff.decorrelatedJitterV2(d, n, o), bound: o.ceiling ?? Infinity, retries: n })),
  fc.tuple(ms, ms, count, polly).map(([a, b, n, o]) => ({
    schedule: Backoff.awsDecorrelatedJitter(Math.min(a, b), Math.max(a, b), n, o), bound: o.ceiling ?? Math.max(a, b) * 2, retries: n,
  })),
  fc.tuple(fc.array(ms, { minLength: 1, maxLength: 20 }), jitter).map(([list, j]) => ({
    schedule: RetryPolicy.fixed(list, { jitter: j }), bound: Math.max(...list) * 1000 * 2, retries: list.length,
  })),
  fc.tuple(ms, fc.integer({ min: 1, max: 20 }), jitter).map(([base, n, j]) => ({
    schedule: RetryPolicy.exponential({ base, maxRetries: n, jitter: j }), bound: Infinity, retries: n,
  })),
  fc.tuple(fc.integer({ min: 1, max: 60_000 }), fc.double({ min: 1, max: 5, noNaN: true }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([initial, coefficient, extra, attempts, j]) => {
      const policy = resolveRetryPolicy({ initialInterval: initial, backoffCoefficient: coefficient, maximumInterval: initial * (1 + extra), maximumAttempts: attempts, jitter: j });
      return { schedule: temporalSchedule(policy), bound: policy.maximumIntervalMs, retries: attempts - 1 };
    }),
);

describe('backoff properties', () => {
  test('delays are whole, never negative, never above the maximum or ceiling, as many as asked', () => {
    fc.assert(fc.property(schedules, seed, ({ schedule, bound, retries }, s) => {
      const delays = backoffDelays(schedule, s);
      assert.equal(delays.length, retries);
      for (const d of delays) {
        assert.ok(Number.isInteger(d) && d >= 0, `delay ${d}`);
        assert.ok(d <= bound, `delay ${d} above ${bound}`);
        assert.ok(d <= schedule.capMs);
      }
      if (schedule.fastFirst && retries > 0) assert.equal(delays[0], 0);
    }), { numRuns: 400 });
  });

  test('the same seed gives the same sequence', () => {
    fc.assert(fc.property(schedules, seed, ({ schedule }, s) => {
      assert.deepEqual(backoffDelays(schedule, s), backoffDelays(schedule, s));
    }), { numRuns: 200 });
  });

  test('a count cuts the sequence without changing it', () => {
    fc.assert(fc.property(schedules, seed, fc.integer({ min: 0, max: 50 }), ({ schedule, retries }, s, n) => {
      const part = backoffDelays(schedule, s, n);
      assert.equal(part.length, Math.min(n, retries));
      assert.deepEqual(part, backoffDelays(schedule, s).slice(0, n));
    }), { numRuns: 200 });
  });

  test('Temporal interval never decreases without jitter and never exceeds the maximum', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 1, max: 4, noNaN: true }), fc.integer({ min: 0, max: 1000 }), (initial, coefficient, extra) => {
      const p = resolveRetryPolicy({ initialInterval: initial, backoffCoefficient: coefficient, maximumInterval: initial + extra * 37 });
      let prev = 0;
      for (let a = 1; a <= 60; a++) {
        const d = retryInterval(p, a);
        assert.ok(d >= prev && d <= p.maximumIntervalMs);
        prev = d;
      }
    }));
  });

  test('unlimited schedules need a count', () => {
    assert.throws(() => backoffDelays(temporalSchedule(resolveRetryPolicy({})), 0), /needs a count/);
    assert.equal(backoffDelays(temporalSchedule(resolveRetryPolicy({})), 0, 1000).length, 1000);
  });
});
