import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import { FaultInjectedError, faults, parseFaultSpec } from '../../src/common/fault-points.ts';
import { fixtureTest, type Fixture } from '../helpers/fixture.ts';
import { cmd } from './helpers.ts';
import { openStore } from '../../src/store/index.ts';
import type { Store } from '../../src/store/types.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

afterEach(() => faults.disarm());

fixtureTest('a commit that loses to a signal committed meanwhile re-reads, rebuilds and keeps both changes', async (f) => {
  const h = await f.engine();
  await h.start('raced');
  const task = await h.pollWorkflow();
  faults.arm('engine.commit.before', {
    onHit: 1,
    run: () => h.engine.signalWorkflowExecution({ workflowId: 'raced', signalName: 'meanwhile', args: ['x'], identity: 'c' }),
  });
  faults.arm('engine.conflict', {});
  await h.complete(task, [cmd.timer('t', 1000)]);
  assert.equal(faults.hits('engine.conflict'), 1, 'the completion lost once to the signal, then committed');
  const types = await h.types('raced');
  assert.ok(types.includes('WorkflowExecutionSignaled'), 'the signal that won is kept');
  assert.ok(types.includes('TimerStarted'), 'the completion that retried is applied');
  assert.deepEqual((await h.history('raced')).map((e) => e.eventId), types.map((_, i) => i + 1));
});

const stores = [
  { name: 'SQLite', skip: false as string | false, open: async (_f: Fixture): Promise<Store | undefined> => undefined },
  {
    name: 'PostgreSQL', skip: await pgSkipReason('fault points on PostgreSQL'),
    open: async (f: Fixture) => {
      const schema = freshSchema('sf_fault');
      f.defer('schema', () => dropSchema(schema));
      const store = await openStore(`${PG_URL}?schema=${schema}`);
      f.defer('store', () => store.close());
      return store;
    },
  },
];

for (const store of stores) fixtureTest(`${store.name}: a store commit that fails inside its transaction leaves nothing written, and the request can be made again`, { skip: store.skip }, async (f) => {
  const h = await f.engine(await store.open(f));
  await h.start('rolled-back');
  const task = await h.pollWorkflow();
  const before = await h.types('rolled-back');
  // Every hit: the SQLite group commit replays a failed batch op by op, which hits the point again.
  faults.arm('store.commit', { throw: true });
  await assert.rejects(h.complete(task, [cmd.timer('t', 1000)]), (err) => err instanceof FaultInjectedError && err.point === 'store.commit');
  assert.ok(faults.hits('store.commit') >= 1);
  faults.disarm();
  assert.deepEqual(await h.types('rolled-back'), before, 'the transaction rolled back: no event of the completion');
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'rolled-back' })).execution.status, 'Running');
  await h.complete(task, [cmd.timer('t', 1000)]);
  assert.deepEqual((await h.types('rolled-back')).slice(before.length), ['WorkflowTaskCompleted', 'TimerStarted']);
});

fixtureTest('unarmed, no point counts or acts; a bad STEADFAST_FAULTS entry names itself', async (f) => {
  const h = await f.engine();
  await h.start('quiet');
  assert.equal(faults.armed, false);
  assert.equal(faults.hits('engine.commit.before'), 0);
  assert.deepEqual(parseFaultSpec('store.commit=crash@3, engine.conflict=throw'), [
    { point: 'store.commit', action: { crash: true, onHit: 3 } }, { point: 'engine.conflict', action: { throw: true } },
  ]);
  assert.throws(() => parseFaultSpec('store.comit=crash'), /STEADFAST_FAULTS entry must be <point>=crash\|throw\[@hit\] .*got "store.comit=crash"/);
});
