import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import { ServiceError } from '../../src/common/errors.ts';
import type { RetryPolicyData } from '../../src/retry/policy-data.ts';
import { assertContiguous, cmd, T0 } from './helpers.ts';

const policy = (over: Partial<RetryPolicyData> = {}): RetryPolicyData => ({
  initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 100_000, maximumAttempts: 4, nonRetryableErrorTypes: [], ...over,
});
const failure = (message: string, over: Record<string, unknown> = {}) => ({ kind: 'Application' as const, message, type: 'Flaky', ...over });

fixtureTest('activity attempts run at exactly the policy intervals, then fail with MaximumAttemptsReached', async (f) => {
  const h = await f.engine();
  await h.start('retry-intervals');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1', { retryPolicy: policy() })]);
  const dispatched: number[] = [];
  let task = await h.pollActivity();
  for (;;) {
    dispatched.push(h.clock.now() - T0);
    assert.equal(task.attempt, dispatched.length);
    await h.engine.respondActivityTaskFailed({ taskToken: task.taskToken, failure: failure(`attempt ${task.attempt}`), identity: 'w' });
    if (task.attempt === 4) break;
    const interval = 1000 * 2 ** (task.attempt - 1);
    await h.advance(interval - 1);
    await h.noActivity();
    const next = h.pollActivity();
    await h.advance(1);
    task = await next;
  }
  assert.deepEqual(dispatched, [0, 1000, 3000, 7000]);
  const events = await h.history('retry-intervals');
  assertContiguous(events);
  const failed = events.find((e) => e.eventType === 'ActivityTaskFailed');
  assert.equal(failed?.eventType === 'ActivityTaskFailed' && failed.attributes.retryState, 'MaximumAttemptsReached');
  const started = events.filter((e) => e.eventType === 'ActivityTaskStarted');
  assert.equal(started.length, 1, 'ActivityTaskStarted is written once, when the activity closes');
  assert.equal(started[0]?.eventType === 'ActivityTaskStarted' && started[0].attributes.attempt, 4);
  assert.equal(started[0]?.eventType === 'ActivityTaskStarted' && started[0].attributes.lastFailure?.message, 'attempt 3');
  assert.equal(events.at(-1)?.eventType, 'WorkflowTaskScheduled');
});

fixtureTest('describe during a backoff shows the next attempt, its time, the last failure and heartbeat', async (f) => {
  const h = await f.engine();
  await h.start('describe-backoff');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1', { retryPolicy: policy({ initialIntervalMs: 5000 }) })]);
  const t1 = await h.pollActivity();
  await h.advance(200);
  await h.engine.recordActivityTaskHeartbeat({ taskToken: t1.taskToken, details: { row: 41 } });
  await h.engine.respondActivityTaskFailed({ taskToken: t1.taskToken, failure: failure('db down'), identity: 'w' });
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'describe-backoff' });
  assert.equal(d.pendingActivities.length, 1);
  const p = d.pendingActivities[0]!;
  assert.equal(p.attempt, 2);
  assert.equal(p.state, 'Scheduled');
  assert.equal(p.nextAttemptScheduleTime, new Date(T0 + 200 + 5000).toISOString());
  assert.equal(p.lastFailure?.message, 'db down');
  assert.equal(p.lastHeartbeatTime, new Date(T0 + 200).toISOString());
  assert.deepEqual(p.heartbeatDetails, { row: 41 });
  assert.equal(p.maximumAttempts, 4);
});

fixtureTest('heartbeat details of attempt 1 reach attempt 2', async (f) => {
  const h = await f.engine();
  await h.start('heartbeat-details');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1', { retryPolicy: policy() })]);
  const t1 = await h.pollActivity();
  assert.equal(t1.heartbeatDetails, undefined);
  const r = await h.engine.recordActivityTaskHeartbeat({ taskToken: t1.taskToken, details: { done: 7 } });
  assert.equal(r.cancelRequested, false);
  await h.engine.respondActivityTaskFailed({ taskToken: t1.taskToken, failure: failure('crash'), identity: 'w' });
  const next = h.pollActivity();
  await h.advance(1000);
  const t2 = await next;
  assert.equal(t2.attempt, 2);
  assert.deepEqual(t2.heartbeatDetails, { done: 7 });
});

fixtureTest('a start-to-close timeout is retried; the retry is the next attempt', async (f) => {
  const h = await f.engine();
  await h.start('stc-timeout');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1', { startToCloseTimeoutMs: 5000, retryPolicy: policy() })]);
  const t1 = await h.pollActivity();
  await h.advance(4999);
  await h.noActivity();
  await h.advance(1);
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'stc-timeout' });
  assert.equal(d.pendingActivities[0]?.attempt, 2);
  assert.equal(d.pendingActivities[0]?.lastFailure?.timeoutType, 'StartToClose');
  const next = h.pollActivity();
  await h.advance(1000);
  const t2 = await next;
  assert.equal(t2.attempt, 2);
  await assert.rejects(
    h.engine.respondActivityTaskCompleted({ taskToken: t1.taskToken, result: 'late', identity: 'w' }),
    (err) => err instanceof ServiceError && err.code === 'FailedPrecondition',
    'the timed-out attempt may not complete the activity',
  );
  await h.engine.respondActivityTaskCompleted({ taskToken: t2.taskToken, result: 'ok', identity: 'w' });
  const events = await h.history('stc-timeout');
  assertContiguous(events);
  const done = events.find((e) => e.eventType === 'ActivityTaskCompleted');
  assert.equal(done?.eventType === 'ActivityTaskCompleted' && done.attributes.result, 'ok');
  const started = events.find((e) => e.eventType === 'ActivityTaskStarted');
  assert.equal(done?.eventType === 'ActivityTaskCompleted' && done.attributes.startedEventId, started?.eventId);
});

fixtureTest('schedule-to-close bounds all attempts: ActivityTaskTimedOut with ScheduleToClose', async (f) => {
  const h = await f.engine();
  await h.start('s2c');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1', {
    startToCloseTimeoutMs: 60_000, scheduleToCloseTimeoutMs: 8000, retryPolicy: policy({ maximumAttempts: 0 }),
  })]);
  const t1 = await h.pollActivity();
  await h.engine.respondActivityTaskFailed({ taskToken: t1.taskToken, failure: failure('1'), identity: 'w' });
  const next = h.pollActivity();
  await h.advance(1000);
  const t2 = await next;
  assert.equal(t2.attempt, 2);
  await h.advance(7000);
  const events = await h.history('s2c');
  const timedOut = events.find((e) => e.eventType === 'ActivityTaskTimedOut');
  assert.ok(timedOut?.eventType === 'ActivityTaskTimedOut');
  assert.equal(timedOut.attributes.failure.timeoutType, 'ScheduleToClose');
  assert.equal(timedOut.attributes.retryState, 'Timeout');
  assert.equal(timedOut.eventTime, new Date(T0 + 8000).toISOString());
  assert.deepEqual((await h.engine.describeWorkflowExecution({ workflowId: 's2c' })).pendingActivities, []);
});

fixtureTest('a non-retryable type, or a non-retryable failure, closes the activity at once', async (f) => {
  const h = await f.engine();
  await h.start('non-retryable');
  await h.complete(await h.pollWorkflow(), [
    cmd.activity('a1', { retryPolicy: policy({ nonRetryableErrorTypes: ['CardDeclined'] }) }),
    cmd.activity('a2', { retryPolicy: policy() }),
  ]);
  const [x, y] = [await h.pollActivity(), await h.pollActivity()];
  const byId = Object.fromEntries([x, y].map((t) => [t.activityId, t]));
  await h.engine.respondActivityTaskFailed({ taskToken: byId.a1!.taskToken, failure: failure('declined', { type: 'CardDeclined' }), identity: 'w' });
  await h.engine.respondActivityTaskFailed({ taskToken: byId.a2!.taskToken, failure: failure('bad', { nonRetryable: true }), identity: 'w' });
  const failed = (await h.history('non-retryable')).filter((e) => e.eventType === 'ActivityTaskFailed');
  assert.deepEqual(failed.map((e) => e.eventType === 'ActivityTaskFailed' && [e.attributes.failure.message, e.attributes.retryState]),
    [['declined', 'NonRetryableFailure'], ['bad', 'NonRetryableFailure']]);
});

fixtureTest('nextRetryDelayMs on a failure sets that retry interval', async (f) => {
  const h = await f.engine();
  await h.start('next-delay');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1', { retryPolicy: policy() })]);
  const t1 = await h.pollActivity();
  await h.engine.respondActivityTaskFailed({ taskToken: t1.taskToken, failure: failure('slow down', { nextRetryDelayMs: 30_000 }), identity: 'w' });
  await h.advance(29_999);
  await h.noActivity();
  const next = h.pollActivity();
  await h.advance(1);
  assert.equal((await next).attempt, 2);
});

fixtureTest('the default policy retries after 1 s; an activity without start-to-close or schedule-to-close is a BadCommand', async (f) => {
  const h = await f.engine();
  await h.start('defaults');
  const wt = await h.pollWorkflow();
  await assert.rejects(
    h.complete(wt, [{ commandType: 'ScheduleActivityTask', attributes: { activityId: 'x', activityType: 'charge', args: [] } }]),
    /commands\[0\]\.attributes\.startToCloseTimeoutMs is required/,
  );
  const events = await h.history('defaults');
  const wtf = events.find((e) => e.eventType === 'WorkflowTaskFailed');
  assert.equal(wtf?.eventType === 'WorkflowTaskFailed' && wtf.attributes.cause, 'BadCommand');
  const wt2 = await h.pollWorkflow();
  assert.equal(wt2.attempt, 2);
  await h.complete(wt2, [cmd.activity('a1')]);
  const scheduled = (await h.history('defaults')).find((e) => e.eventType === 'ActivityTaskScheduled');
  assert.deepEqual(scheduled?.eventType === 'ActivityTaskScheduled' && scheduled.attributes.retryPolicy, {
    initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 100_000, maximumAttempts: 0, nonRetryableErrorTypes: [],
  });
  const t1 = await h.pollActivity();
  await h.engine.respondActivityTaskFailed({ taskToken: t1.taskToken, failure: failure('x'), identity: 'w' });
  const next = h.pollActivity();
  await h.advance(1000);
  assert.equal((await next).attempt, 2);
});

fixtureTest('cancel: a scheduled activity is canceled at once; a started one learns it from its heartbeat', async (f) => {
  const h = await f.engine();
  await h.start('cancel-activity');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1', { taskQueue: 'other' }), cmd.activity('a2'), cmd.timer('t', 1000)]);
  const running = await h.pollActivity();
  assert.equal(running.activityId, 'a2');
  const seid = Object.fromEntries((await h.history('cancel-activity'))
    .flatMap((e) => (e.eventType === 'ActivityTaskScheduled' ? [[e.attributes.activityId, e.eventId]] : [])));
  const wt2 = h.pollWorkflow();
  await h.advance(1000);
  await h.complete(await wt2, [
    { commandType: 'RequestCancelActivityTask', attributes: { scheduledEventId: seid.a1! } },
    { commandType: 'RequestCancelActivityTask', attributes: { scheduledEventId: seid.a2! } },
  ]);
  let types = await h.types('cancel-activity');
  assert.deepEqual(types.slice(-5), [
    'WorkflowTaskCompleted', 'ActivityTaskCancelRequested', 'ActivityTaskCanceled', 'ActivityTaskCancelRequested', 'WorkflowTaskScheduled',
  ]);
  assert.equal(types.filter((t) => t === 'ActivityTaskCanceled').length, 1, 'only the scheduled activity is canceled at once');
  assert.equal(types.at(-1), 'WorkflowTaskScheduled', 'the workflow is told of the cancellation');
  assert.equal((await h.engine.recordActivityTaskHeartbeat({ taskToken: running.taskToken })).cancelRequested, true);
  await h.complete(await h.pollWorkflow(), []);
  await h.engine.respondActivityTaskCanceled({ taskToken: running.taskToken, details: 'stopped', identity: 'w' });
  const events = await h.history('cancel-activity');
  assertContiguous(events);
  const canceled = events.filter((e) => e.eventType === 'ActivityTaskCanceled');
  const last = canceled.at(-1)!;
  assert.ok(last.eventType === 'ActivityTaskCanceled');
  assert.equal(last.attributes.scheduledEventId, seid.a2);
  assert.equal(events.find((e) => e.eventId === last.attributes.startedEventId)?.eventType, 'ActivityTaskStarted');
  assert.equal(events.find((e) => e.eventId === last.attributes.latestCancelRequestedEventId)?.eventType, 'ActivityTaskCancelRequested');
  await h.engine.pollActivityTaskQueue({ taskQueue: 'other', identity: 'w', pollTimeoutMs: 20 }).then((t) => assert.equal(t, null));
  types = await h.types('cancel-activity');
  assert.equal(types.at(-1), 'WorkflowTaskScheduled');
});

fixtureTest('a missed heartbeat times the attempt out and retries; a heartbeat moves the deadline', async (f) => {
  const h = await f.engine();
  await h.start('heartbeat-timeout');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1', { heartbeatTimeoutMs: 2000, startToCloseTimeoutMs: 60_000, retryPolicy: policy() })]);
  const t1 = await h.pollActivity();
  assert.equal(t1.heartbeatTimeoutMs, 2000);
  await h.advance(1500);
  await h.engine.recordActivityTaskHeartbeat({ taskToken: t1.taskToken, details: 'half' });
  await h.advance(1999);
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'heartbeat-timeout' })).pendingActivities[0]?.attempt, 1);
  await h.advance(1);
  const p = (await h.engine.describeWorkflowExecution({ workflowId: 'heartbeat-timeout' })).pendingActivities[0]!;
  assert.equal(p.attempt, 2);
  assert.equal(p.lastFailure?.timeoutType, 'Heartbeat');
  assert.equal(p.lastFailure?.lastHeartbeatDetails, 'half');
  const next = h.pollActivity();
  await h.advance(1000);
  assert.equal((await next).heartbeatDetails, 'half');
});

fixtureTest('a schedule-to-start timeout closes the activity without a retry', async (f) => {
  const h = await f.engine();
  await h.start('s2s');
  await h.complete(await h.pollWorkflow(), [cmd.activity('a1', { taskQueue: 'nobody', scheduleToStartTimeoutMs: 3000, retryPolicy: policy() })]);
  await h.advance(3000);
  const events = await h.history('s2s');
  const t = events.find((e) => e.eventType === 'ActivityTaskTimedOut');
  assert.ok(t?.eventType === 'ActivityTaskTimedOut');
  assert.equal(t.attributes.failure.timeoutType, 'ScheduleToStart');
  assert.equal(t.attributes.startedEventId, 0);
  assert.ok(!events.some((e) => e.eventType === 'ActivityTaskStarted'));
  await h.engine.pollActivityTaskQueue({ taskQueue: 'nobody', identity: 'w', pollTimeoutMs: 20 }).then((x) => assert.equal(x, null));
});

fixtureTest('a curve policy in a ScheduleActivityTask command is validated by the engine, naming the field', async (f) => {
  const h = await f.engine();
  await h.start('bad-curve');
  const retryPolicy = {
    version: 1, source: 'polly', curve: { kind: 'constant', delayMs: -1 }, maximumAttempts: 3, jitter: 0, fastFirst: false, nonRetryableErrorTypes: [],
  };
  await assert.rejects(h.complete(await h.pollWorkflow(), [cmd.activity('a1', { retryPolicy } as never)]),
    /commands\[0\]\.attributes\.retryPolicy\.curve\.delayMs must be a finite number >= 0, got -1/);
  const wt2 = await h.pollWorkflow();
  await h.complete(wt2, [cmd.activity('a1', { retryPolicy: { ...retryPolicy, curve: { kind: 'fixed', intervalsMs: [500, 2500] } } } as never)]);
  const dispatched: number[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const next = h.pollActivity();
    if (attempt > 1) await h.advance([500, 2500][attempt - 2]!);
    const task = await next;
    dispatched.push(h.clock.now() - T0);
    await h.engine.respondActivityTaskFailed({ taskToken: task.taskToken, failure: failure(`attempt ${attempt}`), identity: 'w' });
  }
  assert.deepEqual(dispatched, [0, 500, 3000]);
  const failed = (await h.history('bad-curve')).find((e) => e.eventType === 'ActivityTaskFailed');
  assert.equal(failed?.eventType === 'ActivityTaskFailed' && failed.attributes.retryState, 'MaximumAttemptsReached');
});
