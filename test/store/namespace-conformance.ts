import assert from 'node:assert/strict';
import { NamespaceNotFoundError } from '../../src/common/errors.ts';
import { StoreConflictError } from '../../src/store/errors.ts';
import type { ExecutionRecord, NamespaceRecord, Store } from '../../src/store/types.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import { storeTest, type StoreFactory } from './conformance.ts';

const DAY = 86_400_000;
let counter = 0;

function ns(name: string, overrides: Partial<NamespaceRecord> = {}): NamespaceRecord {
  return { name, description: '', retentionMs: 7 * DAY, state: 'Registered', createTime: 1000, updateTime: 1000, ...overrides };
}

/** A run of `namespace` with two events, a task and a timer; closed at `closeTime` when given. */
async function run(store: Store, namespace: string, closeTime?: number): Promise<string> {
  const runId = `run-${process.pid}-${++counter}`;
  const rec: ExecutionRecord = {
    namespace, workflowId: `wf-${counter}`, runId, workflowType: 'order', taskQueue: 'q', status: closeTime === undefined ? 'Running' : 'Completed',
    startTime: 1000, executionTime: 1000, nextEventId: 3, attempt: 1, firstExecutionRunId: runId, originalExecutionRunId: runId,
    version: 1, state: {}, ...(closeTime !== undefined ? { closeTime } : {}),
  };
  const events: HistoryEvent[] = [1, 2].map((eventId) => ({
    eventId, eventType: 'WorkflowTaskScheduled', eventTime: new Date(1000).toISOString(), attributes: { taskQueue: 'q', startToCloseTimeoutMs: 10, attempt: 1 },
  }));
  await store.commit({
    executions: [{ record: rec, events }],
    createTasks: [{ id: `task-${runId}`, namespace, taskQueue: 'q', kind: 'workflow', runId, visibleAt: 1000, data: {} }],
    createTimers: [{ id: `timer-${runId}`, namespace, runId, kind: 'UserTimer', dueAt: 10 * DAY * 1000, data: { timerId: 't' } }],
  });
  return runId;
}

/** Whether anything of the run is left: its row, its history, its visibility row. */
async function present(store: Store, runId: string, namespace: string): Promise<boolean> {
  const row = await store.getExecution(runId);
  const history = await store.readHistory(runId, 1, 10);
  const { count } = await store.countExecutions({ namespace, query: `RunId = '${runId}'` });
  assert.ok(Boolean(row) === (history.length > 0) && Boolean(row) === (count === 1), `run ${runId} is wholly there or wholly gone`);
  return Boolean(row);
}

/** The namespace and retention contract, run against both stores. */
export function registerNamespaceConformance(name: string, factory: StoreFactory, options: { skip?: string | false } = {}): void {
  const t = storeTest(name, factory, options);

  t('namespaces: default exists from the start; create, get, list, update; a taken name is a conflict', async (store) => {
    const def = await store.getNamespace('default');
    assert.equal(def?.retentionMs, 3 * DAY);
    assert.equal(def?.state, 'Registered');
    await store.createNamespace(ns('orders', { ownerEmail: 'ops@example.com', description: 'orders' }));
    await assert.rejects(store.createNamespace(ns('orders')), (e) => e instanceof StoreConflictError && e.reason === 'namespaceExists');
    assert.deepEqual(await store.getNamespace('orders'), ns('orders', { ownerEmail: 'ops@example.com', description: 'orders' }));
    await store.createNamespace(ns('billing'));
    assert.deepEqual((await store.listNamespaces(undefined, 10)).map((n) => n.name), ['billing', 'default', 'orders']);
    assert.deepEqual((await store.listNamespaces('billing', 1)).map((n) => n.name), ['default']);
    const updated = await store.updateNamespace('orders', { retentionMs: DAY }, 5000);
    assert.deepEqual(updated, ns('orders', { ownerEmail: 'ops@example.com', description: 'orders', retentionMs: DAY, updateTime: 5000 }));
    assert.equal(await store.updateNamespace('nowhere', { retentionMs: DAY }, 5000), undefined);
    assert.equal(await store.getNamespace('nowhere'), undefined);
  });

  t('deleteClosedRuns: exactly the runs closed before the cutoff, oldest first, in batches, with every row keyed by them', async (store) => {
    await store.createNamespace(ns('other'));
    const expired = [await run(store, 'default', 100), await run(store, 'default', 200), await run(store, 'default', 300)];
    const kept = [await run(store, 'default', 5000), await run(store, 'default'), await run(store, 'other', 100)];
    assert.deepEqual(await store.deleteClosedRuns('default', 1000, 2), expired.slice(0, 2));
    assert.deepEqual(await store.deleteClosedRuns('default', 1000, 2), expired.slice(2));
    assert.deepEqual(await store.deleteClosedRuns('default', 1000, 2), []);
    for (const id of expired) assert.equal(await present(store, id, 'default'), false);
    assert.equal(await present(store, kept[0]!, 'default'), true);
    assert.equal(await present(store, kept[1]!, 'default'), true);
    assert.equal(await present(store, kept[2]!, 'other'), true);
    // The tasks and timers of the deleted runs went with them; the kept runs' are still claimable.
    const claimed = await store.claimTasks({ namespace: 'default', taskQueue: 'q', kind: 'workflow', now: 2000, leaseMs: 1000, owner: 'o' }, 100);
    assert.deepEqual(claimed.map((k) => k.runId).sort(), kept.slice(0, 2).sort());
    const timers = await store.claimDueTimers({ now: 10 * DAY * 1000, limit: 100, leaseMs: 1000, owner: 'o' });
    assert.deepEqual(timers.map((k) => k.runId).sort(), kept.slice().sort());
    assert.deepEqual(await store.deleteClosedRuns('default', Number.MAX_SAFE_INTEGER, 100), [kept[0]], 'a running run is never taken');
  });

  t('markNamespaceDeleted and purgeNamespace: announced once; running and closed runs, then the rest and the row, in batches', async (store) => {
    await store.createNamespace(ns('doomed'));
    const doomed = [await run(store, 'doomed', 100), await run(store, 'doomed'), await run(store, 'doomed')];
    const other = await run(store, 'default');
    await store.createSearchAttribute('doomed', { name: 'Region', type: 'Keyword' });
    assert.deepEqual(await store.purgeNamespace('doomed', 10), { runIds: [], done: false }, 'a registered namespace is not purged');
    const heard: unknown[] = [];
    const stop = store.subscribe((n) => n.type === 'namespaceDeleted' && heard.push(n));
    try {
      assert.equal((await store.markNamespaceDeleted('doomed', 7000))?.state, 'Deleted');
      assert.equal(await store.markNamespaceDeleted('doomed', 8000), undefined, 'deleted once');
      assert.equal(await store.markNamespaceDeleted('nowhere', 8000), undefined);
    } finally {
      stop();
    }
    assert.deepEqual(heard, [{ type: 'namespaceDeleted', name: 'doomed' }]);
    assert.deepEqual(await store.getNamespace('doomed'), ns('doomed', { state: 'Deleted', updateTime: 7000 }));
    const first = await store.purgeNamespace('doomed', 2);
    assert.deepEqual([first.runIds.length, first.done], [2, false]);
    const second = await store.purgeNamespace('doomed', 2);
    assert.deepEqual([second.runIds.length, second.done], [1, true]);
    assert.deepEqual(new Set([...first.runIds, ...second.runIds]), new Set(doomed));
    for (const id of doomed) assert.equal(await present(store, id, 'doomed'), false);
    assert.equal(await store.getNamespace('doomed'), undefined, 'the row goes last');
    assert.deepEqual(await store.listSearchAttributes('doomed'), []);
    assert.deepEqual(await store.purgeNamespace('doomed', 2), { runIds: [], done: true });
    assert.equal(await present(store, other, 'default'), true);
    await store.createNamespace(ns('doomed'));
    assert.equal((await store.getNamespace('doomed'))?.state, 'Registered', 'the name is free again');
  });

  t('a run is inserted only into a registered namespace; a deleted one still takes changes to its runs until they are removed', async (store) => {
    const refused = (namespace: string) => (err: unknown) => err instanceof NamespaceNotFoundError && err.namespace === namespace;
    await assert.rejects(run(store, 'nowhere'), refused('nowhere'));
    await store.createNamespace(ns('closing'));
    await store.createSearchAttribute('closing', { name: 'Region', type: 'Keyword' });
    const before = await run(store, 'closing');
    await store.markNamespaceDeleted('closing', 7000);
    await assert.rejects(run(store, 'closing'), refused('closing'));
    // A run with custom search attributes is written by a transaction of its own on PostgreSQL, not the batch statement.
    const tagged = (await store.getExecution(before))!;
    const other = { ...tagged, runId: `${tagged.runId}-tagged`, workflowId: `${tagged.workflowId}-tagged`, searchAttributes: { Region: 'eu' }, nextEventId: 1, version: 1 };
    await assert.rejects(store.commit({ executions: [{ record: other, events: [] }] }), refused('closing'));
    // One refused insert leaves the other transitions of its batch to be written.
    const [lost, kept] = await Promise.allSettled([run(store, 'closing'), run(store, 'default')]);
    assert.ok(lost.status === 'rejected' && refused('closing')(lost.reason));
    assert.ok(kept.status === 'fulfilled' && (await present(store, kept.value, 'default')));
    const rec = (await store.getExecution(before))!;
    await store.commit({ executions: [{ record: { ...rec, status: 'Terminated', closeTime: 8000, nextEventId: 3, version: rec.version + 1 }, expectedVersion: rec.version, events: [] }] });
    assert.equal((await store.getExecution(before))?.status, 'Terminated');
    assert.deepEqual((await store.listExecutions({ namespace: 'closing', limit: 10 })).map((r) => r.runId), [before]);
  });

  t('deleteClosedRuns: concurrent sweeps delete each run once between them', async (store) => {
    const expired = new Set<string>();
    for (let i = 0; i < 60; i++) expired.add(await run(store, 'default', 100 + i));
    const running = await run(store, 'default');
    const sweep = async () => {
      const mine: string[] = [];
      for (;;) {
        const batch = await store.deleteClosedRuns('default', 1000, 7);
        mine.push(...batch);
        if (batch.length === 0) return mine;
      }
    };
    const all = (await Promise.all([sweep(), sweep(), sweep()])).flat();
    assert.equal(all.length, expired.size, 'no run is deleted (or counted) twice');
    assert.deepEqual(new Set(all), expired);
    assert.equal(await present(store, running, 'default'), true);
  });
}
