import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import { cmd, T0 } from './helpers.ts';

fixtureTest('a completion that asks for eager activities gets those it schedules on the run\'s queue, started, up to the number asked', async (f) => {
  const h = await f.engine();
  await h.start('eager-1');
  const task = await h.pollWorkflow();
  const answer = await h.engine.respondWorkflowTaskCompleted({
    taskToken: task.taskToken, identity: 'worker-1', eagerActivities: 2,
    commands: [cmd.activity('a1'), cmd.activity('elsewhere', { taskQueue: 'other' }), cmd.activity('a2'), cmd.activity('a3')],
  });
  assert.deepEqual(answer.activityTasks?.map((t) => [t.activityId, t.attempt, t.startedTime]), [
    ['a1', 1, new Date(T0).toISOString()], ['a2', 1, new Date(T0).toISOString()],
  ]);
  // The rest go through polls as usual; the eager ones are not on the queue.
  assert.equal((await h.pollActivity()).activityId, 'a3');
  assert.equal((await h.pollActivity('other')).activityId, 'elsewhere');
  await h.noActivity();
  // An eager attempt is answered like a polled one.
  await h.engine.respondActivityTaskCompleted({ taskToken: answer.activityTasks![0]!.taskToken, result: 1, identity: 'worker-1' });
  const next = await h.pollWorkflow();
  assert.deepEqual(next.history.filter((e) => e.eventType === 'ActivityTaskStarted').map((e) => e.eventType === 'ActivityTaskStarted' && e.attributes.identity), ['worker-1']);
});

fixtureTest('an eager activity whose answer never reached its worker is retried after its start-to-close timeout', async (f) => {
  const h = await f.engine();
  await h.start('eager-lost');
  const task = await h.pollWorkflow();
  const answer = await h.engine.respondWorkflowTaskCompleted({
    taskToken: task.taskToken, identity: 'worker-1', eagerActivities: 1, commands: [cmd.activity('a1', { startToCloseTimeoutMs: 5_000 })],
  });
  assert.equal(answer.activityTasks?.length, 1);
  await h.noActivity();
  await h.advance(5_001);
  // The timeout is a failed attempt: the retry policy's first interval (1 s) comes first.
  await h.advance(1_000);
  const retry = await h.pollActivity();
  assert.deepEqual([retry.activityId, retry.attempt], ['a1', 2]);
});

fixtureTest('a continued workflow task asks for eager activities too', async (f) => {
  const h = await f.engine();
  await h.start('eager-cont');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1')]);
  const activity = await h.pollActivity();
  const after = (await h.history('eager-cont')).length;
  const answer = await h.engine.respondActivityTaskCompleted({
    taskToken: activity.taskToken, result: 'ok', identity: 'worker-1',
    workflowTask: { afterEventId: after, startedEventId: after + 4, startedTimeMs: T0, taskQueue: 'q', commands: [cmd.activity('a2')], eagerActivities: 1 },
  });
  assert.equal(answer.workflowTask?.accepted, true);
  assert.deepEqual(answer.workflowTask?.activityTasks?.map((t) => t.activityId), ['a2']);
  await h.noActivity();
});

fixtureTest('eagerActivities is validated, naming the field', async (f) => {
  const h = await f.engine();
  await h.start('eager-bad');
  const task = await h.pollWorkflow();
  await assert.rejects(h.engine.respondWorkflowTaskCompleted({ taskToken: task.taskToken, identity: 'worker-1', eagerActivities: -1, commands: [] }),
    /eagerActivities must be >= 0, got -1/);
  await assert.rejects(h.engine.respondWorkflowTaskCompleted({ taskToken: task.taskToken, identity: 'worker-1', eagerActivities: 1.5, commands: [] }),
    /eagerActivities must be an integer/);
  // Refused before anything was recorded: the task is still started, and completes.
  await h.complete(task, [cmd.complete('done')]);
});
