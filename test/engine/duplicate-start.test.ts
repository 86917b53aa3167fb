import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import { faults } from '../../src/common/fault-points.ts';
import { WorkflowExecutionAlreadyStartedError } from '../../src/common/errors.ts';
import { instrumentStore, ServerMetrics } from '../../src/server/index.ts';
import { openStore, SqliteStore } from '../../src/store/index.ts';
import type { WorkflowTask } from '../../src/protocol/index.ts';
import { fixtureTest, type Fixture } from '../helpers/fixture.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { parsePrometheusText, total } from '../observe/prometheus-text.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Harness } from './helpers.ts';

afterEach(() => faults.disarm());

const stores = [
  {
    name: 'SQLite', skip: false as string | false,
    open: (f: Fixture) => {
      const dir = mkdtempSync(join(tmpdir(), 'steadfast-dup-'));
      f.defer('directory', () => rmSync(dir, { recursive: true, force: true }));
      const store = SqliteStore.open(join(dir, 'dup.sqlite'));
      f.defer('store', () => store.close());
      return Promise.resolve(store);
    },
  },
  {
    name: 'PostgreSQL', skip: await pgSkipReason('duplicate starts on PostgreSQL'),
    open: async (f: Fixture) => {
      const schema = freshSchema('sf_dup');
      f.defer('schema', () => dropSchema(schema));
      const store = await openStore(`${PG_URL}?schema=${schema}`);
      f.defer('store', () => store.close());
      return store;
    },
  },
];

/** `n` workflow task polls waiting on queue `q`: each answers a task or, after `ms` of real time, null. */
function polls(h: Harness, n: number, ms: number): Promise<(WorkflowTask | null)[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => h.engine.pollWorkflowTaskQueue({ taskQueue: 'q', identity: `poller-${i}`, pollTimeoutMs: ms })));
}

async function series(metrics: ServerMetrics) {
  return parsePrometheusText((await metrics.scrape()).text).samples;
}

for (const s of stores) {
  fixtureTest(`${s.name}: starts of one workflow id racing while workers poll: one run starts, only its task is handed out, the losers' conflicts are counted apart from store errors`,
    { skip: s.skip }, async (f) => {
      const metrics = new ServerMetrics({ processMetrics: false });
      const h = await f.engine(instrumentStore(await s.open(f), metrics));
      const N = 6;
      const waiting = polls(h, N, 1500);
      await h.settle();
      // Every start reads the id unused, then waits here until all have: each decides a new run,
      // and all but one lose at the store (the workflow id's first run, or its one open run).
      let arrived = 0;
      let all!: () => void;
      const together = new Promise<void>((r) => (all = r));
      faults.arm('engine.commit.before', {
        run: () => {
          if (++arrived === N) all();
          return arrived <= N ? together : undefined;
        },
      });
      const starts = await Promise.allSettled(Array.from({ length: N }, (_, i) =>
        h.engine.startWorkflowExecution({ workflowId: 'dup', workflowType: 'order', taskQueue: 'q', args: [i], requestId: `start-${i}` } as never)));
      faults.disarm();
      const won = starts.flatMap((r) => (r.status === 'fulfilled' ? [r.value.runId] : []));
      assert.equal(won.length, 1, `one start succeeds: ${starts.map((r) => r.status).join()}`);
      for (const r of starts) if (r.status === 'rejected') assert.ok(r.reason instanceof WorkflowExecutionAlreadyStartedError, String(r.reason));
      const handed = (await waiting).filter((t) => t !== null);
      assert.deepEqual(handed.map((t) => t.runId), won, 'the winner\'s first task, and no task of a run that lost');
      const runs = await h.engine.listWorkflowExecutions({ query: "WorkflowId = 'dup'" } as never);
      assert.deepEqual(runs.executions.map((e: { runId: string }) => e.runId), won);

      // With the run open, another start is refused before it writes: no conflict, no task.
      const again = polls(h, 2, 300);
      await h.settle();
      await assert.rejects(h.engine.startWorkflowExecution({ workflowId: 'dup', workflowType: 'order', taskQueue: 'q', args: [] } as never),
        WorkflowExecutionAlreadyStartedError);
      assert.deepEqual(await again, [null, null]);

      const samples = await series(metrics);
      const conflicts = total(samples, 'steadfast_store_conflicts_total');
      assert.ok(conflicts >= N - 1, `every losing commit is a conflict (${conflicts})`);
      assert.equal(conflicts, total(samples, 'steadfast_store_conflicts_total', { reason: 'workflowIdUsed' })
        + total(samples, 'steadfast_store_conflicts_total', { reason: 'alreadyOpen' }), 'by reason');
      assert.equal(total(samples, 'steadfast_store_errors_total'), 0, 'a conflict is not a store error');
    });
}
