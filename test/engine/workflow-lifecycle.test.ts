import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import { ServiceError, WorkflowExecutionAlreadyStartedError } from '../../src/common/errors.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { assertContiguous, cmd, T0 } from './helpers.ts';

fixtureTest('a one-activity workflow: events, ids contiguous, history handed out after previousStartedEventId', async (f) => {
  const h = await f.engine();
  const { runId, started } = await h.start('happy', { memo: { customer: 'c-9' } });
  assert.equal(started, true);
  assert.match(runId, /^[0-9a-f-]{36}$/);
  const wt1 = await h.pollWorkflow();
  assert.equal(wt1.previousStartedEventId, 0);
  assert.deepEqual(wt1.history.map((e) => e.eventType), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
  assert.equal(wt1.startedEventId, 3);
  await h.complete(wt1, [cmd.activity('a1')]);
  const at = await h.pollActivity();
  assert.deepEqual(at.args, ['a1']);
  await h.engine.respondActivityTaskCompleted({ taskToken: at.taskToken, result: 'charged', identity: 'w' });
  const wt2 = await h.pollWorkflow();
  assert.equal(wt2.previousStartedEventId, 3);
  assert.deepEqual(wt2.history.map((e) => e.eventType),
    ['WorkflowTaskCompleted', 'ActivityTaskScheduled', 'ActivityTaskStarted', 'ActivityTaskCompleted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
  await h.complete(wt2, [cmd.complete('done')]);
  const events = await h.history('happy');
  assertContiguous(events);
  assert.equal(events.at(-1)?.eventType, 'WorkflowExecutionCompleted');
  const result = await h.engine.getWorkflowExecutionHistory({ workflowId: 'happy', closeEventOnly: true });
  assert.equal(result.events[0]?.eventType === 'WorkflowExecutionCompleted' && result.events[0].attributes.result, 'done');
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'happy' });
  assert.equal(d.execution.status, 'Completed');
  assert.deepEqual(d.execution.memo, { customer: 'c-9' });
  assert.equal(d.execution.historyLength, events.length);
  assert.equal(d.execution.firstExecutionRunId, runId);
  assert.equal(d.execution.originalExecutionRunId, runId);
  await assert.rejects(h.complete(wt2, []), (err) => err instanceof ServiceError && err.code === 'FailedPrecondition');
});

fixtureTest('events arriving while a workflow task runs are buffered after its commands', async (f) => {
  const h = await f.engine();
  await h.start('buffering');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1'), cmd.timer('t1', 1000)]);
  const at = await h.pollActivity();
  await h.advance(1000);
  const wt = await h.pollWorkflow();
  await h.engine.respondActivityTaskCompleted({ taskToken: at.taskToken, result: 1, identity: 'w' });
  await h.engine.requestCancelWorkflowExecution({ workflowId: 'buffering', reason: 'stop' });
  assert.equal((await h.types('buffering')).at(-1), 'WorkflowTaskStarted', 'nothing is appended while the task runs');
  await h.complete(wt, [cmd.timer('t2', 5000)]);
  const types = await h.types('buffering');
  assert.deepEqual(types.slice(-7), ['WorkflowTaskStarted', 'WorkflowTaskCompleted', 'TimerStarted', 'ActivityTaskStarted',
    'ActivityTaskCompleted', 'WorkflowExecutionCancelRequested', 'WorkflowTaskScheduled']);
  const wt3 = await h.pollWorkflow();
  await h.complete(wt3, [{ commandType: 'CancelWorkflowExecution', attributes: {} }]);
  const events = await h.history('buffering');
  assertContiguous(events);
  assert.equal(events.at(-1)?.eventType, 'WorkflowExecutionCanceled');
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'buffering' })).execution.status, 'Canceled');
});

fixtureTest('a closing command while new events are buffered fails the task (UnhandledCommand) and shows them', async (f) => {
  const h = await f.engine();
  await h.start('unhandled');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1')]);
  const at = await h.pollActivity();
  await h.engine.requestCancelWorkflowExecution({ workflowId: 'unhandled' });
  const wt = await h.pollWorkflow();
  await h.engine.respondActivityTaskCompleted({ taskToken: at.taskToken, result: 1, identity: 'w' });
  await h.complete(wt, [cmd.complete('too early')]);
  const wt2 = await h.pollWorkflow();
  assert.equal(wt2.attempt, 2);
  assert.ok(wt2.history.some((e) => e.eventType === 'ActivityTaskCompleted'));
  await h.complete(wt2, [cmd.complete('now')]);
  const events = await h.history('unhandled');
  assertContiguous(events);
  const failed = events.find((e) => e.eventType === 'WorkflowTaskFailed');
  assert.equal(failed?.eventType === 'WorkflowTaskFailed' && failed.attributes.cause, 'UnhandledCommand');
  assert.equal(events.at(-1)?.eventType, 'WorkflowExecutionCompleted');
});

fixtureTest('a vanished worker: the workflow task times out and is handed out again', async (f) => {
  const h = await f.engine();
  await h.start('wt-timeout', { workflowTaskTimeoutMs: 5000 });
  const lost = await h.pollWorkflow();
  await h.advance(4999);
  await h.noWorkflowTask();
  const again = h.pollWorkflow();
  await h.advance(1);
  const wt = await again;
  assert.equal(wt.attempt, 2);
  assert.deepEqual(wt.history.map((e) => e.eventType),
    ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskTimedOut', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
  assert.deepEqual(wt.history.map((e) => e.eventId), [1, 2, 3, 4, 5, 6]);
  assert.equal((await h.types('wt-timeout')).length, 4, 'the transient attempt is not stored until it completes');
  await assert.rejects(h.complete(lost, [cmd.complete(1)]), (err) => err instanceof ServiceError && err.code === 'FailedPrecondition');
  await h.advance(250);
  await h.complete(wt, [cmd.complete('ok')]);
  const events = await h.history('wt-timeout');
  assertContiguous(events);
  assert.deepEqual(events.slice(4, 6), wt.history.slice(4, 6), 'the transient events are stored as the worker saw them');
  assert.deepEqual(events.slice(4).map((e) => e.eventType), ['WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted', 'WorkflowExecutionCompleted']);
});

fixtureTest('failing workflow tasks retry with backoff and write WorkflowTaskFailed only once', async (f) => {
  const h = await f.engine();
  await h.start('wt-failing');
  const failure = { kind: 'Application' as const, message: 'nondeterminism', type: 'DeterminismViolationError' };
  const delays = [0, 0, 1000, 2000, 4000];
  let wt = await h.pollWorkflow();
  for (let attempt = 1; attempt < delays.length; attempt++) {
    await h.engine.respondWorkflowTaskFailed({ taskToken: wt.taskToken, cause: 'NonDeterminism', failure, identity: 'w' });
    const delay = delays[attempt + 0]!;
    if (delay > 0) {
      await h.advance(delay - 1);
      await h.noWorkflowTask();
      const next = h.pollWorkflow();
      await h.advance(1);
      wt = await next;
    } else {
      wt = await h.pollWorkflow();
    }
    assert.equal(wt.attempt, attempt + 1);
  }
  const types = await h.types('wt-failing');
  assert.deepEqual(types, ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskFailed']);
});

fixtureTest('terminate closes at once; pending tasks and timers become no-ops', async (f) => {
  const h = await f.engine();
  await h.start('terminate');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1'), cmd.timer('t', 1000)]);
  const at = await h.pollActivity();
  await h.engine.terminateWorkflowExecution({ workflowId: 'terminate', reason: 'operator', details: { ticket: 7 } });
  const events = await h.history('terminate');
  assertContiguous(events);
  const last = events.at(-1)!;
  assert.ok(last.eventType === 'WorkflowExecutionTerminated');
  assert.equal(last.attributes.reason, 'operator');
  await h.advance(60_000);
  assert.equal((await h.history('terminate')).length, events.length, 'the timer did not fire');
  await assert.rejects(h.engine.respondActivityTaskCompleted({ taskToken: at.taskToken, result: 1, identity: 'w' }),
    (err) => err instanceof ServiceError && err.code === 'FailedPrecondition');
  await assert.rejects(h.engine.terminateWorkflowExecution({ workflowId: 'terminate' }), (err) => err instanceof ServiceError);
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'terminate' })).execution.status, 'Terminated');
});

fixtureTest('the same request id starts once; an open id is already started whatever the policy', async (f) => {
  const h = await f.engine();
  const first = await h.start('idem', { requestId: 'req-1' });
  const again = await h.start('idem', { requestId: 'req-1' });
  assert.deepEqual(again, { runId: first.runId, started: false });
  for (const policy of ['AllowDuplicate', 'AllowDuplicateFailedOnly', 'RejectDuplicate']) {
    await assert.rejects(h.start('idem', { workflowIdReusePolicy: policy }), (err) => err instanceof WorkflowExecutionAlreadyStartedError);
  }
  const concurrent = await Promise.allSettled(Array.from({ length: 4 }, () => h.start('race', { requestId: 'r' })));
  const runIds = new Set(concurrent.map((r) => r.status === 'fulfilled' && r.value.runId));
  assert.equal(runIds.size, 1, 'concurrent starts with one request id make one run');
});

fixtureTest('id reuse policies once the run closed', async (f) => {
  const h = await f.engine();
  const finish = async (id: string, how: 'complete' | 'fail') => {
    await h.start(id);
    await h.complete(await h.pollWorkflow(), [how === 'complete' ? cmd.complete(1) : cmd.fail('no')]);
  };
  await finish('done', 'complete');
  await finish('failed', 'fail');
  assert.equal((await h.start('done', { workflowIdReusePolicy: 'AllowDuplicate' })).started, true);
  await h.engine.terminateWorkflowExecution({ workflowId: 'done' });
  await finish('done2', 'complete');
  await assert.rejects(h.start('done2', { workflowIdReusePolicy: 'AllowDuplicateFailedOnly' }), WorkflowExecutionAlreadyStartedError);
  assert.equal((await h.start('failed', { workflowIdReusePolicy: 'AllowDuplicateFailedOnly' })).started, true);
  await finish('rejected', 'fail');
  await assert.rejects(h.start('rejected', { workflowIdReusePolicy: 'RejectDuplicate' }), WorkflowExecutionAlreadyStartedError);
  const open = await h.start('running');
  const replaced = await h.start('running', { workflowIdReusePolicy: 'TerminateIfRunning' });
  assert.notEqual(replaced.runId, open.runId);
  const old = await h.engine.describeWorkflowExecution({ workflowId: 'running', runId: open.runId });
  assert.equal(old.execution.status, 'Terminated');
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'running' })).execution.runId, replaced.runId);
});

fixtureTest('every request is validated and errors name the field', async (f) => {
  const h = await f.engine();
  const cases: [Promise<unknown>, string][] = [
    [h.engine.startWorkflowExecution({ workflowId: '', workflowType: 'x', taskQueue: 'q' }), 'workflowId'],
    [h.start('v', { workflowIdReusePolicy: 'Sometimes' }), 'workflowIdReusePolicy'],
    [h.start('v', { retryPolicy: { initialIntervalMs: 1000, backoffCoefficient: 0.5, maximumIntervalMs: 1000, maximumAttempts: 0, nonRetryableErrorTypes: [] } }), 'retryPolicy.backoffCoefficient'],
    [h.start('v', { workflowTaskTimeoutMs: -1 }), 'workflowTaskTimeoutMs'],
    [h.start('v', { args: ['x'.repeat(3 * 1024 * 1024)] }), 'args'],
    [h.engine.pollWorkflowTaskQueue({ taskQueue: 'q', identity: '' }), 'identity'],
    [h.engine.respondWorkflowTaskCompleted({ taskToken: 'nope', commands: [], identity: 'w' }), 'taskToken'],
    [h.engine.listWorkflowExecutions({ pageSize: 0 }), 'pageSize'],
    [h.engine.listWorkflowExecutions({ startTimeFrom: 'yesterday' }), 'startTimeFrom'],
  ];
  for (const [p, field] of cases) {
    await assert.rejects(p, (err) => err instanceof ValidationError && err.field === field && err.message.startsWith(field), field);
  }
  assert.equal(T0 > 0, true);
});
