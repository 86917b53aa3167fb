import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure, toFailureInfo } from '../../src/common/failure.ts';
import type { Command } from '../../src/history/commands.ts';
import { WorkflowRun, WorkflowTaskFailedError } from '../../src/worker/workflow-run.ts';
import { bundleWorkflows } from '../../src/worker/bundler.ts';
import { sandboxRejectionHook } from '../../src/worker/sandbox.ts';
import { RUNTIME_WORKFLOWS, harness, replay, types } from './harness.ts';

const attrs = <T extends Command['commandType']>(c: Command | undefined, type: T) => {
  assert.equal(c?.commandType, type);
  return (c as Command<T>).attributes;
};

describe('workflow runtime, fed histories', () => {
  test('sleep emits StartTimer; the timer firing lets the workflow complete', async () => {
    const h = await harness({ workflowType: 'sleeper', args: [5000] });
    const first = await h.next();
    assert.deepEqual(first, [{ commandType: 'StartTimer', attributes: { timerId: '1', startToFireTimeoutMs: 5000 } }]);
    h.history.advance(5000).timerFired('1');
    assert.deepEqual(await h.next(), [{ commandType: 'CompleteWorkflowExecution', attributes: { result: 'woke' } }]);
    assert.equal(h.run.closed, true);
  });

  test('an activity call emits ScheduleActivityTask with the resolved options', async () => {
    const h = await harness({ workflowType: 'greeter', args: ['ada'] });
    const [cmd] = await h.next();
    assert.deepEqual(attrs(cmd, 'ScheduleActivityTask'), {
      activityId: '1', activityType: 'greet', args: ['ada'], startToCloseTimeoutMs: 10_000, heartbeatTimeoutMs: 2000,
      retryPolicy: {
        initialIntervalMs: 2000, backoffCoefficient: 3, maximumIntervalMs: 200_000, maximumAttempts: 5,
        nonRetryableErrorTypes: ['CardDeclined'],
      },
    });
    h.history.activityCompleted('1', 'hello ada');
    assert.deepEqual(attrs((await h.next())[0], 'CompleteWorkflowExecution'), { result: 'hello ada' });
  });

  test('a proxy with its own task queue and schedule-to-close timeout, no retry policy given', async () => {
    const h = await harness({ workflowType: 'elsewhere' });
    assert.deepEqual(attrs((await h.next())[0], 'ScheduleActivityTask'), {
      activityId: '1', activityType: 'charge', args: [7], taskQueue: 'elsewhere', scheduleToCloseTimeoutMs: 60_000,
    });
  });

  test('a fired timer leads to the next command', async () => {
    const h = await harness({ workflowType: 'timerThenActivity', args: ['bo'] });
    assert.deepEqual(types(await h.next()), ['StartTimer']);
    h.history.advance(60_000).timerFired('1');
    const [cmd] = await h.next();
    assert.equal(attrs(cmd, 'ScheduleActivityTask').activityType, 'greet');
  });

  test('an activity that failed for good reaches the workflow as an ActivityFailure with its cause', async () => {
    const h = await harness({ workflowType: 'chargeOrDecline', args: [5] });
    await h.next();
    h.history.activityFailed('1', toFailureInfo(ApplicationFailure.nonRetryable('card declined', 'CardDeclined')), 'NonRetryableFailure');
    const { failure } = attrs((await h.next())[0], 'FailWorkflowExecution');
    assert.equal(failure.type, 'ChargeFailed');
    assert.equal(failure.message, 'charge failed: activity charge (1) failed: card declined');
    assert.equal(failure.nonRetryable, true);
  });

  test('a thrown ApplicationFailure fails the workflow with its type and details', async () => {
    const h = await harness({ workflowType: 'throwsApplicationFailure' });
    const { failure } = attrs((await h.next())[0], 'FailWorkflowExecution');
    assert.equal(failure.kind, 'Application');
    assert.equal(failure.type, 'InvalidOrder');
    assert.deepEqual(failure.details, [{ id: 1 }]);
  });

  test('a plain Error fails the workflow task, not the workflow', async () => {
    const h = await harness({ workflowType: 'throwsPlainError' });
    await h.next();
    h.history.timerFired('1');
    await assert.rejects(h.run.apply(h.history.startTask()), (err: unknown) => {
      assert.ok(err instanceof WorkflowTaskFailedError);
      assert.equal(err.taskCause, 'WorkflowError');
      assert.match(err.message, /a bug in workflow code/);
      assert.equal(err.failure.type, 'TypeError');
      return true;
    });
  });

  test('an unknown workflow type fails the task and lists what the module exports', async () => {
    const h = await harness({ workflowType: 'noSuchWorkflow' });
    await assert.rejects(h.next(), /workflow type "noSuchWorkflow" is not exported by the workflows module; exported: .*sleeper/);
  });

  test('continueAsNew emits ContinueAsNewWorkflowExecution with the new arguments', async () => {
    const h = await harness({ workflowType: 'continuer', args: [1] });
    assert.deepEqual(await h.next(), [{ commandType: 'ContinueAsNewWorkflowExecution', attributes: { args: [2] } }]);
    const last = await harness({ workflowType: 'continuer', args: [3] });
    assert.deepEqual(attrs((await last.next())[0], 'CompleteWorkflowExecution'), { result: 3 });
  });

  test('workflow code does not see the task that failed: its events join the next task', async () => {
    const h = await harness({ workflowType: 'timerThenActivity', args: ['x'] });
    await h.next();
    h.history.timerFired('1');
    h.history.startTask();
    h.history.failTask({ kind: 'Application', message: 'worker crashed' }, 'WorkflowError');
    h.history.advance(3000).startTask();
    const commands = await replay(h.history.events);
    assert.deepEqual(types(commands!), ['ScheduleActivityTask']);
  });
});

describe('cancellation scopes', () => {
  test('a timer cancelled in the activation that started it is never sent', async () => {
    const h = await harness({ workflowType: 'cancelTimerInScope' });
    assert.deepEqual(await h.next(), [{ commandType: 'CompleteWorkflowExecution', attributes: { result: 'cancelled' } }]);
  });

  test('cancelling a scope with a scheduled activity requests its cancellation and rejects at once', async () => {
    const h = await harness({ workflowType: 'cancelActivityLater' });
    assert.deepEqual(types(await h.next()), ['ScheduleActivityTask', 'StartTimer']);
    const scheduledEventId = h.history.events.find((e) => e.eventType === 'ActivityTaskScheduled')!.eventId;
    h.history.advance(1000).timerFired('1');
    assert.deepEqual(await h.next(), [
      { commandType: 'RequestCancelActivityTask', attributes: { scheduledEventId } },
      { commandType: 'CompleteWorkflowExecution', attributes: { result: 'activity cancelled' } },
    ]);
  });

  test('withTimeout cancels the scope when its timer fires first', async () => {
    const h = await harness({ workflowType: 'withTimeout' });
    assert.deepEqual(await h.next(), [
      { commandType: 'StartTimer', attributes: { timerId: '1', startToFireTimeoutMs: 5000 } },
      { commandType: 'StartTimer', attributes: { timerId: '2', startToFireTimeoutMs: 3_600_000 } },
    ]);
    h.history.advance(5000).timerFired('1');
    assert.deepEqual(await h.next(), [
      { commandType: 'CancelTimer', attributes: { timerId: '2' } },
      { commandType: 'CompleteWorkflowExecution', attributes: { result: 'timed out' } },
    ]);
  });

  test('a cancel request cancels the root scope; nonCancellable cleanup still runs; the run ends Canceled', async () => {
    const h = await harness({ workflowType: 'cleanupAfterCancel' });
    assert.deepEqual(types(await h.next()), ['StartTimer']);
    h.history.cancelRequested();
    const cleanup = await h.next();
    assert.deepEqual(types(cleanup), ['CancelTimer', 'ScheduleActivityTask']);
    assert.deepEqual(attrs(cleanup[1], 'ScheduleActivityTask').args, ['cleanup']);
    h.history.activityCompleted('1', 'hello cleanup');
    assert.deepEqual(types(await h.next()), ['CancelWorkflowExecution']);
  });

  test('condition with a timeout returns false on timeout and true when met, cancelling its timer', async () => {
    const h = await harness({ workflowType: 'conditionWithTimeout' });
    assert.deepEqual(await h.next(), [{ commandType: 'StartTimer', attributes: { timerId: '1', startToFireTimeoutMs: 10_000 } }]);
    h.history.advance(10_000).timerFired('1');
    assert.deepEqual(types(await h.next()), ['StartTimer', 'ScheduleActivityTask']);
    h.history.activityCompleted('1', 'hello x');
    assert.deepEqual(await h.next(), [
      { commandType: 'CancelTimer', attributes: { timerId: '2' } },
      { commandType: 'CompleteWorkflowExecution', attributes: { result: [false, true] } },
    ]);
  });
});

describe('determinism inside the sandbox', () => {
  async function runDeterministic(runId: string) {
    const h = await harness({ workflowType: 'deterministic', runId });
    await h.next();
    h.history.advance(1000).timerFired('1');
    h.history.startTask();
    const events = h.history.events;
    const live = await h.run.apply(events.slice(h.run.lastEventId));
    return { h, events, result: attrs(live![0], 'CompleteWorkflowExecution').result as unknown[] };
  }

  test('Date, Math.random and uuid4 give the same values on replay, and task times as Date', async () => {
    const { h, events, result } = await runDeterministic('run-1');
    const [firstStarted, secondStarted] = events.filter((e) => e.eventType === 'WorkflowTaskStarted');
    assert.equal(result[0], Date.parse(firstStarted!.eventTime));
    assert.equal(result[1], firstStarted!.eventTime);
    assert.equal(result[4], Date.parse(secondStarted!.eventTime));
    assert.equal(result[7], 'wf-1');
    assert.match(result[3] as string, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(result[2], result[5]);
    const replayed = await replay(events);
    assert.deepEqual(attrs(replayed![0], 'CompleteWorkflowExecution').result, result);
    assert.equal(h.run.closed, true);
  });

  test('another run draws other random numbers', async () => {
    const a = await runDeterministic('run-a');
    const b = await runDeterministic('run-b');
    assert.notEqual(a.result[2], b.result[2]);
    assert.notEqual(a.result[3], b.result[3]);
  });

  test('setInterval is refused with a message pointing to sleep()', async () => {
    const h = await harness({ workflowType: 'usesSetInterval' });
    await assert.rejects(h.next(), (err: unknown) => {
      assert.ok(err instanceof WorkflowTaskFailedError);
      assert.match(err.message, /setInterval\(\) is not available in workflow code: .*loop over sleep\(\) from steadfast\/workflow/);
      return true;
    });
  });

  // setTimeout and clearTimeout threw in workflow code; Temporal's sandbox makes them durable timers.
  test('setTimeout is a durable timer whose callback runs when it fires; clearTimeout and a cancelled scope cancel it; a replay matches', async () => {
    const h = await harness({ workflowType: 'timeouts' });
    const start = (timerId: string, ms: number) => ({ commandType: 'StartTimer', attributes: { timerId, startToFireTimeoutMs: ms } });
    const cancel = (timerId: string) => ({ commandType: 'CancelTimer', attributes: { timerId } });
    assert.deepEqual(await h.next(), [start('1', 1000), start('2', 5000), start('4', 1500), start('5', 500)],
      'the timer cleared in the same task is never sent');
    h.history.advance(500).timerFired('5');
    assert.deepEqual(await h.next(), [start('6', 1500), cancel('4')], 'a scope cancels its timers as its promise settles');
    h.history.advance(500).timerFired('1');
    assert.deepEqual(await h.next(), []);
    h.history.advance(1000).timerFired('6');
    assert.deepEqual(await h.next(), [
      cancel('2'), { commandType: 'CompleteWorkflowExecution', attributes: { result: ['fired x 2', 'handles 1,2,3'] } },
    ]);
    const again = new WorkflowRun(await bundleWorkflows(RUNTIME_WORKFLOWS), { namespace: 'default', workflowId: 'wf-1', runId: 'run-1' });
    await again.apply(h.history.events);
    again.finish();
  });

  test('an unhandled rejection in workflow code fails the workflow task', async () => {
    // node:test fails whichever test is running on any unhandled rejection; step aside for this one.
    const runnerListeners = process.listeners('unhandledRejection').filter((l) => l !== sandboxRejectionHook);
    for (const l of runnerListeners) process.off('unhandledRejection', l);
    try {
      const h = await harness({ workflowType: 'unhandledRejection' });
      await assert.rejects(h.next(), /Unhandled promise rejection in workflow code: nobody waits for me/);
    } finally {
      for (const l of runnerListeners) process.on('unhandledRejection', l);
    }
  });
});
