import assert from 'node:assert/strict';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NamespaceNotFoundError } from '../../src/common/errors.ts';
import { faults } from '../../src/common/fault-points.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { openStore, SqliteStore } from '../../src/store/index.ts';
import type { Store } from '../../src/store/types.ts';
import { fixtureTest, type Fixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/wait.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { cmd, type Harness } from './helpers.ts';
import { twoServerTest } from './two-servers.ts';

const pgSkip = await pgSkipReason('namespace deletion on PostgreSQL');

const stores = [
  {
    name: 'SQLite', skip: false as string | false,
    open: (f: Fixture): Promise<Store> => {
      const dir = mkdtempSync(join(tmpdir(), 'steadfast-ns-delete-'));
      f.defer('directory', () => rmSync(dir, { recursive: true, force: true }));
      const store = SqliteStore.open(join(dir, 'ns.sqlite'));
      f.defer('store', () => store.close());
      return Promise.resolve(store);
    },
  },
  {
    name: 'PostgreSQL', skip: pgSkip,
    open: async (f: Fixture): Promise<Store> => {
      const schema = freshSchema('sf_nsdel');
      f.defer('schema', () => dropSchema(schema));
      const store = await openStore(`${PG_URL}?schema=${schema}`);
      f.defer('store', () => store.close());
      return store;
    },
  },
];

const notFound = (namespace: string) => (err: unknown) => err instanceof NamespaceNotFoundError && err.namespace === namespace;

/** True once the namespace's row is gone (its data removed, its name free). */
async function gone(h: Harness, namespace: string): Promise<boolean> {
  return h.engine.describeNamespace({ namespace }).then(() => false, (err: unknown) => {
    if (notFound(namespace)(err)) return true;
    throw err;
  });
}

async function pollIn(h: Harness, namespace: string) {
  const task = await h.engine.pollWorkflowTaskQueue({ namespace, taskQueue: 'q', identity: 'worker-1', pollTimeoutMs: 3000 });
  assert.ok(task, `expected a workflow task in ${namespace}`);
  return task;
}

/** A namespace holding a running run with a pending timer, a closed run, a schedule and a search attribute. */
async function populate(h: Harness, namespace: string): Promise<{ running: string; closed: string }> {
  await h.registerNamespaces(namespace);
  const { runId: running } = await h.start('busy', { namespace });
  await h.complete(await pollIn(h, namespace), [cmd.timer('t1', 3_600_000)]);
  const { runId: closed } = await h.start('done', { namespace });
  await h.complete(await pollIn(h, namespace), [cmd.complete('ok')]);
  await h.engine.createSchedule({
    namespace, scheduleId: 'hourly', spec: { intervals: [{ every: '1h' }] }, action: { workflowType: 'order', taskQueue: 'q', workflowId: 'from-hourly' },
  });
  await h.engine.createSearchAttribute({ namespace, name: 'Region', type: 'Keyword' });
  return { running, closed };
}

for (const s of stores) {
  fixtureTest(`${s.name}: deleting a namespace refuses it at once, removes its runs (running ones too), schedules and attributes, and frees its name`,
    { skip: s.skip }, async (f) => {
      const h = await f.engine(await s.open(f));
      const { runId: kept } = await h.start('in-default');
      const { running, closed } = await populate(h, 'doomed');
      await assert.rejects(h.engine.deleteNamespace({ namespace: 'default' }),
        (err) => err instanceof ValidationError && /namespace must not be "default": the default namespace cannot be deleted/.test(err.message));
      await assert.rejects(h.engine.deleteNamespace({ namespace: 'nowhere' }), notFound('nowhere'));

      assert.deepEqual(await h.engine.deleteNamespace({ namespace: 'doomed' }), { deletedNamespace: 'doomed' });
      // Refused at once, whatever the purge has reached.
      await assert.rejects(h.start('new', { namespace: 'doomed' }), notFound('doomed'));
      await assert.rejects(h.engine.pollWorkflowTaskQueue({ namespace: 'doomed', taskQueue: 'q', identity: 'w', pollTimeoutMs: 10 }), notFound('doomed'));
      await assert.rejects(h.engine.describeWorkflowExecution({ namespace: 'doomed', workflowId: 'busy' }), notFound('doomed'));
      await assert.rejects(h.engine.updateNamespace({ namespace: 'doomed', description: 'x' }), notFound('doomed'));

      await waitFor('the deleted namespace to be removed', () => gone(h, 'doomed'));
      for (const runId of [running, closed]) {
        assert.equal(await h.store.getExecution(runId), undefined, `run ${runId} is deleted`);
        assert.deepEqual(await h.store.readHistory(runId, 1, 100), [], `the history of ${runId} is deleted`);
      }
      assert.equal(await h.store.getSchedule('doomed', 'hourly'), undefined);
      assert.deepEqual(await h.store.listSearchAttributes('doomed'), []);
      assert.ok(!(await h.store.listNamespaces(undefined, 100)).some((n) => n.name === 'doomed'));
      await assert.rejects(h.engine.deleteNamespace({ namespace: 'doomed' }), notFound('doomed'));
      assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'in-default' })).execution.runId, kept, 'other namespaces are untouched');

      // The name can be registered again, and the new namespace starts empty.
      assert.equal((await h.engine.registerNamespace({ namespace: 'doomed' })).state, 'Registered');
      const { runId: again } = await h.start('busy', { namespace: 'doomed' });
      assert.notEqual(again, running);
      const listed = await h.engine.listWorkflowExecutions({ namespace: 'doomed' });
      assert.deepEqual(listed.executions.map((e) => e.runId), [again]);
      assert.deepEqual((await h.engine.listSchedules({ namespace: 'doomed' })).schedules, []);
    });

  fixtureTest(`${s.name}: a name whose deleted namespace is still being removed is registered again, its old data removed first`,
    { skip: s.skip }, async (f) => {
      const h = await f.engine(await s.open(f));
      const { running } = await populate(h, 'again');
      // Marked deleted straight in the store, as a server that stopped before removing anything leaves it.
      assert.equal((await h.store.markNamespaceDeleted('again', h.clock.now()))?.state, 'Deleted');
      assert.equal((await h.engine.describeNamespace({ namespace: 'again' })).state, 'Deleted');
      await assert.rejects(h.start('x', { namespace: 'again' }), notFound('again'));
      assert.ok((await h.engine.listNamespaces({})).namespaces.some((n) => n.name === 'again' && n.state === 'Deleted'), 'listed as Deleted meanwhile');
      assert.equal((await h.engine.registerNamespace({ namespace: 'again' })).state, 'Registered');
      assert.equal(await h.store.getExecution(running), undefined);
      assert.deepEqual((await h.engine.listWorkflowExecutions({ namespace: 'again' })).executions, []);
      await h.start('busy', { namespace: 'again' });
    });

  fixtureTest(`${s.name}: a long poll waiting in a namespace ends when the namespace is deleted, and the next one is refused`, { skip: s.skip }, async (f) => {
    const h = await f.engine(await s.open(f));
    await h.registerNamespaces('quiet', 'quietly');
    let otherDone = false;
    const waiting = h.engine.pollWorkflowTaskQueue({ namespace: 'quiet', taskQueue: 'q', identity: 'w', pollTimeoutMs: 120_000 });
    const other = h.engine.pollWorkflowTaskQueue({ namespace: 'quietly', taskQueue: 'q', identity: 'w', pollTimeoutMs: 120_000 }).finally(() => {
      otherDone = true;
    });
    const polling = async (namespace: string) => (await h.engine.describeTaskQueue({ namespace, taskQueue: 'q' })).workflow.pollers.length > 0;
    await waitFor('both polls to wait', async () => (await polling('quiet')) && (await polling('quietly')));
    const t0 = Date.now();
    await h.engine.deleteNamespace({ namespace: 'quiet' });
    assert.equal(await waiting, null, 'the waiting poll answered empty');
    assert.ok(Date.now() - t0 < 10_000, 'at once, not at its timeout');
    await assert.rejects(h.engine.pollWorkflowTaskQueue({ namespace: 'quiet', taskQueue: 'q', identity: 'w', pollTimeoutMs: 10 }), notFound('quiet'));
    assert.equal(otherDone, false, 'a poll in another namespace, whose name starts the same, waits on');
    await h.engine.shutdownWorker({ namespace: 'quietly', taskQueue: 'q', identity: 'w' });
    assert.equal(await other, null);
  });

  for (const [when, remove] of [
    ['was removed', async (h: Harness) => {
      await h.engine.deleteNamespace({ namespace: 'ghost' });
      await waitFor('the deleted namespace to be removed', () => gone(h, 'ghost'));
    }],
    ['was marked deleted, before its removal', async (h: Harness) => {
      await h.store.markNamespaceDeleted('ghost', h.clock.now());
    }],
  ] as const) {
    fixtureTest(`${s.name}: a start that commits after its namespace ${when} is refused and leaves no run`, { skip: s.skip }, async (f) => {
      const h = await f.engine(await s.open(f));
      await h.registerNamespaces('ghost');
      // The start has passed the namespace check; while it is about to commit, the namespace goes.
      faults.arm('engine.commit.before', { onHit: 1, run: () => remove(h) });
      try {
        await assert.rejects(h.start('late', { namespace: 'ghost' }), notFound('ghost'));
      } finally {
        faults.disarm();
      }
      assert.deepEqual(await h.store.listExecutions({ namespace: 'ghost', limit: 10 }), [], 'no run was written under the name');
      await h.engine.sweepRetention();
      assert.ok(await gone(h, 'ghost'));
      assert.equal((await h.engine.registerNamespace({ namespace: 'ghost' })).state, 'Registered');
      assert.deepEqual((await h.engine.listWorkflowExecutions({ namespace: 'ghost' })).executions, []);
    });
  }

  fixtureTest(`${s.name}: a sweep removes what a stopped server left of a deleted namespace`, { skip: s.skip }, async (f) => {
    const h = await f.engine(await s.open(f));
    const { running, closed } = await populate(h, 'left');
    await h.store.markNamespaceDeleted('left', h.clock.now());
    assert.equal(await h.engine.sweepRetention(), 2);
    assert.ok(await gone(h, 'left'));
    for (const runId of [running, closed]) assert.equal(await h.store.getExecution(runId), undefined);
  });
}

twoServerTest('two servers on one PostgreSQL: a namespace deleted on one is refused by the other, which had it cached', pgSkip, 'sf_nsdel2', async ({ a, b }) => {
  await a.registerNamespaces('shared');
  await b.start('on-b', { namespace: 'shared' });
  assert.equal((await b.engine.describeWorkflowExecution({ namespace: 'shared', workflowId: 'on-b' })).execution.status, 'Running');
  const waitingOnB = b.engine.pollActivityTaskQueue({ namespace: 'shared', taskQueue: 'q', identity: 'w', pollTimeoutMs: 120_000 });
  await waitFor('the poll on b to wait', async () => (await b.engine.describeTaskQueue({ namespace: 'shared', taskQueue: 'q' })).activity.pollers.length > 0);
  await a.engine.deleteNamespace({ namespace: 'shared' });
  assert.equal(await waitingOnB, null, 'b ended its poll in the namespace when it heard of the deletion');
  // B heard of it by NOTIFY: every call inside the namespace is refused there too.
  await waitFor('server b to refuse the deleted namespace', () => b.engine.listWorkflowExecutions({ namespace: 'shared' })
    .then(() => false, (err: unknown) => {
      if (notFound('shared')(err)) return true;
      throw err;
    }));
  await assert.rejects(b.start('late', { namespace: 'shared' }), notFound('shared'));
  await assert.rejects(b.engine.pollWorkflowTaskQueue({ namespace: 'shared', taskQueue: 'q', identity: 'w', pollTimeoutMs: 10 }), notFound('shared'));
  await waitFor('the deleted namespace to be removed', () => gone(a, 'shared'));
  // Registered again on A, B accepts it again (its lookup reads the store).
  await a.registerNamespaces('shared');
  const { runId } = await b.start('on-b', { namespace: 'shared' });
  assert.deepEqual((await a.engine.listWorkflowExecutions({ namespace: 'shared' })).executions.map((e) => e.runId), [runId]);
});

twoServerTest('two servers on one PostgreSQL: a deletion made while the other\'s LISTEN connection is down is refused there once it is back',
  pgSkip, 'sf_nsdel3', async ({ a, b, schema }) => {
    await a.registerNamespaces('lost');
    await b.start('on-b', { namespace: 'lost' });
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      // Both servers' LISTEN sessions of this schema end; the deletion's NOTIFY goes out before they
      // listen again (they reopen after 100 ms), so B can only learn of it from the resync.
      const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'steadfast-listener' AND query LIKE $1`, [`%${`steadfast_${schema}`.replace(/[^a-zA-Z0-9_]/g, '_').slice(0, 63)}%`]);
      assert.ok(killed.rowCount! >= 1, 'the LISTEN sessions were found');
      await a.engine.deleteNamespace({ namespace: 'lost' });
    } finally {
      await admin.end();
    }
    await waitFor('server b to refuse the namespace deleted while it was not listening', () => b.engine.listWorkflowExecutions({ namespace: 'lost' })
      .then(() => false, (err: unknown) => {
        if (notFound('lost')(err)) return true;
        throw err;
      }));
    await assert.rejects(b.start('late', { namespace: 'lost' }), notFound('lost'));
  });
