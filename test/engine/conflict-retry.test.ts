import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import { FaultInjectedError, faults, parseFaultSpec } from '../../src/common/fault-points.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { engineStores } from './stores.ts';
import { cmd } from './helpers.ts';
import { pgSkipReason } from '../store/pg-helpers.ts';
import { twoServerTest } from './two-servers.ts';
import type { ActivityTask } from '../../src/protocol/index.ts';

afterEach(() => faults.disarm());

twoServerTest('a commit that loses to a signal committed meanwhile by another server re-reads, rebuilds and keeps both changes',
  await pgSkipReason('two servers on PostgreSQL'), 'sf_raced', async ({ a, b }) => {
    await a.start('raced');
    const task = await a.pollWorkflow();
    faults.arm('engine.commit.before', {
      onHit: 1,
      run: () => b.engine.signalWorkflowExecution({ workflowId: 'raced', signalName: 'meanwhile', args: ['x'], identity: 'c' }),
    });
    faults.arm('engine.conflict', {});
    await a.complete(task, [cmd.timer('t', 1000)]);
    assert.equal(faults.hits('engine.conflict'), 1, 'the completion lost once to the signal, then committed');
    const types = await a.types('raced');
    assert.ok(types.includes('WorkflowExecutionSignaled'), 'the signal that won is kept');
    assert.ok(types.includes('TimerStarted'), 'the completion that retried is applied');
    assert.deepEqual((await a.history('raced')).map((e) => e.eventId), types.map((_, i) => i + 1));
  });

fixtureTest('on one server, the transitions of one run go in turn: a completion and 50 signals at once lose no race', async (f) => {
  const h = await f.engine();
  await h.start('in-turn');
  const task = await h.pollWorkflow();
  faults.arm('engine.conflict', {});
  await Promise.all([
    h.complete(task, [cmd.timer('t', 1000)]),
    ...Array.from({ length: 50 }, (_, i) => h.engine.signalWorkflowExecution({ workflowId: 'in-turn', signalName: 's', args: [i], identity: 'c' })),
  ]);
  assert.equal(faults.hits('engine.conflict'), 0, 'no commit lost a race');
  const events = await h.history('in-turn');
  assert.equal(events.filter((e) => e.eventType === 'WorkflowExecutionSignaled').length, 50);
  assert.ok(events.some((e) => e.eventType === 'TimerStarted'));
  assert.deepEqual(events.map((e) => e.eventId), events.map((_, i) => i + 1));
});

const stores = await engineStores('fault points', 'sf_fault');

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

fixtureTest('changes of one run that wait for its lane go as one batch; one that refuses refuses only itself', async (f) => {
  const h = await f.engine();
  await h.start('batched');
  await h.complete(await h.pollWorkflow(), Array.from({ length: 10 }, (_, i) => cmd.activity(`a${i}`)));
  const tasks: ActivityTask[] = [];
  while (tasks.length < 10) {
    const t = await h.pollActivity();
    tasks.push(t, ...(t.moreTasks ?? []));
  }
  const commits: number[] = [];
  const commit = h.store.commit.bind(h.store);
  h.store.commit = (t) => {
    if (t.executions.some((w) => w.record.workflowId === 'batched')) commits.push(t.executions[0]!.events.length);
    return commit(t);
  };
  const done = (i: number) => h.engine.respondActivityTaskCompleted({ taskToken: tasks[i]!.taskToken, result: i, identity: 'w' });
  // The first completion takes the lane; the other nine, and a second completion of the first
  // task (refused: its activity is closed by then), wait and go as one batch.
  const outcomes = await Promise.allSettled([...Array.from({ length: 10 }, (_, i) => done(i)), done(0)]);
  assert.deepEqual(outcomes.map((o) => o.status), [...Array(10).fill('fulfilled'), 'rejected']);
  assert.ok(commits.length <= 2, `the waiting completions went as one commit, not one each: ${commits.join(',')}`);
  const events = await h.history('batched');
  assert.equal(events.filter((e) => e.eventType === 'ActivityTaskCompleted').length, 10);
  assert.deepEqual(events.map((e) => e.eventId), events.map((_, i) => i + 1));
});
