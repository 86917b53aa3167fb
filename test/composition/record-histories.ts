/**
 * Records the composition replay corpus in test/histories/composition-*.json, once. Run with
 * `npx tsx test/composition/record-histories.ts` only when a new history is added: the stored
 * files are what replay-corpus.test.ts checks today's code against.
 */
import { writeFileSync } from 'node:fs';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import * as activities from '../fixtures/workflows/composition-activities.ts';
import { COMPOSITION, fixture, waitFor } from './helpers.ts';

const env = await TestEnvironment.createTimeSkipping();
const out = (name: string, events: unknown) =>
  writeFileSync(new URL(`../histories/composition-${name}.json`, import.meta.url), `${JSON.stringify({ events }, null, 1)}\n`);

async function record(name: string, workflowsPath: string, type: string, args: unknown[], drive?: (h: Awaited<ReturnType<typeof env.client.workflow.start>>) => Promise<void>) {
  const taskQueue = `record-${name}`;
  const w = await Worker.create({ address: env.address, taskQueue, workflowsPath, activities });
  const h = await env.client.workflow.start(type, { taskQueue, workflowId: `record-${name}`, args });
  await w.runUntil(async () => {
    if (drive) await drive(h);
    await h.result().catch(() => undefined);
  });
  out(name, (await env.client.workflow.getHandle(h.workflowId, h.firstExecutionRunId).fetchHistory()).events);
}

await record('side-effect', COMPOSITION, 'sideEffectFlow', []);
await record('patch-before', fixture('composition-v1.ts'), 'patchFlow', []);
await record('patched', COMPOSITION, 'patchFlow', []);
await record('deprecate-patch', fixture('composition-v3.ts'), 'patchFlow', []);
await record('child', COMPOSITION, 'parentFlow', ['ok', 'record-child-1']);
await record('continue-as-new', COMPOSITION, 'loopFlow', [1]);
await record('cancellation', COMPOSITION, 'cancellableFlow', [], async (h) => {
  await waitFor('a heartbeat', async () => (await h.describe()).pendingActivities[0]?.lastHeartbeatTime);
  await h.cancel('recorded');
});
{
  const taskQueue = 'record-reset';
  const w = await Worker.create({ address: env.address, taskQueue, workflowsPath: COMPOSITION, activities });
  const h = await env.client.workflow.start('resetSignalFlow', { taskQueue, workflowId: 'record-reset' });
  const runId = await w.runUntil(async () => {
    await waitFor('the timer', async () => (await h.fetchHistory()).events.some((e) => e.eventType === 'TimerStarted'));
    await h.signal('addItem', 'a');
    await waitFor('the signal', async () => (await h.fetchHistory()).events.filter((e) => e.eventType === 'WorkflowTaskCompleted').length === 2);
    const next = await h.reset({ type: 'FirstWorkflowTask', reason: 'recorded' });
    const fresh = env.client.workflow.getHandle('record-reset', next);
    await waitFor('the new timer', async () => (await fresh.fetchHistory()).events.some((e) => e.eventType === 'TimerStarted'));
    await fresh.signal('addItem', 'b');
    await fresh.result();
    return next;
  });
  out('reset', (await env.client.workflow.getHandle('record-reset', runId).fetchHistory()).events);
}
await env.teardown();
