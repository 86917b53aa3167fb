import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureTest } from '../helpers/fixture.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import type { TaskRecord, TimerRecord, Transition } from '../../src/store/types.ts';
import { HOLD_MS, mergeTransitions } from '../../src/engine/held-commits.ts';
import { ServiceError, WorkflowNotFoundError } from '../../src/common/errors.ts';
import { assertContiguous, cmd, comparableHistory, type Harness } from './helpers.ts';

/** Counts the store's commits that write executions. */
function countCommits(h: Harness): { runs: number[] } {
  const seen = { runs: [] as number[] };
  const commit = h.store.commit.bind(h.store);
  h.store.commit = (t) => {
    if (t.executions.length > 0) seen.runs.push(t.executions.length);
    return commit(t);
  };
  return seen;
}

fixtureTest('a start whose workflow task completes while the start is held is written with the completion, in one commit', async (f) => {
  const h = await f.engine();
  const histories: ReturnType<typeof comparableHistory>[] = [];
  for (const prompt of [true, false]) {
    const id = `held-${prompt}`;
    const poll = h.pollWorkflow();
    await h.settle();
    const commits = countCommits(h);
    let started = false;
    const start = h.start(id).then(() => (started = true));
    const task = await poll;
    // Answered at once, or after the hold ended and the start was written alone.
    if (!prompt) await start;
    assert.equal(started, !prompt, 'a held start is answered once it is written');
    await h.complete(task, [cmd.activity('a1')]);
    await start;
    assert.deepEqual(commits.runs, prompt ? [1] : [1, 1]);
    const events = await h.history(id);
    assertContiguous(events);
    histories.push(comparableHistory(events));
  }
  assert.deepEqual(histories[0], histories[1]);
});

fixtureTest('a held start that its store refuses (the workflow id has a run) is retried; its completion is refused', async (f) => {
  const h = await f.engine();
  // The id's first run, closed: a start assumes the id unused, and the store refuses that once.
  await h.start('reused');
  await h.complete(await h.pollWorkflow(), [cmd.complete('first')]);
  const polls = [h.pollWorkflow(), h.pollWorkflow()];
  await h.settle();
  const start = h.start('reused');
  const orphan = await polls[0]!;
  await assert.rejects(h.complete(orphan, [cmd.complete('from the refused start')]),
    (err: Error) => err instanceof WorkflowNotFoundError || (err instanceof ServiceError && /not the started task|not found/.test(err.message)));
  const { runId } = await start;
  const task = await polls[1]!;
  assert.equal(task.runId, runId);
  assert.notEqual(orphan.runId, runId);
  await h.complete(task, [cmd.complete('second')]);
  const events = await h.history('reused', runId);
  assertContiguous(events);
  assert.equal((events.at(-1)!.attributes as { result?: unknown }).result, 'second');
});

fixtureTest('the history of a run read by its id while its start is held: the start is written first, and the read sees it', async (f) => {
  const h = await f.engine();
  const poll = h.pollWorkflow();
  await h.settle();
  const start = h.start('held-read');
  const task = await poll;
  // A worker without the run cached fetches its history before it runs the task.
  const { events } = await h.engine.getWorkflowExecutionHistory({ workflowId: 'held-read', runId: task.runId });
  assert.deepEqual(events.map((e) => e.eventType), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
  await start;
  await h.complete(task, [cmd.complete('done')]);
  assertContiguous(await h.history('held-read'));
});

fixtureTest('a held start is written when the engine shuts down, without waiting out the hold', async (f) => {
  const h = await f.engine();
  const poll = h.pollWorkflow();
  await h.settle();
  const start = h.start('held-shutdown');
  await poll;
  const t0 = performance.now();
  await h.engine.shutdown();
  await start;
  assert.ok(performance.now() - t0 < HOLD_MS * 20);
  assert.ok((await h.store.readHistory((await start).runId, 1, 10)).length > 0);
});

const ev = (eventId: number, eventType = 'WorkflowTaskCompleted'): HistoryEvent => ({ eventId, eventType, eventTime: '2026-01-01T00:00:00.000Z', attributes: {} } as never);
const rec = (version: number, nextEventId: number, status = 'Running') => ({
  namespace: 'default', workflowId: 'w', runId: 'r', workflowType: 't', taskQueue: 'q', status, startTime: 0, executionTime: 0,
  nextEventId, attempt: 1, firstExecutionRunId: 'r', originalExecutionRunId: 'r', version, state: {},
}) as never;
const task = (id: string, runId = 'r'): TaskRecord => ({ id, namespace: 'default', taskQueue: 'q', kind: 'workflow', runId, visibleAt: 0, data: {} });
const timer = (id: string, runId = 'r'): TimerRecord => ({ id, namespace: 'default', runId, kind: 'UserTimer', dueAt: 0, data: {} });

test('merged transitions: one write of the run at the later version, checked as the first; rows made and dropped between them vanish', () => {
  const first: Transition = {
    executions: [{ record: rec(1, 4), events: [ev(1), ev(2), ev(3)], firstOfWorkflowId: true }],
    createTasks: [task('k1'), task('k2')], createTimers: [timer('t1'), timer('t2')],
  };
  const next: Transition = {
    executions: [{ record: rec(2, 6), expectedVersion: 1, events: [ev(4), ev(5)] }],
    createTasks: [task('k3')], deleteTaskIds: ['k1', 'k-old'], createTimers: [timer('t3')], deleteTimerIds: ['t1'],
  };
  assert.deepEqual(mergeTransitions(first, next), {
    executions: [{ record: rec(2, 6), events: [ev(1), ev(2), ev(3), ev(4), ev(5)], firstOfWorkflowId: true }],
    createTasks: [task('k2'), task('k3')], deleteTaskIds: ['k-old'], createTimers: [timer('t2'), timer('t3')], deleteTimerIds: [],
  });
  // `next` closes the run: the rows `first` made for it are not written (the purge would not see them); another run's stay.
  const closing: Transition = { ...next, createTasks: [], createTimers: [timer('d', 'parent')], purgeRunIds: ['r'] };
  const merged = mergeTransitions({ ...first, createTimers: [timer('t1'), timer('p', 'parent')] }, closing)!;
  assert.deepEqual(merged.createTimers, [timer('p', 'parent'), timer('d', 'parent')]);
  assert.deepEqual(merged.createTasks, []);
  assert.deepEqual(merged.purgeRunIds, ['r']);
  // Not one write: another run, a version not the first's, a consumed timer, a schedule.
  assert.equal(mergeTransitions(first, { ...next, executions: [...next.executions, { record: rec(1, 2), events: [ev(1)] }] }), undefined);
  assert.equal(mergeTransitions(first, { ...next, executions: [{ ...next.executions[0]!, expectedVersion: 2 }] }), undefined);
  assert.equal(mergeTransitions(first, { ...next, consumeTimerId: 't2' }), undefined);
  assert.equal(mergeTransitions(first, { ...next, schedules: [{ record: { namespace: 'default', scheduleId: 's', createTime: 0, version: 2, state: {} }, expectedVersion: 1 }] }), undefined);
});

test('merged transitions keep the first one\'s check: its expected version and its consumed timer', () => {
  const first: Transition = { executions: [{ record: rec(5, 9), expectedVersion: 4, events: [ev(7), ev(8)] }], consumeTimerId: 'fired' };
  const next: Transition = { executions: [{ record: rec(6, 10), expectedVersion: 5, events: [ev(9)] }] };
  assert.deepEqual(mergeTransitions(first, next), {
    executions: [{ record: rec(6, 10), expectedVersion: 4, events: [ev(7), ev(8), ev(9)] }],
    createTasks: [], deleteTaskIds: [], createTimers: [], deleteTimerIds: [], consumeTimerId: 'fired',
  });
});

