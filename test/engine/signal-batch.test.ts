import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { faults } from '../../src/common/fault-points.ts';
import { ServiceError } from '../../src/common/errors.ts';
import { Engine, type EngineOptions } from '../../src/engine/index.ts';
import { TransitionBuilder } from '../../src/engine/core/transition.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import { openStore, SqliteStore } from '../../src/store/index.ts';
import type { Store } from '../../src/store/types.ts';
import { fixtureTest, type Fixture } from '../helpers/fixture.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { cmd, FEATURES, Harness, T0 } from './helpers.ts';

afterEach(() => faults.disarm());

const stores = [
  {
    name: 'SQLite', skip: false as string | false,
    open: (f: Fixture): Promise<Store> => {
      const dir = mkdtempSync(join(tmpdir(), 'steadfast-signal-batch-'));
      f.defer('directory', () => rmSync(dir, { recursive: true, force: true }));
      return Promise.resolve(SqliteStore.open(join(dir, 'signals.sqlite')));
    },
  },
  {
    name: 'PostgreSQL', skip: await pgSkipReason('signal batches on PostgreSQL'),
    open: async (f: Fixture): Promise<Store> => {
      const schema = freshSchema('sf_signal_batch');
      f.defer('schema', () => dropSchema(schema));
      return openStore(`${PG_URL}?schema=${schema}`);
    },
  },
];

async function harness(f: Fixture, store: Store, opts: Partial<EngineOptions> = {}): Promise<Harness> {
  const clock = new ManualClock(T0);
  const engine = await Engine.create({ store, clock, ...opts });
  const h = new Harness(engine, store, clock, true);
  f.defer('engine', () => h.close());
  return h;
}

const signaled = (h: Harness, id: string) => h.history(id).then((events) => events.flatMap((e) =>
  e.eventType === 'WorkflowExecutionSignaled' ? [e.attributes.args[0]] : []));

const signal = (h: Harness, workflowId: string, arg: unknown, requestId?: string) =>
  h.engine.signalWorkflowExecution({ workflowId, signalName: 's', args: [arg], ...(requestId !== undefined ? { requestId } : {}) });

for (const s of stores) {
  fixtureTest(`${s.name}: 1,000 signals to one run at once share a few transactions, and land once each in the order they were sent`, { skip: s.skip }, async (f) => {
    const h = await harness(f, await s.open(f));
    await h.start('busy');
    faults.arm('engine.commit.before', {});
    const N = 1000;
    await Promise.all(Array.from({ length: N }, (_, i) => signal(h, 'busy', i)));
    const commits = faults.hits('engine.commit.before');
    assert.ok(commits <= 10, `a transaction took many signals (${commits} commits for ${N} signals)`);
    assert.deepEqual(await signaled(h, 'busy'), Array.from({ length: N }, (_, i) => i));
  });

  fixtureTest(`${s.name}: the signals of one transaction are decided one by one: a repeat adds nothing, those past the limit alone are refused, a closed run refuses all`,
    { skip: s.skip }, async (f) => {
      const h = await harness(f, await s.open(f), { messageLimits: { maxSignalsPerRun: 5 } });
      await h.start('limited');
      const ids = ['r0', 'r1', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
      faults.arm('engine.commit.before', {});
      const answers = await Promise.allSettled(ids.map((id, i) => signal(h, 'limited', i, id)));
      assert.equal(faults.hits('engine.commit.before'), 1, 'one transaction');
      assert.deepEqual(answers.map((a) => a.status), ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
      for (const a of answers.slice(6)) {
        assert.ok(a.status === 'rejected' && a.reason instanceof ServiceError && a.reason.code === 'ResourceExhausted');
        assert.match((a.reason as Error).message, /has received 5 signals, the limit per run \(maxSignalsPerRun 5\)/);
      }
      assert.deepEqual(await signaled(h, 'limited'), [0, 1, 3, 4, 5]);
      await h.complete(await h.pollWorkflow(), [cmd.complete('done')]);
      const late = await Promise.allSettled([signal(h, 'limited', 'x', 'r9'), signal(h, 'limited', 'y', 'r0'), signal(h, 'limited', 'z')]);
      assert.equal(late[0].status, 'rejected');
      assert.match(String((late[0] as PromiseRejectedResult).reason), /cannot signal workflow limited run .*: it is already Completed/);
      assert.equal(late[1].status, 'fulfilled', 'the repeat of a signal the run received before it closed');
      assert.equal(late[2].status, 'rejected');
    });

  fixtureTest(`${s.name}: a transaction of signals that loses a race is decided again, and keeps every signal once`, { skip: s.skip }, async (f) => {
    const h = await harness(f, await s.open(f));
    const { runId } = await h.start('raced');
    faults.arm('engine.conflict', {});
    faults.arm('engine.commit.before', {
      onHit: 1,
      // Another writer moves the run's row between the transaction's decision and its commit.
      run: async () => {
        const b = new TransitionBuilder((await h.store.getExecution(runId))!, h.clock.now(), FEATURES);
        b.touch();
        await h.store.commit(b.build());
      },
    });
    await Promise.all(Array.from({ length: 20 }, (_, i) => signal(h, 'raced', i)));
    assert.ok(faults.hits('engine.conflict') >= 1, 'the first transaction lost its race');
    assert.deepEqual(await signaled(h, 'raced'), Array.from({ length: 20 }, (_, i) => i));
  });
}
