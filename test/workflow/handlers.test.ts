/**
 * Handler features as Temporal's docs use them: allHandlersFinished(), unfinishedPolicy and its
 * warning through the workflow log, default signal/query/update handlers, Trigger and
 * currentUpdateInfo().
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '../../src/testing/index.ts';
import { Worker, DefaultLogger, type LogEntry } from '../../src/worker/index.ts';
import { WorkflowUpdateStage } from '../../src/client/index.ts';
import {
  continuingWithHandler, defaultsWorkflow, doWork, doWorkQuietly, finish, handlersWorkflow, seenQuery, slowSignal, triggerWorkflow,
} from '../fixtures/workflows/handlers.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/handlers.ts', import.meta.url));
let env: TestWorkflowEnvironment;
let n = 0;

before(async () => {
  env = await TestWorkflowEnvironment.createLocal();
});
after(async () => {
  await env.teardown();
});

/** Runs `fn` with a worker on a queue of its own; returns the workflow log lines the worker logged. */
async function withWorker<T>(fn: (taskQueue: string) => Promise<T>): Promise<{ result: T; entries: LogEntry[] }> {
  const entries: LogEntry[] = [];
  const taskQueue = `handlers-${++n}`;
  const worker = await Worker.create({
    address: env.address, taskQueue, workflowsPath, logger: new DefaultLogger('DEBUG', (e) => entries.push(e)),
  });
  const result = await worker.runUntil(fn(taskQueue));
  return { result, entries: entries.filter((e) => e.meta?.sdkComponent === 'workflow') };
}

test('condition(allHandlersFinished) lets a running update handler finish; currentUpdateInfo() names it across awaits, undefined elsewhere', async () => {
  const { result, entries } = await withWorker(async (taskQueue) => {
    const handle = await env.client.workflow.start(handlersWorkflow, { taskQueue, workflowId: `${taskQueue}-wf`, args: [true] });
    const update = await handle.startUpdate(doWork, { args: ['x'], waitForStage: WorkflowUpdateStage.ACCEPTED, updateId: 'upd-1' });
    await handle.signal(finish);
    const updateResult = await update.result();
    return { updateResult, seen: await handle.result(), queried: null as unknown };
  });
  assert.equal(result.updateResult, 'doWork:upd-1');
  assert.deepEqual(result.seen, ['update doWork true x']);
  assert.deepEqual(entries.filter((e) => e.level === 'WARN'), []);
});

test('a run that completes with a signal handler running warns once through the worker logger; an ABANDON update handler does not', async () => {
  const { result, entries } = await withWorker(async (taskQueue) => {
    const handle = await env.client.workflow.start(handlersWorkflow, { taskQueue, workflowId: `${taskQueue}-wf`, args: [false] });
    await handle.signal(slowSignal, 'late');
    await handle.startUpdate(doWorkQuietly, { args: ['q'], waitForStage: WorkflowUpdateStage.ACCEPTED });
    assert.deepEqual(await handle.query(seenQuery), ['outside update: true']);
    await handle.signal(finish);
    return handle.result();
  });
  assert.deepEqual(result, []);
  const warnings = entries.filter((e) => e.level === 'WARN');
  assert.equal(warnings.length, 1, warnings.map((w) => w.message).join('\n'));
  assert.match(warnings[0]!.message, /TMPRL1102.*completed while signal handlers were still running/);
  assert.deepEqual(warnings[0]!.meta?.signals, [{ name: 'slowSignal', count: 1 }]);
  assert.equal(warnings[0]!.meta?.workflowType, 'handlersWorkflow');
});

test('continuing as new with an update handler running warns, naming the update', async () => {
  const { entries } = await withWorker(async (taskQueue) => {
    const handle = await env.client.workflow.start(continuingWithHandler, { taskQueue, workflowId: `${taskQueue}-wf`, args: [0] });
    await handle.startUpdate(doWork, { args: ['x'], waitForStage: WorkflowUpdateStage.ACCEPTED, updateId: 'stuck' });
    await handle.signal(finish);
    // The next run waits for its own finish signal.
    const next = env.client.workflow.getHandle(handle.workflowId);
    for (let i = 0; i < 200 && (await next.describe()).runId === handle.firstExecutionRunId; i++) await new Promise((r) => setTimeout(r, 25));
    await next.signal(finish);
    return next.result();
  });
  const warnings = entries.filter((e) => e.level === 'WARN');
  assert.equal(warnings.length, 1, warnings.map((w) => w.message).join('\n'));
  assert.match(warnings[0]!.message, /continued as new while update handlers were still running/);
  assert.deepEqual(warnings[0]!.meta?.updates, [{ name: 'doWork', id: 'stuck' }]);
});

test('default signal, query and update handlers get the name, then the args; the default validator can reject', async () => {
  const { result } = await withWorker(async (taskQueue) => {
    const handle = await env.client.workflow.start(defaultsWorkflow, { taskQueue, workflowId: `${taskQueue}-wf` });
    await handle.signal('anything', 1, 'two');
    const updated = await handle.executeUpdate('someUpdate', { args: [3] });
    await assert.rejects(handle.executeUpdate('forbidden', { args: [] }), /forbidden update/);
    const queried = await handle.query('whatever', 'q');
    await handle.signal(finish);
    return { updated, queried, got: await handle.result() };
  });
  assert.equal(result.updated, 'someUpdate done');
  assert.equal(result.queried, 'query whatever ["q"] 2');
  assert.deepEqual(result.got, ['signal anything [1,"two"]', 'update someUpdate [3]']);
});

test('a Trigger resolves from a signal in Promise.race and rejects when its CancellationScope is cancelled', async () => {
  const { result } = await withWorker(async (taskQueue) => {
    const handle = await env.client.workflow.start(triggerWorkflow, { taskQueue, workflowId: `${taskQueue}-wf` });
    await handle.signal('go', 'went');
    return handle.result();
  });
  assert.deepEqual(result, ['went', 'cancelled with its scope']);
});
