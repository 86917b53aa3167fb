import assert from 'node:assert/strict';
import { fixtureTest } from '../helpers/fixture.ts';
import { cmd, type Harness } from './helpers.ts';

/** Runs one activity (start-to-close 10 s, heartbeat 3 s, no retry) to its start-to-close timeout, heartbeating every 2 s when `heartbeats`; returns the timeout's failure. */
async function timedOut(h: Harness, id: string, heartbeats: boolean) {
  await h.start(id, { taskQueue: id });
  await h.complete(await h.pollWorkflow(id), [cmd.activity('a1', { startToCloseTimeoutMs: 10_000, heartbeatTimeoutMs: 3_000, retryPolicy: { initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 100_000, maximumAttempts: 1, nonRetryableErrorTypes: [] } })]);
  const task = await h.pollActivity(id);
  for (let t = 0; t < 10_000; t += 2_000) {
    if (heartbeats) await h.engine.recordActivityTaskHeartbeat({ taskToken: task.taskToken, identity: 'worker-1' });
    await h.advance(2_000);
  }
  await h.advance(1_000);
  const events = await h.history(id);
  const closed = events.find((e) => e.eventType === 'ActivityTaskTimedOut');
  assert.ok(closed, events.map((e) => e.eventType).join(','));
  return (closed.attributes as { failure: { timeoutType?: string; errorCode?: string } }).failure;
}

// horsies keeps WORKER_CRASHED for a worker that vanished; a live worker's attempt that ran past its start-to-close is a plain timeout.
fixtureTest('a start-to-close timeout of an attempt still heartbeating is not WORKER_CRASHED; one whose worker went silent is', async (f) => {
  const h = await f.engine();
  const alive = await timedOut(h, 'alive', true);
  assert.equal(alive.timeoutType, 'StartToClose');
  assert.equal(alive.errorCode, undefined);
  const silent = await timedOut(h, 'silent', false);
  assert.equal(silent.timeoutType, 'Heartbeat');
  assert.equal(silent.errorCode, 'WORKER_CRASHED');
});
