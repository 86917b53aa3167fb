import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/index.ts';
import { PostgresStore, SqliteStore } from '../../src/store/index.ts';
import type { Store } from '../../src/store/types.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import { WorkflowExecutionAlreadyStartedError } from '../../src/common/errors.ts';
import { instrumentStore, ServerMetrics } from '../../src/server/index.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { cmd, T0 } from './helpers.ts';

const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'steadfast-retention-'));
const pgSkip = await pgSkipReason('the retention tests on PostgreSQL');
const schemas: string[] = [];
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (!pgSkip) for (const s of schemas) await dropSchema(s);
});

/** Two servers' stores on one database: two PostgreSQL stores on one schema, or one SQLite store (one process) used by both. */
const BACKENDS = [
  {
    name: 'sqlite', skip: false as const,
    async open(): Promise<{ stores: Store[]; close(): Promise<void> }> {
      const store = SqliteStore.open(join(dir, `r-${Math.random().toString(36).slice(2)}.db`));
      return { stores: [store, store], close: () => store.close() };
    },
  },
  {
    name: 'postgres', skip: pgSkip,
    async open(): Promise<{ stores: Store[]; close(): Promise<void> }> {
      const schema = freshSchema('sf_retention');
      schemas.push(schema);
      const stores = [await PostgresStore.open(PG_URL, { schema, poolSize: 4 }), await PostgresStore.open(PG_URL, { schema, poolSize: 4 })];
      return { stores, close: async () => { for (const s of stores) await s.close(); } };
    },
  },
];

/** Two engines (servers) on the backend, on one ManualClock, their periodic sweeps off (the tests sweep). */
async function servers(backend: (typeof BACKENDS)[number]) {
  const { stores, close } = await backend.open();
  const clock = new ManualClock(T0);
  const engines: Engine[] = [];
  for (const [i, store] of stores.entries()) engines.push(await Engine.create({ store, clock, identity: `server-${i}`, retentionSweepIntervalMs: 0 }));
  return {
    engines, clock,
    async close() {
      for (const e of engines) await e.shutdown();
      await close();
    },
  };
}

/** Starts `n` runs on queue `q` and completes them (closed now), and `open` runs on a queue nobody polls; returns both sets of run ids. */
async function load(engine: Engine, namespace: string, tag: string, n: number, open: number): Promise<{ closed: string[]; running: string[] }> {
  const start = (id: string, taskQueue: string) => engine.startWorkflowExecution({ namespace, workflowId: id, workflowType: 't', taskQueue });
  const [toClose, running] = await Promise.all([
    Promise.all(Array.from({ length: n }, (_, i) => start(`${tag}-c${i}`, 'q'))),
    Promise.all(Array.from({ length: open }, (_, i) => start(`${tag}-r${i}`, 'idle'))),
  ]);
  const closed: string[] = [];
  await Promise.all([0, 1, 2, 3].map(async () => {
    while (closed.length < n) {
      const task = await engine.pollWorkflowTaskQueue({ namespace, taskQueue: 'q', identity: 'w', pollTimeoutMs: 200 });
      if (!task) continue;
      await engine.respondWorkflowTaskCompleted({ taskToken: task.taskToken, commands: [cmd.complete(1)], identity: 'w' });
      closed.push(task.runId);
    }
  }));
  assert.deepEqual(new Set(closed), new Set(toClose.map((r) => r.runId)));
  return { closed, running: running.map((r) => r.runId) };
}

async function count(engine: Engine, namespace: string, status: string): Promise<number> {
  return (await engine.countWorkflowExecutions({ namespace, query: `ExecutionStatus = '${status}'` })).count;
}

/** Retries `check` for up to 2 s of real time: what another server learns by NOTIFY arrives a moment later. */
async function eventually(check: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await check();
    } catch (err) {
      if (i >= 40) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Whether each run is still there: its row, its history and its visibility row agree. */
async function remaining(store: Store, namespace: string, runIds: string[]): Promise<number> {
  let n = 0;
  for (const runId of runIds) {
    const row = await store.getExecution(runId);
    const history = await store.readHistory(runId, 1, 5);
    const listed = (await store.countExecutions({ namespace, query: `RunId = '${runId}'` })).count;
    assert.ok(Boolean(row) === history.length > 0 && Boolean(row) === (listed === 1), `run ${runId} is wholly there or wholly gone`);
    if (row) n++;
  }
  return n;
}

for (const backend of BACKENDS) {
  test(`${backend.name}: under a load of starts, sweeps past retention delete exactly the expired closed runs`, { skip: backend.skip, timeout: 120_000 }, async () => {
    const s = await servers(backend);
    const [a, b] = s.engines as [Engine, Engine];
    try {
      await a.registerNamespace({ namespace: 'short', workflowExecutionRetentionPeriodMs: DAY });
      const [old, oldDefault] = await Promise.all([load(a, 'short', 'old', 60, 20), load(b, 'default', 'def', 30, 10)]);
      assert.equal(await count(a, 'short', 'Completed'), 60);
      assert.equal(await count(a, 'default', 'Completed'), 30);

      await s.clock.advance(DAY + 60_000);
      // Starts and completions go on while both servers sweep.
      const [fresh, deletedA, deletedB] = await Promise.all([load(b, 'short', 'new', 40, 20), a.sweepRetention(), b.sweepRetention()]);
      const again = await a.sweepRetention();
      assert.equal(deletedA + deletedB + again, 60, 'each expired run deleted, and counted, once');
      assert.equal(await remaining(s.engines[0]!.store, 'short', old.closed), 0);
      // The other server hears of the deletions by NOTIFY (its cache may hold their histories until then).
      await eventually(async () => assert.equal(await remaining(s.engines[1]!.store, 'short', old.closed), 0));
      assert.equal(await remaining(a.store, 'short', [...old.running, ...fresh.closed, ...fresh.running]), 80);
      assert.equal(await count(a, 'short', 'Completed'), 40, 'the runs closed after the cutoff stay');
      assert.equal(await count(a, 'short', 'Running'), 40);
      assert.equal(await count(a, 'default', 'Completed'), 30, 'default keeps its runs for 3 days');

      await s.clock.advance(2 * DAY);
      assert.equal(await b.sweepRetention(), 30 + 40);
      assert.equal(await remaining(a.store, 'default', oldDefault.closed), 0);
      assert.equal(await remaining(a.store, 'short', fresh.closed), 0);
      assert.equal(await count(a, 'short', 'Running'), 40, 'running runs are never deleted');
      assert.equal(await count(a, 'default', 'Running'), 10);
      assert.equal(await remaining(a.store, 'default', oldDefault.running), 10);
    } finally {
      await s.close();
    }
  });

  test(`${backend.name}: RejectDuplicate refuses a closed run's id within retention, and allows it once the run is deleted`, { skip: backend.skip }, async () => {
    const s = await servers(backend);
    const [a] = s.engines as [Engine];
    try {
      const start = () => a.startWorkflowExecution({ workflowId: 'reuse', workflowType: 't', taskQueue: 'q', workflowIdReusePolicy: 'RejectDuplicate' });
      const first = await start();
      const task = await a.pollWorkflowTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 2000 });
      await a.respondWorkflowTaskCompleted({ taskToken: task!.taskToken, commands: [cmd.complete(1)], identity: 'w' });
      await assert.rejects(start(), WorkflowExecutionAlreadyStartedError);
      await s.clock.advance(3 * DAY - 60_000);
      assert.equal(await a.sweepRetention(), 0);
      await assert.rejects(start(), WorkflowExecutionAlreadyStartedError, 'still within the retention period');
      await s.clock.advance(120_000);
      assert.equal(await a.sweepRetention(), 1);
      assert.equal(await a.store.getExecution(first.runId), undefined);
      const second = await start();
      assert.notEqual(second.runId, first.runId);
    } finally {
      await s.close();
    }
  });
}

test('the periodic sweep runs every interval of its wait clock, survives a failed sweep, and counts what it deleted', async () => {
  const store = SqliteStore.open(join(dir, 'loop.db'));
  let failures = 1;
  const flaky = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key === 'deleteClosedRuns') {
        return (...args: Parameters<Store['deleteClosedRuns']>) =>
          failures-- > 0 ? Promise.reject(new Error('database went away')) : target.deleteClosedRuns(...args);
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const metrics = new ServerMetrics({ processMetrics: false });
  const clock = new ManualClock(T0);
  const waitClock = new ManualClock(0);
  const errors: string[] = [];
  const engine = await Engine.create({
    store: instrumentStore(flaky, metrics), clock, waitClock, retentionSweepIntervalMs: 60_000,
    logger: { warn: () => {}, error: (message) => errors.push(message) },
  });
  const deletedSeries = async () => /steadfast_workflows_deleted_total\{namespace="default"\} (\d+)/.exec((await metrics.scrape()).text)?.[1];
  const until = async (what: string, ok: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 500 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 2));
    assert.ok(await ok(), what);
  };
  try {
    await engine.startWorkflowExecution({ workflowId: 'w', workflowType: 't', taskQueue: 'q' });
    const task = await engine.pollWorkflowTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 1000 });
    await engine.respondWorkflowTaskCompleted({ taskToken: task!.taskToken, commands: [cmd.complete(1)], identity: 'w' });
    await clock.advance(3 * DAY + 1);
    await waitClock.advance(60_000);
    await until('the first sweep failed and was logged', () => errors.length === 1);
    assert.match(errors[0]!, /^retention sweep failed; trying again in 60000 ms$/);
    assert.ok(await engine.store.getExecution(task!.runId), 'nothing deleted by the failed sweep');
    await waitClock.advance(60_000);
    await until('the next sweep deleted the run', async () => (await deletedSeries()) === '1');
    assert.equal(await engine.store.getExecution(task!.runId), undefined);
  } finally {
    await engine.shutdown();
    await store.close();
  }
  assert.equal(waitClock.pendingSleeps(), 0, 'shutdown ends the sweep loop');
});
