import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Worker } from '../../src/worker/index.ts';
import * as activities from '../fixtures/crash/activities.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { ManualClock } from '../../src/retry/clock.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/crash/workflows.ts', import.meta.url));

// Regression: a worker without the run in its cache fetched only the stored history for a
// retried workflow task, whose own Scheduled/Started events are transient (sent in the task,
// stored on completion), so every retry failed with "history ended before workflow task".
fixtureTest('a retried workflow task is replayed from stored history plus the task\'s transient events', { timeout: 30_000 }, async (f) => {
  const env = await f.env();
  const handle = await env.client.workflow.start('timerThenActivity', { taskQueue: 'transient', workflowId: 'transient-1', args: [21] });
  const first = await Worker.create({ address: env.address, taskQueue: 'transient', workflowsPath, activities });
  // The first worker runs the first workflow task (StartTimer) and stops.
  await first.runUntil(async () => {
    for (let i = 0; i < 200 && (await handle.describe()).historyLength < 5; i++) await new Promise((r) => setTimeout(r, 10));
  });
  await env.sleep('150ms');
  // A worker that vanishes takes the next task and never answers: the task times out and is retried.
  const lost = await env.connection.pollWorkflowTaskQueue({ taskQueue: 'transient', identity: 'vanishing' });
  assert.ok(lost);
  // The clock moves by hand: env.sleep, as Temporal's test server, would first wait (10 s of real
  // time) for the task handed out to be answered or to time out.
  assert.ok(env.clock instanceof ManualClock);
  await env.clock.advance(10_000);
  const fresh = await Worker.create({ address: env.address, taskQueue: 'transient', workflowsPath, activities });
  assert.equal(await fresh.runUntil(handle.result()), 42);
  const types = (await handle.fetchHistory()).events.map((e) => e.eventType);
  assert.ok(types.includes('WorkflowTaskTimedOut'));
  // At least once: the retried task's; a later task may replay again when the run's cached state
  // went stale meanwhile (the test clock stands still while the activity takes real time).
  assert.ok(fresh.workflowStats.replays >= 1, `the fresh worker replayed the run from history (${fresh.workflowStats.replays} replays)`);
});
