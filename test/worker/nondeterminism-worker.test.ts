import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Worker } from '../../src/worker/index.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { recordingLogger } from '../helpers/logger.ts';

const v1 = fileURLToPath(new URL('../fixtures/workflows/nondeterminism-v1.ts', import.meta.url));
const v2 = fileURLToPath(new URL('../fixtures/workflows/nondeterminism-v2.ts', import.meta.url));
const activities = { async greet(name: string) { return `hello ${name}`; } };

fixtureTest('the seed\'s reorder, deployed while a run sleeps, fails the workflow task with a non-determinism error; fixed code recovers it', { timeout: 60_000 }, async (f) => {
  const env = await f.env();
  const handle = await env.client.workflow.start('timerThenActivity', { taskQueue: 'nd', workflowId: 'nd-1', args: ['ada'] });
  // Version 1 runs the first workflow task: the timer starts.
  const first = await Worker.create({ address: env.address, taskQueue: 'nd', workflowsPath: v1, activities });
  await first.runUntil(async () => {
    for (let i = 0; i < 300 && !(await handle.fetchHistory()).events.some((e) => e.eventType === 'TimerStarted'); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  // Version 2 (activity first) is deployed; the timer fires and its worker replays the history.
  const logger = recordingLogger();
  const changed = await Worker.create({ address: env.address, taskQueue: 'nd', workflowsPath: v2, activities, logger });
  await changed.runUntil(async () => {
    await env.sleep('1m');
    for (let i = 0; i < 300 && !(await handle.fetchHistory()).events.some((e) => e.eventType === 'WorkflowTaskFailed'); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  const { events } = await handle.fetchHistory();
  const failed = events.find((e) => e.eventType === 'WorkflowTaskFailed');
  assert.ok(failed && failed.eventType === 'WorkflowTaskFailed', 'the workflow task failed');
  assert.equal(failed.attributes.cause, 'NonDeterminism');
  assert.match(failed.attributes.failure.message, /event 5/);
  assert.match(failed.attributes.failure.message, /TimerStarted/);
  assert.match(failed.attributes.failure.message, /ScheduleActivityTask/);
  assert.equal((await handle.describe()).status, 'Running', 'the workflow stays Running');
  assert.match(logger.lines[0]?.message ?? '', /^workflow task failed \(NonDeterminism\)/, 'the worker warned once, naming the cause');

  // The fix is deployed (version 1 again): the run recovers and completes.
  const fixed = await Worker.create({ address: env.address, taskQueue: 'nd', workflowsPath: v1, activities });
  assert.equal(await fixed.runUntil(handle.result()), 'hello ada');
});
