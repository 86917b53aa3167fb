import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Worker } from '../../src/worker/index.ts';
import type { WorkflowService } from '../../src/protocol/index.ts';
import { onWorkflowPolls } from '../helpers/workflow-polls.ts';
import * as activities from '../fixtures/workflows/fan-out-activities.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { silentLogger } from '../helpers/logger.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/fan-out.ts', import.meta.url));

/** The service, with the event before the last (its WorkflowTaskScheduled) cut out of the first task after the first. */
function cuttingOneTask(service: WorkflowService): { service: WorkflowService; cut: () => number | undefined } {
  let cutEventId: number | undefined;
  const wrapped = onWorkflowPolls(service, (task) => {
    if (cutEventId !== undefined || task.previousStartedEventId <= 0 || task.history.length < 3) return task;
    cutEventId = task.history.at(-2)!.eventId;
    return { ...task, history: task.history.filter((e) => e.eventId !== cutEventId) };
  });
  return { service: wrapped, cut: () => cutEventId };
}

fixtureTest('a task whose history does not line up with the cached run replays the run from stored history instead of failing the task', async (f) => {
  const env = await f.env();
  const { service, cut } = cuttingOneTask(env.connection);
  const worker = await Worker.create({ connection: service, taskQueue: 'mismatch', workflowsPath, activities, logger: silentLogger });
  const handle = await env.client.workflow.start('sleepsInTurn', { taskQueue: 'mismatch', workflowId: 'mismatch-1', args: [4] });
  assert.equal(await worker.runUntil(handle.result()), 4);
  assert.ok(cut() !== undefined, 'a task had an event cut out');
  const types = (await handle.fetchHistory()).events.map((e) => e.eventType);
  assert.ok(!types.includes('WorkflowTaskFailed'), `no task failed: ${types.join(',')}`);
  assert.equal(worker.workflowStats.replays, 2, 'the first task and the mismatched one were replayed from history');
});
