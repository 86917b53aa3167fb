import assert from 'node:assert/strict';
import type { PostgresStore } from '../../src/store/index.ts';
import { StoreConflictError } from '../../src/store/errors.ts';
import type { ExecutionRecord } from '../../src/store/types.ts';
import { pgSkipReason } from '../store/pg-helpers.ts';
import { assertContiguous, cmd } from './helpers.ts';
import { twoServerTest } from './two-servers.ts';

const skip = await pgSkipReason('the PostgreSQL row cache tests');

/**
 * Makes the store's next `cachedExecution` of `runId` answer `stale`, as it does between
 * another server's commit and the arrival of that server's NOTIFY.
 */
function staleOnce(store: PostgresStore, runId: string, stale: ExecutionRecord): void {
  const real = store.cachedExecution.bind(store);
  let used = false;
  store.cachedExecution = (id: string) => {
    if (id !== runId || used) return real(id);
    used = true;
    return stale;
  };
}

twoServerTest('postgres row cache: a row another server changed conflicts at commit and is read again; the cache drops it', skip, 'sf_cache', async (h) => {
  const [storeA, storeB] = h.stores as [PostgresStore, PostgresStore];
  const { runId } = await h.a.start('cache-conflict');
  const stale = storeA.cachedExecution(runId);
  assert.equal(stale?.version, 1, 'the server that started the run holds its row');
  await h.b.engine.signalWorkflowExecution({ workflowId: 'cache-conflict', runId, signalName: 'from-b', args: [1] });
  assert.equal((await storeB.getExecution(runId))?.version, 2);

  // The store itself: a transition built on the stale row loses, and the row is no longer cached.
  const next = { ...stale!, version: 2, nextEventId: stale!.nextEventId };
  await assert.rejects(storeA.commit({ executions: [{ record: next, expectedVersion: 1, events: [] }] }),
    (err: unknown) => err instanceof StoreConflictError && err.reason === 'version');
  assert.equal(storeA.cachedExecution(runId), undefined, 'a conflict drops the cached row');

  // The engine: A's next transition starts from the stale row, conflicts, re-reads, and keeps B's signal.
  staleOnce(storeA, runId, stale!);
  await h.a.engine.signalWorkflowExecution({ workflowId: 'cache-conflict', runId, signalName: 'from-a', args: [2] });
  const events = (await h.a.engine.getWorkflowExecutionHistory({ workflowId: 'cache-conflict', runId })).events;
  assertContiguous(events);
  assert.deepEqual(events.filter((e) => e.eventType === 'WorkflowExecutionSignaled').map((e) => (e.attributes as { signalName: string }).signalName),
    ['from-b', 'from-a']);
  assert.equal((await storeB.getExecution(runId))?.version, 3);
});

twoServerTest('postgres row cache: a task a stale cached row does not list is started from the stored row, not dropped', skip, 'sf_cache', async (h) => {
  const [storeA] = h.stores as [PostgresStore, PostgresStore];
  const { runId } = await h.a.start('cache-task');
  const first = await h.a.pollWorkflow();
  await h.a.engine.respondWorkflowTaskCompleted({ taskToken: first.taskToken, identity: 'w', commands: [cmd.timer('t', 60_000)] });
  const stale = storeA.cachedExecution(runId);
  assert.equal(stale?.nextEventId, 6, 'A holds the run with its timer started and no workflow task pending');

  // B's signal schedules a workflow task (a task row: no poll waits on B); A's stale row does not list it.
  await h.b.engine.signalWorkflowExecution({ workflowId: 'cache-task', runId, signalName: 'go', args: [] });
  staleOnce(storeA, runId, stale!);
  const second = await h.a.pollWorkflow();
  assert.equal(second.runId, runId);
  assert.ok(second.history.some((e) => e.eventType === 'WorkflowExecutionSignaled'), 'the task shows the signal B recorded');
  await h.a.engine.respondWorkflowTaskCompleted({ taskToken: second.taskToken, identity: 'w', commands: [cmd.complete('done')] });
  const events = (await h.b.engine.getWorkflowExecutionHistory({ workflowId: 'cache-task', runId })).events;
  assertContiguous(events);
  assert.equal(events.at(-1)?.eventType, 'WorkflowExecutionCompleted');
});

twoServerTest('postgres row cache: a refusal decided on a stale cached row is decided again on the stored row', skip, 'sf_cache', async (h) => {
  const [storeA] = h.stores as [PostgresStore, PostgresStore];
  const { runId } = await h.a.start('cache-refusal');
  const stale = storeA.cachedExecution(runId);
  // B completes the first workflow task with an activity; A's cached row predates it.
  const wt = await h.b.pollWorkflow();
  await h.b.engine.respondWorkflowTaskCompleted({ taskToken: wt.taskToken, identity: 'w', commands: [cmd.activity('a1')] });
  const act = await h.b.pollActivity();
  // A's stale row has no activity a1: answering the completion from it would refuse it (no longer pending).
  staleOnce(storeA, runId, stale!);
  await h.a.engine.respondActivityTaskCompleted({ taskToken: act.taskToken, identity: 'w', result: 'ok' });
  const events = (await h.a.engine.getWorkflowExecutionHistory({ workflowId: 'cache-refusal', runId })).events;
  assertContiguous(events);
  assert.ok(events.some((e) => e.eventType === 'ActivityTaskCompleted'), 'the completion was recorded');
});

twoServerTest('postgres row cache: a result wait on a run this server holds ends when another server closes it', skip, 'sf_cache', async (h) => {
  const [storeA] = h.stores as [PostgresStore, PostgresStore];
  const { runId } = await h.a.start('cache-wait');
  assert.equal(storeA.cachedExecution(runId)?.status, 'Running');
  const waiting = h.a.engine.getWorkflowExecutionHistory({
    workflowId: 'cache-wait', runId, closeEventOnly: true, waitForClose: true, waitTimeoutMs: 10_000,
  });
  const wt = await h.b.pollWorkflow();
  await h.b.engine.respondWorkflowTaskCompleted({ taskToken: wt.taskToken, identity: 'w', commands: [cmd.complete('from-b')] });
  const { events } = await waiting;
  assert.equal(events[0]?.eventType, 'WorkflowExecutionCompleted');
  assert.equal(storeA.cachedExecution(runId), undefined, "B's NOTIFY dropped A's row");
  // With no wait, "still running" is never answered from a cached row.
  const { runId: other } = await h.a.start('cache-nowait');
  const stale = storeA.cachedExecution(other)!;
  const wt2 = await h.b.pollWorkflow();
  await h.b.engine.respondWorkflowTaskCompleted({ taskToken: wt2.taskToken, identity: 'w', commands: [cmd.complete('done')] });
  staleOnce(storeA, other, stale);
  const now = await h.a.engine.getWorkflowExecutionHistory({ workflowId: 'cache-nowait', runId: other, closeEventOnly: true, waitForClose: true, waitTimeoutMs: 0 });
  assert.equal(now.events[0]?.eventType, 'WorkflowExecutionCompleted');
});

twoServerTest('postgres start: a start that assumed its workflow id unused reads the runs and applies the request id and the reuse policy', skip, 'sf_cache', async (h) => {
  const first = await h.a.start('reuse', { requestId: 'req-1' });
  assert.deepEqual(await h.b.start('reuse', { requestId: 'req-1' }), { runId: first.runId, started: false }, 'a repeated request answers the run it started');
  await assert.rejects(h.b.start('reuse'), (err: Error) => err.name === 'WorkflowExecutionAlreadyStartedError');
  const wt = await h.a.pollWorkflow();
  await h.a.engine.respondWorkflowTaskCompleted({ taskToken: wt.taskToken, identity: 'w', commands: [cmd.complete(1)] });
  await assert.rejects(h.b.start('reuse', { workflowIdReusePolicy: 'RejectDuplicate' }), (err: Error) => err.name === 'WorkflowExecutionAlreadyStartedError');
  const second = await h.b.start('reuse');
  assert.notEqual(second.runId, first.runId);
  assert.equal((await h.a.store.getLatestExecution('default', 'reuse'))?.runId, second.runId);
});
