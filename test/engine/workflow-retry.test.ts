import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import type { HistoryEvent } from '../../src/history/events.ts';
import type { RetryPolicyData } from '../../src/retry/policy-data.ts';
import { assertContiguous, cmd, T0 } from './helpers.ts';

const policy = (over: Partial<RetryPolicyData> = {}): RetryPolicyData => ({
  initialIntervalMs: 2000, backoffCoefficient: 2, maximumIntervalMs: 100_000, maximumAttempts: 3, nonRetryableErrorTypes: ['Fatal'], ...over,
});

function started(events: HistoryEvent[]) {
  const e = events[0]!;
  assert.ok(e.eventType === 'WorkflowExecutionStarted');
  return e.attributes;
}

fixtureTest('a failed run with a retry policy continues as new: a chain with firstWorkflowTaskBackoff', async (f) => {
  const h = await f.engine();
  const { runId: first } = await h.start('wf-retry', { retryPolicy: policy() });
  const runs = [first];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const wt = await h.pollWorkflow();
    assert.equal(wt.runId, runs[attempt - 1]);
    await h.complete(wt, [cmd.fail(`run ${attempt}`)]);
    const events = await h.history('wf-retry', wt.runId);
    assertContiguous(events);
    const close = events.at(-1)!;
    if (attempt === 3) {
      assert.ok(close.eventType === 'WorkflowExecutionFailed');
      assert.equal(close.attributes.retryState, 'MaximumAttemptsReached');
      break;
    }
    assert.ok(close.eventType === 'WorkflowExecutionContinuedAsNew');
    assert.equal(close.attributes.initiator, 'RetryPolicy');
    assert.equal(close.attributes.failure?.message, `run ${attempt}`);
    const next = close.attributes.newExecutionRunId;
    runs.push(next);
    const backoff = 2000 * 2 ** (attempt - 1);
    const s = started(await h.history('wf-retry', next));
    assert.equal(s.attempt, attempt + 1);
    assert.equal(s.firstWorkflowTaskBackoffMs, backoff);
    assert.equal(s.firstExecutionRunId, first);
    assert.equal(s.continuedExecutionRunId, wt.runId);
    assert.equal(s.initiator, 'RetryPolicy');
    const d = await h.engine.describeWorkflowExecution({ workflowId: 'wf-retry' });
    assert.equal(d.execution.runId, next);
    assert.equal(d.execution.attempt, attempt + 1);
    assert.equal(d.execution.firstExecutionRunId, first);
    assert.equal(d.continuedFromRunId, wt.runId);
    assert.equal(Date.parse(d.execution.executionTime) - Date.parse(d.execution.startTime), backoff);
    assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'wf-retry', runId: wt.runId })).execution.status, 'ContinuedAsNew');
    await h.advance(backoff - 1);
    await h.noWorkflowTask();
    const p = h.pollWorkflow();
    await h.advance(1);
    await p.then((t) => h.engine.respondWorkflowTaskFailed({ taskToken: t.taskToken, cause: 'WorkflowError', failure: { kind: 'Application', message: 'retry me' }, identity: 'w' }));
  }
  assert.equal(runs.length, 3);
});

fixtureTest('a cancel request during the first workflow task backoff waits for the backoff', async (f) => {
  const h = await f.engine();
  await h.start('backoff-cancel', { retryPolicy: policy() });
  await h.complete(await h.pollWorkflow(), [cmd.fail('1')]);
  await h.engine.requestCancelWorkflowExecution({ workflowId: 'backoff-cancel' });
  await h.noWorkflowTask();
  const p = h.pollWorkflow();
  await h.advance(2000);
  const wt = await p;
  assert.deepEqual(wt.history.map((e) => e.eventType),
    ['WorkflowExecutionStarted', 'WorkflowExecutionCancelRequested', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
});

fixtureTest('a non-retryable failure type ends the chain at once', async (f) => {
  const h = await f.engine();
  await h.start('wf-fatal', { retryPolicy: policy() });
  await h.complete(await h.pollWorkflow(), [cmd.fail('bad input', 'Fatal')]);
  const close = (await h.history('wf-fatal')).at(-1)!;
  assert.ok(close.eventType === 'WorkflowExecutionFailed');
  assert.equal(close.attributes.retryState, 'NonRetryableFailure');
});

fixtureTest('the execution timeout bounds the whole chain', async (f) => {
  const h = await f.engine();
  await h.start('wf-expire', { retryPolicy: policy({ maximumAttempts: 0, initialIntervalMs: 10_000 }), workflowExecutionTimeoutMs: 25_000 });
  await h.complete(await h.pollWorkflow(), [cmd.fail('1')]);
  const p = h.pollWorkflow();
  await h.advance(10_000);
  await h.complete(await p, [cmd.timer('long', 60_000)]);
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'wf-expire' });
  assert.equal(d.execution.attempt, 2);
  await h.advance(14_999);
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'wf-expire' })).execution.status, 'Running');
  await h.advance(1);
  const now = await h.engine.describeWorkflowExecution({ workflowId: 'wf-expire' });
  assert.equal(now.execution.status, 'TimedOut');
  assert.equal(now.execution.closeTime, new Date(T0 + 25_000).toISOString());
  const close = (await h.history('wf-expire')).at(-1)!;
  assert.ok(close.eventType === 'WorkflowExecutionTimedOut');
  assert.equal(close.attributes.retryState, 'Timeout');
  const s = started(await h.history('wf-expire'));
  assert.equal(s.workflowExecutionExpirationTime, new Date(T0 + 25_000).toISOString());
});

fixtureTest('a retry that would start after the expiration is not made', async (f) => {
  const h = await f.engine();
  await h.start('wf-late', { retryPolicy: policy({ maximumAttempts: 0, initialIntervalMs: 10_000 }), workflowExecutionTimeoutMs: 5000 });
  await h.complete(await h.pollWorkflow(), [cmd.fail('x')]);
  const close = (await h.history('wf-late')).at(-1)!;
  assert.ok(close.eventType === 'WorkflowExecutionFailed');
  assert.equal(close.attributes.retryState, 'Timeout');
});

fixtureTest('a run timeout retries the run when a policy allows, and times out otherwise', async (f) => {
  const h = await f.engine();
  await h.start('run-timeout', { workflowRunTimeoutMs: 3000, retryPolicy: policy({ maximumAttempts: 2 }) });
  await h.complete(await h.pollWorkflow(), []);
  await h.advance(3000);
  let close = (await h.history('run-timeout', (await h.engine.describeWorkflowExecution({ workflowId: 'run-timeout' })).continuedFromRunId)).at(-1)!;
  assert.ok(close.eventType === 'WorkflowExecutionContinuedAsNew');
  assert.equal(close.attributes.failure?.kind, 'Timeout');
  await h.advance(2000);
  await h.complete(await h.pollWorkflow(), []);
  await h.advance(3000);
  close = (await h.history('run-timeout')).at(-1)!;
  assert.ok(close.eventType === 'WorkflowExecutionTimedOut');
  assert.equal(close.attributes.retryState, 'MaximumAttemptsReached');
});

fixtureTest('ContinueAsNewWorkflowExecution starts the next run of the chain (initiator Workflow)', async (f) => {
  const h = await f.engine();
  const { runId } = await h.start('can', { memo: { m: 1 } });
  await h.complete(await h.pollWorkflow(), [{ commandType: 'ContinueAsNewWorkflowExecution', attributes: { args: [2], backoffStartIntervalMs: 500 } }]);
  const close = (await h.history('can', runId)).at(-1)!;
  assert.ok(close.eventType === 'WorkflowExecutionContinuedAsNew');
  assert.equal(close.attributes.initiator, 'Workflow');
  await h.noWorkflowTask();
  const p = h.pollWorkflow();
  await h.advance(500);
  const wt = await p;
  assert.equal(wt.runId, close.attributes.newExecutionRunId);
  const s = started(wt.history);
  assert.deepEqual(s.args, [2]);
  assert.deepEqual(s.memo, { m: 1 });
  assert.equal(s.attempt, 1);
  assert.equal(s.firstExecutionRunId, runId);
  const waited = await h.engine.getWorkflowExecutionHistory({ workflowId: 'can', runId, closeEventOnly: true, waitForClose: true });
  assert.equal(waited.events[0]?.eventType, 'WorkflowExecutionContinuedAsNew');
});
