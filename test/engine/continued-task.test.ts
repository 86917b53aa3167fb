import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import type { ActivityTask, ContinuedWorkflowTask } from '../../src/protocol/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { assertContiguous, cmd, T0, type Harness } from './helpers.ts';

/** A run whose first task scheduled activity a1, and that activity's started task; `after` is the run's last event. */
async function runningActivity(h: Harness, id: string): Promise<{ activity: ActivityTask; after: number }> {
  await h.start(id);
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1')]);
  const activity = await h.pollActivity();
  return { activity, after: (await h.history(id)).length };
}

/** The continued task a worker sends when the run is as it last saw it. */
function continued(after: number, commands: ContinuedWorkflowTask['commands'], extra: Partial<ContinuedWorkflowTask> = {}): ContinuedWorkflowTask {
  return { afterEventId: after, startedEventId: after + 4, startedTimeMs: T0 + 5, taskQueue: 'q', commands, ...extra };
}

fixtureTest('an activity completion that carries its workflow task records both in one transition', async (f) => {
  const h = await f.engine();
  const { activity, after } = await runningActivity(h, 'cont-1');
  // The worker's time for its task (`continued`: T0 + 5) has come on the service's clock.
  await h.clock.advance(5);
  const answer = await h.engine.respondActivityTaskCompleted({
    taskToken: activity.taskToken, result: 'paid', identity: 'worker-1', workflowTask: continued(after, [cmd.complete('done')]),
  });
  assert.equal(answer.workflowTask?.accepted, true);
  assert.deepEqual(answer.workflowTask?.events?.map((e) => e.eventType), ['WorkflowTaskCompleted', 'WorkflowExecutionCompleted']);
  const events = await h.history('cont-1');
  assertContiguous(events);
  assert.deepEqual(events.slice(after).map((e) => e.eventType), [
    'ActivityTaskStarted', 'ActivityTaskCompleted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted', 'WorkflowExecutionCompleted',
  ]);
  // The activity's close and the task's start carry the time the worker ran the code at.
  const at = new Date(T0 + 5).toISOString();
  assert.deepEqual(events.slice(after, after + 4).map((e) => e.eventTime), [at, at, at, at]);
  assert.deepEqual(answer.workflowTask?.events, events.slice(after + 4));
  const completedTask = events[after + 4]!;
  assert.equal(completedTask.eventType === 'WorkflowTaskCompleted' && completedTask.attributes.startedEventId, after + 4);
  // Nothing of the task is left behind: no row to poll, no timeout to fire.
  await h.noWorkflowTask();
  await h.advance(60_000);
  assert.equal((await h.history('cont-1')).length, events.length);
});

fixtureTest('a continued task that schedules the next activity hands it out like any completion', async (f) => {
  const h = await f.engine();
  const { activity, after } = await runningActivity(h, 'cont-next');
  await h.clock.advance(5);
  const answer = await h.engine.respondActivityTaskCompleted({
    taskToken: activity.taskToken, result: 1, identity: 'worker-1', workflowTask: continued(after, [cmd.activity('a2')]),
  });
  assert.deepEqual(answer.workflowTask?.events?.map((e) => e.eventType), ['WorkflowTaskCompleted', 'ActivityTaskScheduled']);
  const next = await h.pollActivity();
  assert.equal(next.activityId, 'a2');
  // The usual path carries on: the next activity's completion schedules a task a poll gets.
  await h.engine.respondActivityTaskCompleted({ taskToken: next.taskToken, result: 2, identity: 'worker-1' });
  const task = await h.pollWorkflow();
  assert.equal(task.previousStartedEventId, after + 4);
  assert.deepEqual(task.history.map((e) => e.eventType),
    ['WorkflowTaskCompleted', 'ActivityTaskScheduled', 'ActivityTaskStarted', 'ActivityTaskCompleted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
  await h.complete(task, [cmd.complete('done')]);
  assertContiguous(await h.history('cont-next'));
});

fixtureTest('a run that moved on since the worker saw it records the activity alone, and the task goes out as usual', async (f) => {
  const h = await f.engine();
  // Each case is the accepted continuation (the worker's time: now on the service's clock) but for one thing.
  const cases: [string, (after: number, now: number) => Partial<ContinuedWorkflowTask>, ((id: string) => Promise<unknown>)?][] = [
    ['a signal arrived', () => ({}), (id) => h.engine.signalWorkflowExecution({ workflowId: id, signalName: 'poke', args: [] })],
    ['the worker knows fewer events', (after) => ({ afterEventId: after - 1, startedEventId: after + 3 })],
    ['another started-event id', (after) => ({ startedEventId: after + 5 })],
    ['another task queue', () => ({ taskQueue: 'other' })],
    ['a time ahead of the service\'s clock', (_, now) => ({ startedTimeMs: now + 1 })],
    ['a time before the attempt started', () => ({ startedTimeMs: T0 - 60_000 })],
  ];
  for (const [why, change, before] of cases) {
    const id = `cont-moved-${cases.findIndex((c) => c[0] === why)}`;
    const { activity, after } = await runningActivity(h, id);
    await before?.(id);
    await h.clock.advance(5);
    const now = h.clock.now();
    const answer = await h.engine.respondActivityTaskCompleted({
      taskToken: activity.taskToken, result: 'paid', identity: 'worker-1',
      workflowTask: continued(after, [cmd.complete('done')], { startedTimeMs: now, ...change(after, now) }),
    });
    assert.deepEqual(answer.workflowTask, { accepted: false }, why);
    const task = await h.pollWorkflow();
    const types = task.history.map((e) => e.eventType);
    const expected = before
      ? ['WorkflowExecutionSignaled', 'WorkflowTaskScheduled', 'ActivityTaskStarted', 'ActivityTaskCompleted', 'WorkflowTaskStarted']
      : ['ActivityTaskStarted', 'ActivityTaskCompleted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted'];
    assert.deepEqual(types.slice(-expected.length), expected, why);
    await h.complete(task, [cmd.complete('done')]);
    const events = await h.history(id);
    assertContiguous(events);
    assert.equal(events.at(-1)!.eventType, 'WorkflowExecutionCompleted', why);
  }
});

fixtureTest('a continued task with a refused command is not recorded: it goes out, and fails there as BadCommand', async (f) => {
  const h = await f.engine();
  const { activity, after } = await runningActivity(h, 'cont-bad');
  const bad = { commandType: 'StartTimer', attributes: { timerId: 't', startToFireTimeoutMs: -1 } } as never;
  const answer = await h.engine.respondActivityTaskCompleted({
    taskToken: activity.taskToken, result: 'paid', identity: 'worker-1', workflowTask: continued(after, [bad]),
  });
  assert.deepEqual(answer.workflowTask, { accepted: false });
  const task = await h.pollWorkflow();
  await assert.rejects(h.complete(task, [bad]), ValidationError);
  const types = await h.types('cont-bad');
  assert.deepEqual(types.slice(after), [
    'ActivityTaskStarted', 'ActivityTaskCompleted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskFailed',
  ]);
});

fixtureTest('a continued task is validated with the request, naming the field', async (f) => {
  const h = await f.engine();
  const { activity, after } = await runningActivity(h, 'cont-input');
  await assert.rejects(h.engine.respondActivityTaskCompleted({
    taskToken: activity.taskToken, result: 'paid', identity: 'worker-1', workflowTask: continued(after, [], { afterEventId: -1 }),
  }), /workflowTask\.afterEventId must be >= 1, got -1/);
  await assert.rejects(h.engine.respondActivityTaskCompleted({
    taskToken: activity.taskToken, result: 'paid', identity: 'worker-1', workflowTask: continued(after, [], { taskQueue: 7 as never }),
  }), /workflowTask\.taskQueue/);
  // Nothing was recorded: the attempt is still running and completes normally.
  assert.equal((await h.history('cont-input')).length, after);
  await h.engine.respondActivityTaskCompleted({ taskToken: activity.taskToken, result: 'paid', identity: 'worker-1' });
  assert.equal((await h.pollWorkflow()).history.at(-1)!.eventType, 'WorkflowTaskStarted');
});

fixtureTest('a workflow task completion answers with the events it appended after the task started', async (f) => {
  const h = await f.engine();
  await h.start('cont-answer');
  const task = await h.pollWorkflow();
  const answer = await h.engine.respondWorkflowTaskCompleted({ taskToken: task.taskToken, commands: [cmd.activity('a1'), cmd.timer('t1', 1000)], identity: 'worker-1' });
  const events = await h.history('cont-answer');
  assert.deepEqual(answer.events, events.slice(task.startedEventId));
  assert.deepEqual(answer.events?.map((e) => e.eventType), ['WorkflowTaskCompleted', 'ActivityTaskScheduled', 'TimerStarted']);
});
