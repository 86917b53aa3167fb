import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import { cmd } from './helpers.ts';

fixtureTest('reset to a WorkflowTaskCompleted: history copied through its WorkflowTaskStarted, ResetWorkflow failure, pending work rebuilt', async (f) => {
  const h = await f.engine();
  const { runId } = await h.start('wf-reset');
  await h.complete(await h.pollWorkflow(), [cmd.activity('1')]);
  const at = await h.pollActivity();
  await h.engine.respondActivityTaskCompleted({ taskToken: at.taskToken, result: 'one', identity: 'w' });
  await h.complete(await h.pollWorkflow(), [cmd.timer('t1', 60_000), cmd.activity('2')]);
  const before = await h.history('wf-reset');
  const last = before.filter((e) => e.eventType === 'WorkflowTaskCompleted').at(-1)!;
  await h.engine.signalWorkflowExecution({ workflowId: 'wf-reset', signalName: 'late', args: ['s'] });
  const { runId: next } = await h.engine.resetWorkflowExecution({ workflowId: 'wf-reset', resetType: 'LastWorkflowTask', reason: 'bad deploy' });
  const old = await h.engine.describeWorkflowExecution({ workflowId: 'wf-reset', runId });
  assert.equal(old.execution.status, 'Terminated');
  const oldEvents = await h.history('wf-reset', runId);
  const term = oldEvents.at(-1)!;
  assert.ok(term.eventType === 'WorkflowExecutionTerminated');
  assert.match(term.attributes.reason, new RegExp(`reset to event ${last.eventId} of run ${runId}: bad deploy`));
  const events = await h.history('wf-reset', next);
  const copied = before.filter((e) => e.eventId < last.eventId);
  assert.deepEqual(events.slice(1, copied.length).map((e) => [e.eventId, e.eventType]), copied.slice(1).map((e) => [e.eventId, e.eventType]));
  assert.deepEqual(events.slice(copied.length).map((e) => e.eventType), ['WorkflowTaskFailed', 'WorkflowExecutionSignaled', 'WorkflowTaskScheduled']);
  const failed = events[copied.length]!;
  assert.ok(failed.eventType === 'WorkflowTaskFailed' && failed.attributes.cause === 'ResetWorkflow');
  assert.equal(failed.attributes.baseRunId, runId, "Temporal's baseRunId: the run the reset started from");
  assert.equal(failed.attributes.newRunId, next);
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'wf-reset' });
  assert.equal(d.execution.runId, next);
  assert.equal(d.execution.firstExecutionRunId, next);
  assert.equal(d.execution.originalExecutionRunId, runId);
  assert.deepEqual(d.pendingActivities, [], 'the activity of the reset task is gone; the first one had completed');
  // The new run's task carries the whole history; answering it goes on from the reset point.
  const task = await h.pollWorkflow();
  assert.equal(task.runId, next);
  await h.complete(task, [cmd.complete('done')]);
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'wf-reset' })).execution.status, 'Completed');
});

fixtureTest('reset of a closed run re-dispatches pending activities; signals may be left out', async (f) => {
  const h = await f.engine();
  const { runId } = await h.start('wf-reset-2');
  const first = await h.pollWorkflow();
  await h.complete(first, [cmd.activity('1'), cmd.timer('t', 5000)]);
  await h.engine.signalWorkflowExecution({ workflowId: 'wf-reset-2', signalName: 'sig', args: [] });
  await h.complete(await h.pollWorkflow(), [cmd.complete('x')]);
  const events = await h.history('wf-reset-2', runId);
  const second = events.filter((e) => e.eventType === 'WorkflowTaskCompleted')[1]!;
  const { runId: next } = await h.engine.resetWorkflowExecution({ workflowId: 'wf-reset-2', eventId: second.eventId, reapplySignals: false });
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'wf-reset-2', runId })).execution.status, 'Completed');
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'wf-reset-2', runId: next });
  assert.equal(d.pendingActivities.length, 1, 'the activity scheduled before the point is pending again');
  assert.ok(!(await h.types('wf-reset-2', next)).slice(second.eventId - 1).includes('WorkflowExecutionSignaled'));
  const at = await h.pollActivity();
  assert.equal(at.runId, next);
  await assert.rejects(h.engine.resetWorkflowExecution({ workflowId: 'wf-reset-2', runId: next, eventId: 2 }),
    /eventId must name a WorkflowTaskCompleted event of the run \(it has 4\), got 2/);
  await assert.rejects(h.engine.resetWorkflowExecution({ workflowId: 'wf-reset-2' } as never), /eventId or resetType/);
});

fixtureTest('reset to a point after a child started, the child having closed since: the new run receives the child\'s close', async (f) => {
  const h = await f.engine();
  const { runId } = await h.start('wf-reset-child');
  await h.complete(await h.pollWorkflow(), [{ commandType: 'StartChildWorkflowExecution', attributes: { workflowId: 'rc-kid', workflowType: 'kid', taskQueue: 'kq', args: [] } }]);
  await h.settle();
  await h.complete(await h.pollWorkflow(), []);
  await h.complete(await h.pollWorkflow('kq'), [cmd.complete('kid-done')]);
  await h.settle();
  const before = await h.history('wf-reset-child', runId);
  assert.ok(before.some((e) => e.eventType === 'ChildWorkflowExecutionCompleted'), 'the old run heard of the child');
  const started = before.find((e) => e.eventType === 'ChildWorkflowExecutionStarted')!;
  const point = before.find((e) => e.eventType === 'WorkflowTaskCompleted' && e.eventId > started.eventId)!;
  const { runId: next } = await h.engine.resetWorkflowExecution({ workflowId: 'wf-reset-child', eventId: point.eventId });
  await h.settle();
  const events = await h.history('wf-reset-child', next);
  const done = events.filter((e) => e.eventType === 'ChildWorkflowExecutionCompleted');
  assert.equal(done.length, 1, (await h.types('wf-reset-child', next)).join());
  const kid = done[0]!;
  assert.ok(kid.eventId > point.eventId && kid.eventType === 'ChildWorkflowExecutionCompleted');
  assert.equal(kid.attributes.result, 'kid-done');
  const task = await h.pollWorkflow();
  assert.equal(task.runId, next);
  await h.complete(task, [cmd.complete('parent-done')]);
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'wf-reset-child' })).execution.status, 'Completed');
});

fixtureTest('reset to a point between a signal or cancel request to another workflow and its answer sends it again from the new run', async (f) => {
  const h = await f.engine();
  await h.start('ext-target', { taskQueue: 'targets' });
  await h.start('ext-cancel-target', { taskQueue: 'targets' });
  const { runId } = await h.start('wf-ext');
  const first = await h.pollWorkflow();
  // A signal that arrives while the first task runs makes its completion schedule a second task at
  // once; a poll waiting then takes it in that commit, so the answers to the requests the first
  // task makes arrive while the second runs, after the second task's WorkflowTaskStarted.
  await h.engine.signalWorkflowExecution({ workflowId: 'wf-ext', signalName: 'go', args: [] });
  const poll = h.pollWorkflow();
  await h.settle();
  await h.complete(first, [
    { commandType: 'SignalExternalWorkflowExecution', attributes: { signalId: '1', workflowId: 'ext-target', signalName: 'hello', args: ['x'] } },
    { commandType: 'RequestCancelExternalWorkflowExecution', attributes: { workflowId: 'ext-cancel-target' } },
  ] as never);
  const second = await poll;
  await h.settle();
  await h.complete(second, []);
  const before = await h.history('wf-ext', runId);
  const initiated = before.filter((e) => e.eventType.endsWith('Initiated')).map((e) => e.eventId);
  const point = before.filter((e) => e.eventType === 'WorkflowTaskCompleted').at(-1)!;
  const started = before.find((e) => e.eventId === point.eventId - 1)!;
  assert.equal(started.eventType, 'WorkflowTaskStarted');
  assert.ok(initiated.every((id) => id < started.eventId), 'the requests are in the copied history');
  const answered = before.filter((e) => e.eventType === 'ExternalWorkflowExecutionSignaled' || e.eventType === 'ExternalWorkflowExecutionCancelRequested');
  assert.ok(answered.length === 2 && answered.every((e) => e.eventId > point.eventId), 'their answers are not');

  const { runId: next } = await h.engine.resetWorkflowExecution({ workflowId: 'wf-ext', resetType: 'LastWorkflowTask' });
  await h.settle();
  const events = await h.history('wf-ext', next);
  const answers = events.filter((e) => e.eventType === 'ExternalWorkflowExecutionSignaled' || e.eventType === 'ExternalWorkflowExecutionCancelRequested');
  assert.deepEqual(answers.map((e) => [e.eventType, (e.attributes as { initiatedEventId: number }).initiatedEventId]).sort(),
    [['ExternalWorkflowExecutionCancelRequested', initiated[1]], ['ExternalWorkflowExecutionSignaled', initiated[0]]]);
  const signals = (await h.history('ext-target')).filter((e) => e.eventType === 'WorkflowExecutionSignaled');
  assert.deepEqual(signals.map((e) => e.eventType === 'WorkflowExecutionSignaled' && e.attributes.externalWorkflowExecution?.runId), [runId, next]);
  const task = await h.pollWorkflow();
  assert.equal(task.runId, next);
  await h.complete(task, [cmd.complete('done')]);
});
