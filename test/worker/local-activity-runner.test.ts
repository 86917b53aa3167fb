import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../src/retry/clock.ts';
import { LocalActivityRunner } from '../../src/worker/local-activity-runner.ts';
import type { LocalActivityRequest } from '../../src/workflow/local-activity-types.ts';
import { silentLogger } from '../helpers/logger.ts';

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
