/**
 * Records the Temporal API replay corpus in test/histories/temporal-*.json, once. Run with
 * `npx tsx test/composition/record-temporal-histories.ts [name…]` only when a new history is
 * added, naming it: the stored files are what replay-corpus.test.ts checks today's code
 * against, so the others are not recorded again.
 */
import { writeFileSync } from 'node:fs';
import type { WorkflowHandle } from '../../src/client/index.ts';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import * as activities from '../fixtures/workflows/composition-activities.ts';
import { fixture, waitFor, waitForEvent } from './helpers.ts';

const WORKFLOWS = fixture('temporal-api.ts');
const env = await TestEnvironment.createTimeSkipping();
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);
const out = (name: string, events: unknown) =>
  writeFileSync(new URL(`../histories/temporal-${name}.json`, import.meta.url), `${JSON.stringify({ events }, null, 1)}\n`);

async function record(
  name: string, type: string, args: unknown[], drive?: (h: WorkflowHandle) => Promise<void>,
  o: { workflowsPath?: string; searchAttributes?: Record<string, string | boolean> } = {},
) {
  if (!wanted(name)) return;
  const taskQueue = `record-${name}`;
  const w = await Worker.create({ address: env.address, taskQueue, workflowsPath: o.workflowsPath ?? WORKFLOWS, activities });
  const h = await env.client.workflow.start(type, {
    taskQueue, workflowId: `record-${name}`, args, memo: { recorded: true }, ...(o.searchAttributes ? { searchAttributes: o.searchAttributes } : {}),
  });
  await w.runUntil(async () => {
    if (drive) await drive(h);
    await h.result().catch(() => undefined);
  });
  out(name, (await env.client.workflow.getHandle(h.workflowId, h.firstExecutionRunId).fetchHistory()).events);
}

const release = async (h: WorkflowHandle) => {
  await waitForEvent(h, 'WorkflowTaskCompleted');
  await h.signal('go', 'recorded');
};
const releaseAfterHeartbeat = async (h: WorkflowHandle) => {
  await waitFor('a heartbeat', async () => (await h.describe()).pendingActivities[0]?.lastHeartbeatTime);
  await h.signal('go', 'recorded');
};

await record('upsert-memo', 'memoFlow', [], release);
await record('cancel-try', 'cancelTypeFlow', ['TRY_CANCEL'], releaseAfterHeartbeat);
await record('cancel-wait', 'cancelTypeFlow', ['WAIT_CANCELLATION_COMPLETED'], releaseAfterHeartbeat);
await record('cancel-abandon', 'cancelTypeFlow', ['ABANDON'], releaseAfterHeartbeat);
if (wanted('external-cancel')) {
  const taskQueue = 'record-external-cancel';
  const w = await Worker.create({ address: env.address, taskQueue, workflowsPath: WORKFLOWS, activities });
  const target = await env.client.workflow.start('waitForever', { taskQueue, workflowId: 'record-external-target' });
  await w.runUntil(async () => {
    await waitForEvent(target, 'WorkflowTaskCompleted');
    await env.client.workflow.execute('cancelOther', { taskQueue, workflowId: 'record-external-cancel', args: [target.workflowId] });
    await target.result().catch(() => undefined);
  });
  out('external-cancel', (await env.client.workflow.getHandle('record-external-cancel').fetchHistory()).events);
}
await record('external-cancel-failed', 'cancelOther', ['record-nobody']);
await record('child-signal', 'parentSignalsChild', ['record-signalled-child', 'WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE']);
for (const [name, type] of [['CustomerId', 'Keyword'], ['Tags', 'KeywordList'], ['Amount', 'Int'], ['Due', 'Datetime'], ['Vip', 'Bool']] as const) {
  await env.client.searchAttributes.create({ name, type });
}
await record('upsert-search-attributes', 'upsertFlow', [], async (h) => {
  await waitForEvent(h, 'UpsertWorkflowSearchAttributes');
  await h.signal('go');
}, { workflowsPath: fixture('search-attributes.ts'), searchAttributes: { Vip: true } });
await env.teardown();
