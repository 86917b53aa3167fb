import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  Backoff, RetryPolicy, backoffDelays, backoffInfo, decideRetry, isCurvePolicy, policyDelay, resolvePolicyData,
  resolveRetryPolicy, retryInterval, scheduleOf, mixSeed, type BackoffSchedule, type PolicyData,
} from '../../src/retry/index.ts';
import { rejects } from './rejects.ts';

/** Every curve of the seeds, as a workflow would write it. */
const SCHEDULES: Record<string, BackoffSchedule> = {
  horsiesFixed: RetryPolicy.fixed([60, 300, 900], { autoRetryFor: ['RATE_LIMITED'] }),
  horsiesExponential: RetryPolicy.exponential({ base: 30, maxRetries: 5, jitter: 0.1, seed: 9 }),
  constant: Backoff.constant('200ms', 5, { fastFirst: true }),
  linear: Backoff.linear('100ms', 5, { factor: 2 }),
  exponential: Backoff.exponential('100ms', 8, { factor: 4, ceiling: '10 seconds' }),
  decorrelatedJitter: Backoff.decorrelatedJitterV2('1 second', 6),
  awsJitter: Backoff.awsDecorrelatedJitter('10ms', '1 minute', 6, { seed: 100 }),
};

/** What a policy becomes after a trip through JSON, as in a history event. */
function wire(policy: PolicyData): PolicyData {
  return JSON.parse(JSON.stringify(policy)) as PolicyData;
}


describe('one policy model as data', () => {
  test('every curve survives JSON and computes the same delays as the schedule it came from', () => {
    for (const [name, schedule] of Object.entries(SCHEDULES)) {
      const data = wire(resolvePolicyData(schedule));
      assert.ok(isCurvePolicy(data), name);
      assert.deepEqual(resolvePolicyData(data), data, `${name}: the data form re-validates to itself`);
      const seed = mixSeed(data.seed ?? 0, 'run-1' + '7');
      const expected = backoffDelays(schedule, seed);
      assert.deepEqual(backoffDelays(scheduleOf(data), seed), expected, name);
      assert.deepEqual(expected.map((_, i) => policyDelay(data, i + 1, 'run-1' + '7')), expected, name);
    }
  });

  test('unbounded values are spelled the JSON way: 0 attempts = unlimited, no capMs = no ceiling', () => {
    const unlimited = resolvePolicyData({ ...Backoff.constant('1s', 3), maxRetries: Infinity });
    assert.equal(unlimited.maximumAttempts, 0);
    assert.ok(isCurvePolicy(unlimited) && !('capMs' in unlimited));
    assert.equal(scheduleOf(unlimited).maxRetries, Infinity);
    assert.equal(scheduleOf(unlimited).capMs, Infinity);
    assert.equal(resolvePolicyData(SCHEDULES.exponential!).maximumAttempts, 9);
  });

  test("Temporal's fields stay Temporal's data, with the same interval function", () => {
    const data = resolvePolicyData({ initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 4 });
    assert.ok(!isCurvePolicy(data));
    assert.deepEqual(data, resolveRetryPolicy({ initialInterval: 2000, maximumInterval: 60_000, maximumAttempts: 4 }));
    assert.deepEqual([1, 2, 3, 6].map((a) => policyDelay(data, a)), [1, 2, 3, 6].map((a) => retryInterval(data, a)));
  });

  test('wire data is validated, naming the field', () => {
    const good = resolvePolicyData(SCHEDULES.linear!) as unknown as Record<string, unknown>;
    rejects(() => resolvePolicyData({ ...good, version: 2 } as never, 'retryPolicy'), 'retryPolicy.version must be 1, got 2', 'retryPolicy.version');
    rejects(() => resolvePolicyData({ ...good, source: 'cockatiel' } as never), /^retry\.source must be one of temporal, horsies, polly/);
    rejects(() => resolvePolicyData({ ...good, maximumAttempts: -1 } as never), 'retry.maximumAttempts must be an integer >= 0 (0 = unlimited), got -1');
    rejects(() => resolvePolicyData({ ...good, capMs: null } as never), /^retry\.capMs must be a finite number of milliseconds/);
    rejects(() => resolvePolicyData({ ...good, retries: 3 } as never), /^retry\.retries is not a field of a curve policy/);
    rejects(() => resolvePolicyData({ ...good, curve: { kind: 'linear', initialMs: -5, factor: 1 } } as never), /^retry\.curve\.initialMs must be a finite number >= 0/);
    rejects(() => resolvePolicyData({ ...good, curve: { kind: 'zigzag' } } as never), /^retry\.curve\.kind must be one of/);
    rejects(() => resolvePolicyData({ ...good, autoRetryFor: ['rate-limited'] } as never), /^retry\.autoRetryFor\[0\] must be an UPPER_SNAKE_CASE error code/);
    rejects(() => resolvePolicyData({ ...good, nonRetryableErrorTypes: [''] } as never), 'retry.nonRetryableErrorTypes[0] must be a non-empty string, got ""');
    rejects(() => resolvePolicyData({ ...good, jitter: 2 } as never), 'retry.jitter must be a fraction between 0 and 1, got 2');
  });

  test('describe shows the curve in force, with a one-line summary', () => {
    assert.equal(backoffInfo(resolvePolicyData(undefined)).summary, 'temporal exponential, initial 1s × 2^(n−1), at most 1m 40s');
    assert.equal(backoffInfo(resolvePolicyData(SCHEDULES.horsiesFixed!)).summary, 'horsies fixed 1m, 5m, 15m, jitter ±25%, retries only RATE_LIMITED');
    assert.equal(backoffInfo(resolvePolicyData(SCHEDULES.exponential!)).summary, 'polly exponential, initial 100ms × 4^(n−1), at most 10s');
    assert.equal(backoffInfo(resolvePolicyData(SCHEDULES.constant!)).summary, 'polly constant 200ms, first retry at once');
    assert.equal(backoffInfo(resolvePolicyData(SCHEDULES.awsJitter!)).summary, 'polly AWS decorrelated jitter, 10ms..1m');
    const info = backoffInfo(resolvePolicyData(SCHEDULES.decorrelatedJitter!));
    assert.deepEqual({ ...info, summary: undefined }, {
      source: 'polly', curve: { kind: 'decorrelated-jitter', medianFirstRetryDelayMs: 1000 }, jitter: 0, fastFirst: false, summary: undefined,
    });
  });
});

describe('decideRetry for any policy', () => {
  test('a curve policy counts attempts and follows its curve; nextRetryDelay still wins', () => {
    const data = resolvePolicyData(Backoff.linear('1s', 2, { factor: 1 }));
    assert.deepEqual(decideRetry(data, { attempt: 1 }), { retry: true, delayMs: 1000 });
    assert.deepEqual(decideRetry(data, { attempt: 2 }), { retry: true, delayMs: 2000 });
    assert.deepEqual(decideRetry(data, { attempt: 3 }), { retry: false, retryState: 'MaximumAttemptsReached' });
    assert.deepEqual(decideRetry(data, { attempt: 1, failure: { nextRetryDelayMs: 5 } }), { retry: true, delayMs: 5 });
    assert.deepEqual(decideRetry(data, { attempt: 1, failure: { nonRetryable: true } }), { retry: false, retryState: 'NonRetryableFailure' });
  });

  test('timeout types are matched like failure types, also in Temporal\'s and Cadence\'s spellings', () => {
    const stop = { retry: false, retryState: 'NonRetryableFailure' } as const;
    const spellings: [string, string][] = [
      ['StartToCloseTimeout', 'StartToCloseTimeout'], ['StartToCloseTimeout', 'TemporalTimeout:StartToClose'],
      ['StartToCloseTimeout', 'cadenceInternal:Timeout START_TO_CLOSE'], ['HeartbeatTimeout', 'HeartbeatTimeout'],
      ['HeartbeatTimeout', 'TemporalTimeout:Heartbeat'], ['HeartbeatTimeout', 'cadenceInternal:Timeout HEARTBEAT'],
    ];
    for (const [type, listed] of spellings) {
      const policy = resolveRetryPolicy({ nonRetryableErrorTypes: [listed] });
      assert.deepEqual(decideRetry(policy, { attempt: 1, failure: { type } }), stop, `${type} stopped by ${listed}`);
    }
    const onlyHeartbeat = resolveRetryPolicy({ nonRetryableErrorTypes: ['cadenceInternal:Timeout HEARTBEAT'] });
    assert.deepEqual(decideRetry(onlyHeartbeat, { attempt: 1, failure: { type: 'StartToCloseTimeout' } }), { retry: true, delayMs: 1000 });
    assert.deepEqual(decideRetry(onlyHeartbeat, { attempt: 1, failure: { type: 'cadenceInternal:Timeout HEARTBEAT' } }), stop,
      'an application failure typed with the listed string itself is matched too');
  });
});
