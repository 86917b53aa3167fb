import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../src/retry/clock.ts';
import { LocalActivityRunner } from '../../src/worker/local-activity-runner.ts';
import type { LocalActivityRequest } from '../../src/workflow/local-activity-types.ts';
import { silentLogger } from '../helpers/logger.ts';
import { waitFor } from '../helpers/wait.ts';

const run = { namespace: 'default', workflowId: 'w', runId: 'r', workflowType: 'wf', taskQueue: 'q' };
const request = (seq: number): LocalActivityRequest => ({
  seq, activityId: String(seq), activityType: 'counted', args: [seq], attempt: 1, originalScheduleTime: Date.now(), startToCloseTimeoutMs: 5_000,
  retryPolicy: { initialIntervalMs: 1, backoffCoefficient: 2, maximumIntervalMs: 10, maximumAttempts: 1, nonRetryableErrorTypes: [] },
  localRetryThresholdMs: 60_000,
});

test('a local activity that ended while no workflow task waited on it keeps its outcome for the next task, and runs once', async () => {
  let calls = 0;
  const runner = new LocalActivityRunner({
    activities: { counted: async (n: number) => `ran ${n} (${++calls})` }, clock: systemClock, logger: silentLogger, maxConcurrent: 4,
  });
  // The call ends between a heartbeat's completion and the next task: nobody takes its outcome yet.
  const first = await runner.start(run, request(1));
  assert.equal(first.result, 'ran 1 (1)');
  assert.deepEqual(runner.report(run), [], 'an ended call is not reported as running');
  // The next task asks for the same call: it gets that outcome, not a second run.
  assert.deepEqual(await runner.start(run, request(1)), first);
  assert.equal(calls, 1);
  // Once a task took it, the same seq starts anew (a worker that replays the run from its history).
  runner.taken(run, [1]);
  assert.equal((await runner.start(run, request(1))).result, 'ran 1 (2)');
  // An outcome the workflow no longer waits on (its scope was cancelled, the run closed) is dropped.
  runner.cancelExcept(run, new Set());
  assert.equal((await runner.start(run, request(1))).result, 'ran 1 (3)');
  // One the workflow still waits on stays.
  runner.cancelExcept(run, new Set([1]));
  assert.equal((await runner.start(run, request(1))).result, 'ran 1 (3)');
});

/** `p`, or a rejection once `ms` pass (a cancellation that never arrives fails the test instead of hanging it). */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

test('a call cancelled during its local retry backoff ends cancelled at once, with no further attempt', async () => {
  let attempts = 0;
  const runner = new LocalActivityRunner({
    activities: { counted: async () => { attempts++; throw new Error('boom'); } }, clock: systemClock, logger: silentLogger, maxConcurrent: 4,
  });
  // Retries wait 60 s here, under the 10-minute local threshold: the call sleeps in the worker.
  const call = runner.start(run, { ...request(1), localRetryThresholdMs: 600_000,
    retryPolicy: { initialIntervalMs: 60_000, backoffCoefficient: 1, maximumIntervalMs: 60_000, maximumAttempts: 0, nonRetryableErrorTypes: [] } });
  for (let i = 0; i < 500 && attempts === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(attempts, 1);
  runner.cancelExcept(run, new Set());
  const outcome = await within(10_000, call);
  assert.equal(outcome.failure?.retryState, 'CancelRequested');
  assert.equal(outcome.failure?.cause?.kind, 'Canceled');
  assert.equal(attempts, 1);
});

test('a call waiting for an execution slot is cancelled without running, and the slot goes to the next call', async () => {
  const started: number[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const runner = new LocalActivityRunner({
    activities: { counted: async (n: number) => { started.push(n); if (n === 1) await gate; return n; } }, clock: systemClock, logger: silentLogger, maxConcurrent: 1,
  });
  const first = runner.start(run, request(1));
  const second = runner.start(run, request(2));
  const third = runner.start(run, request(3));
  for (let i = 0; i < 500 && started.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  // The workflow waits on 1 and 3 only: 2, still waiting for the slot, is cancelled.
  runner.cancelExcept(run, new Set([1, 3]));
  const cancelled = (await within(10_000, second)).failure;
  assert.equal(cancelled?.retryState, 'CancelRequested');
  assert.equal(cancelled?.cause?.kind, 'Canceled');
  release();
  assert.equal((await first).result, 1);
  assert.equal((await third).result, 3);
  assert.deepEqual(started, [1, 3]);
});

test('a running call whose activity ignores its signal ends cancelled at once; with WAIT_CANCELLATION_COMPLETED it ends when the activity does', async () => {
  const started: number[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const runner = new LocalActivityRunner({
    activities: { counted: async (n: number) => { started.push(n); await gate; return n; } }, clock: systemClock, logger: silentLogger, maxConcurrent: 4,
  });
  const tryCancel = runner.start(run, request(1));
  let waitedSettled = false;
  const waited = runner.start(run, { ...request(2), cancellationType: 'WAIT_CANCELLATION_COMPLETED' }).finally(() => { waitedSettled = true; });
  await waitFor('both activities started', async () => started.length >= 2);
  assert.deepEqual(started.sort(), [1, 2]);
  runner.cancelExcept(run, new Set());
  // TRY_CANCEL: the call ends though its activity still runs.
  const cancelled = (await within(10_000, tryCancel)).failure;
  assert.equal(cancelled?.retryState, 'CancelRequested');
  assert.equal(cancelled?.cause?.kind, 'Canceled');
  assert.equal(waitedSettled, false, 'WAIT_CANCELLATION_COMPLETED waits for the activity');
  release();
  await within(10_000, waited);
});
