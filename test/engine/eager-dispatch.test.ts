import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import type { StoreNotification } from '../../src/store/types.ts';
import { StoreConflictError } from '../../src/store/errors.ts';
import { assertContiguous, cmd, comparableHistory, type Harness } from './helpers.ts';

/** Task-row notifications per kind, to tell a task handed over in its commit from a written row. */
function countRows(h: Harness): { workflow: number; activity: number; stop: () => void } {
  const counts = { workflow: 0, activity: 0, stop: () => {} };
  counts.stop = h.store.subscribe((n: StoreNotification) => {
    if (n.type === 'task' && (n.kind === 'workflow' || n.kind === 'activity')) counts[n.kind] += n.count;
  });
  return counts;
}

fixtureTest('a task made while a poll waits is started in the commit that made it, with the history a claimed task gets', async (f) => {
  const h = await f.engine();
  const histories: ReturnType<typeof comparableHistory>[] = [];
  for (const waiting of [false, true]) {
    const id = `eager-${waiting}`;
    const rows = countRows(h);
    await h.start(id);
    const first = await h.pollWorkflow();
    let activity;
    if (waiting) {
      const poll = h.pollActivity();
      await h.settle();
      await h.complete(first, [cmd.activity('a1')]);
      activity = await poll;
    } else {
      await h.complete(first, [cmd.activity('a1')]);
      activity = await h.pollActivity();
    }
    assert.equal(activity.activityId, 'a1');
    let second;
    if (waiting) {
      const poll = h.pollWorkflow();
      await h.settle();
      await h.engine.respondActivityTaskCompleted({ taskToken: activity.taskToken, result: 'ok', identity: 'worker-1' });
      second = await poll;
    } else {
      await h.engine.respondActivityTaskCompleted({ taskToken: activity.taskToken, result: 'ok', identity: 'worker-1' });
      second = await h.pollWorkflow();
    }
    assert.deepEqual(second.history.map((e) => e.eventType),
      ['WorkflowTaskCompleted', 'ActivityTaskScheduled', 'ActivityTaskStarted', 'ActivityTaskCompleted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
    await h.complete(second, [cmd.complete('done')]);
    rows.stop();
    // The first workflow task is written as a row either way (no poll waited when the run started).
    assert.deepEqual({ workflow: rows.workflow, activity: rows.activity }, waiting ? { workflow: 1, activity: 0 } : { workflow: 2, activity: 1 });
    const events = await h.history(id);
    assertContiguous(events);
    histories.push(comparableHistory(events));
  }
  assert.deepEqual(histories[1], histories[0]);
  assert.equal(h.engine.isIdle(), true);
});

fixtureTest('a workflow task handed to a waiting poll that never answers times out and is handed out again', async (f) => {
  const h = await f.engine();
  await h.start('eager-lost');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1')]);
  const activity = await h.pollActivity();
  const poll = h.pollWorkflow();
  await h.settle();
  await h.engine.respondActivityTaskCompleted({ taskToken: activity.taskToken, result: 'ok', identity: 'worker-1' });
  const lost = await poll;
  assert.equal(lost.attempt, 1);
  assert.equal(h.engine.isIdle(), false, 'a handed-out task is awaited');
  await h.advance(10_000);
  const retry = await h.pollWorkflow();
  assert.equal(retry.attempt, 2);
  await h.complete(retry, [cmd.complete('done')]);
  const types = await h.types('eager-lost');
  assert.ok(types.includes('WorkflowTaskTimedOut'), types.join(','));
  assert.equal(types.at(-1), 'WorkflowExecutionCompleted');
});

/**
 * Makes the store's next commit of a transition that records `eventType` wait for `gate`, then
 * fail with `failure` (or go through when it is undefined).
 */
function holdCommit(h: Harness, eventType: string, gate: Promise<void>, failure?: Error): { seen: Promise<void> } {
  const commit = h.store.commit.bind(h.store);
  let armed = true;
  let seen!: () => void;
  const result = { seen: new Promise<void>((resolve) => (seen = resolve)) };
  h.store.commit = async (t) => {
    if (!armed || !t.executions.some((w) => w.events.some((e) => e.eventType === eventType))) return commit(t);
    armed = false;
    seen();
    await gate;
    if (failure) throw failure;
    return commit(t);
  };
  return result;
}

/** Runs `id` up to a started activity, with a workflow task poll waiting for what comes next. */
async function upToActivity(h: Harness, id: string, polls = 1) {
  await h.start(id);
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1')]);
  const activity = await h.pollActivity();
  const waiting = Array.from({ length: polls }, () => h.pollWorkflow());
  await h.settle();
  return { activity, waiting };
}

fixtureTest('a workflow task goes to its poll only once its commit succeeded', async (f) => {
  const h = await f.engine();
  const { activity, waiting } = await upToActivity(h, 'eager-after-commit');
  let open!: () => void;
  const held = holdCommit(h, 'ActivityTaskCompleted', new Promise((resolve) => (open = resolve)));
  const completed = h.engine.respondActivityTaskCompleted({ taskToken: activity.taskToken, result: 'ok', identity: 'worker-1' });
  await held.seen;
  let handed = false;
  const handedOut = waiting[0]!.then((t) => ((handed = true), t));
  await h.settle();
  assert.equal(handed, false, 'no task leaves before its commit is written');
  open();
  const [task] = await Promise.all([handedOut, completed]);
  assert.deepEqual(task.history.map((e) => e.eventType).slice(-3), ['ActivityTaskCompleted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
  await h.complete(task, [cmd.complete('done')]);
  const events = await h.history('eager-after-commit');
  assertContiguous(events);
  assert.equal(events.at(-1)!.eventType, 'WorkflowExecutionCompleted');
});

fixtureTest('a commit that failed hands out nothing; the transition decided again hands its task to a poll, whose completion is accepted', async (f) => {
  const h = await f.engine();
  const { activity, waiting } = await upToActivity(h, 'eager-failed', 2);
  let open!: () => void;
  const held = holdCommit(h, 'ActivityTaskCompleted', new Promise((resolve) => (open = resolve)), new StoreConflictError('version', 'moved meanwhile'));
  const completed = h.engine.respondActivityTaskCompleted({ taskToken: activity.taskToken, result: 'ok', identity: 'worker-1' });
  await held.seen;
  open();
  await completed;
  const first = await Promise.race(waiting);
  assert.equal(first.attempt, 1);
  await h.complete(first, [cmd.complete('done')]);
  // The other poll waits out its timeout empty: no task was handed out for the commit that failed.
  const polls = await Promise.allSettled(waiting);
  assert.deepEqual(polls.map((p) => p.status).sort(), ['fulfilled', 'rejected']);
  const events = await h.history('eager-failed');
  assertContiguous(events);
  assert.equal((events.at(-1)!.attributes as { result?: unknown }).result, 'done');
  assert.equal(events.filter((e) => e.eventType === 'ActivityTaskCompleted').length, 1);
  assert.equal(events.filter((e) => e.eventType === 'WorkflowTaskStarted').length, 2, 'one task was started for the completion, not two');
});
