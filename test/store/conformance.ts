import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreConflictError } from '../../src/store/errors.ts';
import type { ExecutionRecord, Store, StoreNotification, TaskRecord, TimerRecord, Transition } from '../../src/store/types.ts';
import type { HistoryEvent } from '../../src/history/events.ts';

/** Makes a fresh, empty store; `close` releases it. */
export type StoreFactory = () => Promise<{ store: Store; close(): Promise<void> }>;

/** A test of a contract: `${name}: ${title}` on a fresh store from `factory`, closed afterwards. */
export function storeTest(name: string, factory: StoreFactory, options: { skip?: string | false }) {
  return (title: string, fn: (store: Store) => Promise<void>) =>
    test(`${name}: ${title}`, { skip: options.skip ?? false }, async () => {
      const { store, close } = await factory();
      try {
        await fn(store);
      } finally {
        await close();
      }
    });
}

let counter = 0;
function uid(prefix: string): string {
  return `${prefix}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
}

function exec(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const runId = overrides.runId ?? uid('run');
  return {
    namespace: 'default', workflowId: uid('wf'), runId, workflowType: 'order', taskQueue: 'q', status: 'Running',
    startTime: 1000, executionTime: 1000, nextEventId: 1, attempt: 1, firstExecutionRunId: runId,
    originalExecutionRunId: runId, version: 1, state: { n: 0 }, ...overrides,
  };
}

function ev(eventId: number, type: 'WorkflowTaskScheduled' | 'TimerStarted' = 'WorkflowTaskScheduled'): HistoryEvent {
  return type === 'TimerStarted'
    ? { eventId, eventType: type, eventTime: new Date(1000).toISOString(), attributes: { timerId: 't', startToFireTimeoutMs: 5, workflowTaskCompletedEventId: 1 } }
    : { eventId, eventType: type, eventTime: new Date(1000).toISOString(), attributes: { taskQueue: 'q', startToCloseTimeoutMs: 10, attempt: 1 } };
}

function task(runId: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return { id: uid('task'), namespace: 'default', taskQueue: 'q', kind: 'workflow', runId, visibleAt: 1000, data: { x: 1 }, ...overrides };
}

function timer(runId: string, dueAt: number): TimerRecord {
  return { id: uid('timer'), namespace: 'default', runId, kind: 'UserTimer', dueAt, data: { timerId: 't' } };
}

/** Inserts a run with `n` events and returns it as stored. */
async function seed(store: Store, n = 1, overrides: Partial<ExecutionRecord> = {}, extra: Partial<Transition> = {}): Promise<ExecutionRecord> {
  const rec = exec({ ...overrides, nextEventId: n + 1 });
  await store.commit({ executions: [{ record: rec, events: Array.from({ length: n }, (_, i) => ev(i + 1)) }], ...extra });
  return (await store.getExecution(rec.runId))!;
}

function next(rec: ExecutionRecord, events: number, changes: Partial<ExecutionRecord> = {}): Transition['executions'][number] {
  return {
    record: { ...rec, ...changes, nextEventId: rec.nextEventId + events, version: rec.version + 1 },
    expectedVersion: rec.version,
    events: Array.from({ length: events }, (_, i) => ev(rec.nextEventId + i, 'TimerStarted')),
  };
}

/**
 * The store contract, run against every implementation: the SQLite and PostgreSQL stores must
 * both pass all of it.
 */
export function registerStoreConformance(name: string, factory: StoreFactory, options: { skip?: string | false } = {}): void {
  const t = storeTest(name, factory, options);

  t('a new run and its events read back as written', async (store) => {
    const rec = await seed(store, 3, { memo: { customer: 'c-9' }, requestId: 'req-1' });
    assert.equal(rec.nextEventId, 4);
    assert.equal(rec.version, 1);
    assert.deepEqual(rec.memo, { customer: 'c-9' });
    assert.deepEqual(rec.state, { n: 0 });
    assert.equal((await store.getLatestExecution('default', rec.workflowId))?.runId, rec.runId);
    assert.equal((await store.findExecutionByRequestId('default', rec.workflowId, 'req-1'))?.runId, rec.runId);
    assert.equal(await store.findExecutionByRequestId('default', rec.workflowId, 'other'), undefined);
    const events = await store.readHistory(rec.runId, 1, 100);
    assert.deepEqual(events.map((e) => e.eventId), [1, 2, 3]);
    assert.deepEqual(events[0], ev(1));
    assert.deepEqual((await store.readHistory(rec.runId, 2, 1)).map((e) => e.eventId), [2]);
    assert.equal(await store.getExecution('no-such-run'), undefined);
  });

  t('an update checks the version; a stale one writes nothing', async (store) => {
    const rec = await seed(store, 1);
    const tk = task(rec.runId);
    await store.commit({ executions: [next(rec, 2, { state: { n: 1 } })] });
    await assert.rejects(
      store.commit({ executions: [next(rec, 1)], createTasks: [tk] }),
      (err) => err instanceof StoreConflictError && err.reason === 'version',
    );
    const now = (await store.getExecution(rec.runId))!;
    assert.equal(now.version, 2);
    assert.deepEqual(now.state, { n: 1 });
    assert.deepEqual((await store.readHistory(rec.runId, 1, 10)).map((e) => e.eventId), [1, 2, 3]);
    assert.equal(await store.claimTask({ namespace: 'default', taskQueue: 'q', kind: 'workflow', now: 5000, leaseMs: 10, owner: 'a' }), undefined);
  });

  t('history reads see every committed event, by page, after many transitions', async (store) => {
    let rec = await seed(store, 2);
    for (let i = 0; i < 6; i++) {
      const w = next(rec, i % 3);
      await store.commit({ executions: [w] });
      rec = (await store.getExecution(rec.runId))!;
    }
    const all = await store.readHistory(rec.runId, 1, 1000);
    assert.deepEqual(all.map((e) => e.eventId), Array.from({ length: rec.nextEventId - 1 }, (_, i) => i + 1));
    assert.deepEqual((await store.readHistory(rec.runId, 4, 3)).map((e) => e.eventId), [4, 5, 6]);
    assert.deepEqual(await store.readHistory(rec.runId, rec.nextEventId, 10), []);
    assert.deepEqual((await store.readHistory(rec.runId, rec.nextEventId - 1, 10)).map((e) => e.eventType), ['TimerStarted']);
    // Reading returns copies of the list: changing one does not change the next read.
    all.pop();
    assert.equal((await store.readHistory(rec.runId, 1, 1000)).length, rec.nextEventId - 1);
  });

  t('event ids must continue the run without gaps', async (store) => {
    const rec = await seed(store, 2);
    const w = next(rec, 1);
    w.events = [ev(5)];
    await assert.rejects(store.commit({ executions: [w] }), /contiguous/);
    const fresh = exec({ nextEventId: 3 });
    await assert.rejects(store.commit({ executions: [{ record: fresh, events: [ev(2)] }] }), /start at event 1/);
  });

  t('only one open run per workflow id; a closed one allows the next', async (store) => {
    const rec = await seed(store, 1);
    const second = exec({ workflowId: rec.workflowId, nextEventId: 2 });
    await assert.rejects(
      store.commit({ executions: [{ record: second, events: [ev(1)] }] }),
      (err) => err instanceof StoreConflictError && err.reason === 'alreadyOpen',
    );
    await assert.rejects(
      store.commit({ executions: [{ record: exec({ runId: rec.runId, nextEventId: 1 }), events: [] }] }),
      (err) => err instanceof StoreConflictError && err.reason === 'duplicateRun',
    );
    await store.commit({ executions: [next(rec, 0, { status: 'Completed', closeTime: 2000 }), { record: second, events: [ev(1)] }] });
    assert.equal((await store.getLatestExecution('default', rec.workflowId))?.runId, second.runId);
  });

  t('a first run of a workflow id is refused once the id has any run, open or closed', async (store) => {
    const fresh = exec({ nextEventId: 2 });
    await store.commit({ executions: [{ record: fresh, events: [ev(1)], firstOfWorkflowId: true }] });
    const again = exec({ workflowId: fresh.workflowId, nextEventId: 2 });
    await assert.rejects(
      store.commit({ executions: [{ record: again, events: [ev(1)], firstOfWorkflowId: true }] }),
      (err) => err instanceof StoreConflictError && err.reason === 'workflowIdUsed',
    );
    await store.commit({ executions: [next(fresh, 0, { status: 'Completed', closeTime: 2000 })] });
    await assert.rejects(
      store.commit({ executions: [{ record: again, events: [ev(1)], firstOfWorkflowId: true }] }),
      (err) => err instanceof StoreConflictError && err.reason === 'workflowIdUsed',
      'a closed run counts',
    );
    assert.equal(await store.getExecution(again.runId), undefined, 'nothing was written');
    await store.commit({ executions: [{ record: again, events: [ev(1)] }] });
    assert.equal((await store.getLatestExecution('default', fresh.workflowId))?.runId, again.runId);
  });

  t('claimTasks leases up to its limit, oldest first, skipping leased tasks', async (store) => {
    const rec = await seed(store);
    const rows = [task(rec.runId, { visibleAt: 1003 }), task(rec.runId, { visibleAt: 1001 }), task(rec.runId, { visibleAt: 1002 }),
      task(rec.runId, { visibleAt: 9000 })];
    await store.commit({ executions: [], createTasks: rows });
    const req = { namespace: 'default', taskQueue: 'q', kind: 'workflow' as const, now: 5000, leaseMs: 500, owner: 'a' };
    assert.deepEqual((await store.claimTasks(req, 2)).map((t) => t.visibleAt), [1001, 1002]);
    assert.deepEqual((await store.claimTasks(req, 5)).map((t) => t.visibleAt), [1003], 'leased ones are skipped, invisible ones wait');
    assert.deepEqual(await store.claimTasks(req, 5), []);
    assert.deepEqual((await store.claimTasks({ ...req, now: 5600 }, 5)).map((t) => t.visibleAt), [1001, 1002, 1003], 'leases end');
  });

  t('tasks are claimed oldest first, once, after visibleAt, again after the lease ends', async (store) => {
    const rec = await seed(store, 1);
    const late = task(rec.runId, { visibleAt: 3000 });
    const early = task(rec.runId, { visibleAt: 1000 });
    const other = task(rec.runId, { taskQueue: 'other' });
    await store.commit({ executions: [], createTasks: [late, early, other] });
    const claim = (now: number, owner = 'a') => store.claimTask({ namespace: 'default', taskQueue: 'q', kind: 'workflow', now, leaseMs: 500, owner });
    const [a, b] = await Promise.all([claim(2000, 'a'), claim(2000, 'b')]);
    const got = [a, b].filter(Boolean);
    assert.equal(got.length, 1, `the visible task is handed out once: ${JSON.stringify([a, b, late.id, early.id, other.id])}`);
    assert.equal(got[0]!.id, early.id);
    assert.deepEqual(got[0]!.data, { x: 1 });
    assert.equal(await claim(2400), undefined, 'leased');
    assert.equal((await claim(2500))?.id, early.id, 'lease expired: claimable again');
    await store.commit({ executions: [], deleteTaskIds: [early.id] });
    assert.equal((await claim(3000))?.id, late.id);
    await store.commit({ executions: [], deleteTaskIds: [late.id] });
    assert.equal(await claim(10_000), undefined);
    assert.deepEqual(await store.readyQueues(10_000), [{ namespace: 'default', taskQueue: 'other', kind: 'workflow', count: 1 }]);
  });

  t('a timer is consumed exactly once', async (store) => {
    const rec = await seed(store, 1);
    const tm = timer(rec.runId, 5000);
    await store.commit({ executions: [], createTimers: [tm] });
    assert.deepEqual(await store.claimDueTimers({ now: 4999, limit: 10, leaseMs: 100, owner: 'a' }), []);
    const [c1, c2] = await Promise.all([
      store.claimDueTimers({ now: 5000, limit: 10, leaseMs: 100, owner: 'a' }),
      store.claimDueTimers({ now: 5000, limit: 10, leaseMs: 100, owner: 'b' }),
    ]);
    assert.equal(c1.length + c2.length, 1);
    const fire = (r: ExecutionRecord) => store.commit({ executions: [next(r, 1)], consumeTimerId: tm.id });
    await fire(rec);
    const after = (await store.getExecution(rec.runId))!;
    await assert.rejects(fire(after), (err) => err instanceof StoreConflictError && err.reason === 'timerGone');
    assert.equal((await store.getExecution(rec.runId))!.version, after.version, 'the losing transition wrote nothing');
  });

  t('nextWakeTime is the next due timer, visible task or expiring lease', async (store) => {
    const rec = await seed(store, 1);
    assert.equal(await store.nextWakeTime(0), undefined);
    await store.commit({ executions: [], createTimers: [timer(rec.runId, 9000)], createTasks: [task(rec.runId, { visibleAt: 7000 })] });
    assert.equal(await store.nextWakeTime(1000), 7000);
    await store.claimTask({ namespace: 'default', taskQueue: 'q', kind: 'workflow', now: 7000, leaseMs: 500, owner: 'a' });
    assert.equal(await store.nextWakeTime(7000), 7500);
    await store.claimDueTimers({ now: 9000, limit: 10, leaseMs: 1000, owner: 'a' });
    assert.equal(await store.nextWakeTime(9000), 10_000);
  });

  t('purging a run deletes its tasks and timers only', async (store) => {
    const a = await seed(store, 1);
    const b = await seed(store, 1);
    await store.commit({ executions: [], createTasks: [task(a.runId), task(b.runId)], createTimers: [timer(a.runId, 10), timer(b.runId, 20)] });
    await store.commit({ executions: [next(a, 0, { status: 'Terminated', closeTime: 5 })], purgeRunIds: [a.runId] });
    const claimed = await store.claimTask({ namespace: 'default', taskQueue: 'q', kind: 'workflow', now: 5000, leaseMs: 10, owner: 'a' });
    assert.equal(claimed?.runId, b.runId);
    const timers = await store.claimDueTimers({ now: 5000, limit: 10, leaseMs: 10, owner: 'a' });
    assert.deepEqual(timers.map((x) => x.runId), [b.runId]);
  });

  t('concurrent transitions of one run: exactly one wins', async (store) => {
    const rec = await seed(store, 1);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => store.commit({ executions: [next(rec, 1)] })));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    assert.deepEqual((await store.readHistory(rec.runId, 1, 10)).map((e) => e.eventId), [1, 2]);
  });

  t('listExecutions filters and pages newest first', async (store) => {
    const ns = uid('ns');
    await store.createNamespace({ name: ns, description: '', retentionMs: 86_400_000, state: 'Registered', createTime: 1000, updateTime: 1000 });
    const made: ExecutionRecord[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await seed(store, 0, { namespace: ns, workflowId: `order-${i}`, startTime: 1000 + i, workflowType: i % 2 ? 'b' : 'a' }));
    }
    await store.commit({ executions: [next(made[1]!, 0, { status: 'Completed', closeTime: 5000 })] });
    const ids = async (q: Partial<Parameters<Store['listExecutions']>[0]>) =>
      (await store.listExecutions({ namespace: ns, limit: 100, ...q })).map((r) => r.workflowId);
    assert.deepEqual(await ids({}), ['order-4', 'order-3', 'order-2', 'order-1', 'order-0']);
    assert.deepEqual(await ids({ workflowType: 'b' }), ['order-3', 'order-1']);
    assert.deepEqual(await ids({ status: 'Completed' }), ['order-1']);
    assert.deepEqual(await ids({ workflowIdPrefix: 'order-' }), ['order-4', 'order-3', 'order-2', 'order-1', 'order-0']);
    assert.deepEqual(await ids({ workflowIdPrefix: 'order-3' }), ['order-3']);
    assert.deepEqual(await ids({ startTimeFrom: 1001, startTimeTo: 1002 }), ['order-2', 'order-1']);
    assert.deepEqual(await ids({ closeTimeFrom: 4000, closeTimeTo: 6000 }), ['order-1']);
    const page1 = await store.listExecutions({ namespace: ns, limit: 2 });
    const cursor = page1[1]!.seq;
    assert.ok(cursor !== undefined, 'a listed execution carries its seq (the page cursor)');
    const page2 = await store.listExecutions({ namespace: ns, limit: 2, beforeSeq: cursor });
    assert.deepEqual([...page1, ...page2].map((r) => r.workflowId), ['order-4', 'order-3', 'order-2', 'order-1']);
  });

  t('subscribers hear of new tasks, timers and closed runs after the commit', async (store) => {
    const heard: StoreNotification[] = [];
    const off = store.subscribe((n) => heard.push(n));
    const rec = await seed(store, 1, {}, { createTasks: [task('x', { visibleAt: 50 }), task('x', { visibleAt: 40 })], createTimers: [timer('x', 70)] });
    await store.commit({ executions: [next(rec, 0, { status: 'Completed', closeTime: 1 })] });
    const deadline = Date.now() + 2000;
    while (heard.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    off();
    assert.deepEqual(heard.filter((n) => n.type === 'task'), [{ type: 'task', namespace: 'default', taskQueue: 'q', kind: 'workflow', visibleAt: 40, count: 2 }]);
    assert.deepEqual(heard.filter((n) => n.type === 'timer'), [{ type: 'timer', dueAt: 70 }]);
    assert.deepEqual(heard.filter((n) => n.type === 'closed'), [{ type: 'closed', runId: rec.runId }]);
  });
}
