import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import type { HistoryEvent } from '../../src/history/events.ts';
import { assertContiguous, cmd, T0, type Harness } from './helpers.ts';

const H = 3_600_000;
const DAY = 24 * H;

function startedOf(events: HistoryEvent[]) {
  const e = events[0]!;
  assert.ok(e.eventType === 'WorkflowExecutionStarted');
  return e.attributes;
}

/** The close event of a run, which must be a cron continue-as-new; returns its attributes. */
async function cronClose(h: Harness, workflowId: string, runId: string) {
  const events = await h.history(workflowId, runId);
  assertContiguous(events);
  const close = events.at(-1)!;
  assert.ok(close.eventType === 'WorkflowExecutionContinuedAsNew', `run ${runId} closed with ${close.eventType}`);
  assert.equal(close.attributes.initiator, 'CronSchedule');
  return close.attributes;
}

async function latest(h: Harness, workflowId: string) {
  return h.engine.describeWorkflowExecution({ workflowId });
}

fixtureTest('a cron job: first run backs off to the fire time, each close starts the next run in the same transition', async (f) => {
  const h = await f.engine();
  // T0 is 2026-01-01T00:00Z; the job fires daily at 06:00 UTC.
  const { runId: first } = await h.start('cron-daily', { cronSchedule: '0 6 * * *' });
  const s1 = startedOf(await h.history('cron-daily', first));
  assert.equal(s1.cronSchedule, '0 6 * * *');
  assert.equal(s1.firstWorkflowTaskBackoffMs, 6 * H);
  let d = await latest(h, 'cron-daily');
  assert.equal(d.config.cronSchedule, '0 6 * * *');
  assert.equal(d.execution.executionTime, '2026-01-01T06:00:00.000Z');
  await h.advance(6 * H - 1);
  await h.noWorkflowTask();
  await h.advance(1);
  const wt1 = await h.pollWorkflow();
  assert.equal(wt1.runId, first);
  await h.complete(wt1, [cmd.complete({ day: 1 })]);

  const c1 = await cronClose(h, 'cron-daily', first);
  assert.deepEqual(c1.lastCompletionResult, { day: 1 });
  assert.equal(c1.backoffStartIntervalMs, DAY);
  const second = c1.newExecutionRunId;
  const s2 = startedOf(await h.history('cron-daily', second));
  assert.equal(s2.initiator, 'CronSchedule');
  assert.equal(s2.attempt, 1);
  assert.equal(s2.firstExecutionRunId, first);
  assert.equal(s2.continuedExecutionRunId, first);
  assert.deepEqual(s2.args, ['o-1']);
  assert.deepEqual(s2.lastCompletionResult, { day: 1 });
  assert.equal(s2.continuedFailure, undefined);
  assert.equal(s2.cronSchedule, '0 6 * * *');
  d = await latest(h, 'cron-daily');
  assert.equal(d.execution.runId, second);
  assert.equal(d.execution.executionTime, '2026-01-02T06:00:00.000Z');
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'cron-daily', runId: first })).execution.status, 'ContinuedAsNew');

  // Run 2 stays open past its next fire time (01-03 06:00): the next run starts as it closes.
  await h.advance(DAY);
  const wt2 = await h.pollWorkflow();
  assert.equal(wt2.runId, second);
  await h.complete(wt2, [cmd.timer('t', 30 * H)]);
  await h.advance(30 * H);
  await h.complete(await h.pollWorkflow(), [cmd.fail('disk full', 'DiskFull')]);
  const c2 = await cronClose(h, 'cron-daily', second);
  assert.equal(c2.failure?.message, 'disk full');
  assert.equal(c2.backoffStartIntervalMs, undefined);
  const third = c2.newExecutionRunId;
  const s3 = startedOf(await h.history('cron-daily', third));
  assert.equal(s3.firstWorkflowTaskBackoffMs, undefined);
  assert.deepEqual(s3.lastCompletionResult, { day: 1 }, 'a failed run passes the last completion result on');
  assert.equal(s3.continuedFailure?.type, 'DiskFull');
  const wt3 = await h.pollWorkflow();
  assert.equal(wt3.runId, third);
  assert.equal(Date.parse(wt3.history[0]!.eventTime), T0 + 2 * DAY + 12 * H);

  // A cancel request affects only the current run: the chain goes on.
  await h.complete(wt3, [cmd.timer('wait', H)]);
  await h.engine.requestCancelWorkflowExecution({ workflowId: 'cron-daily', reason: 'skip today' });
  await h.complete(await h.pollWorkflow(), [{ commandType: 'CancelWorkflowExecution', attributes: { details: 'skipped' } }]);
  const c3 = await cronClose(h, 'cron-daily', third);
  assert.equal(c3.failure?.kind, 'Canceled');
  const fourth = c3.newExecutionRunId;
  assert.equal(c3.backoffStartIntervalMs, 18 * H, 'from 01-03 12:00 to 01-04 06:00');
  const s4 = startedOf(await h.history('cron-daily', fourth));
  assert.equal(s4.continuedFailure?.kind, 'Canceled');
  assert.deepEqual(s4.lastCompletionResult, { day: 1 });

  // Terminate ends the chain.
  await h.engine.terminateWorkflowExecution({ workflowId: 'cron-daily', reason: 'done' });
  d = await latest(h, 'cron-daily');
  assert.equal(d.execution.runId, fourth);
  assert.equal(d.execution.status, 'Terminated');
  await h.advance(3 * DAY);
  await h.noWorkflowTask();
  assert.equal((await latest(h, 'cron-daily')).execution.runId, fourth);
});

fixtureTest('a cron run is retried under its retry policy first; the next cron run starts when the retries are exhausted', async (f) => {
  const h = await f.engine();
  const { runId } = await h.start('cron-retry', {
    cronSchedule: '@hourly',
    retryPolicy: { initialIntervalMs: 60_000, backoffCoefficient: 2, maximumIntervalMs: 600_000, maximumAttempts: 2, nonRetryableErrorTypes: [] },
  });
  await h.advance(H);
  await h.complete(await h.pollWorkflow(), [cmd.fail('first')]);
  const events = await h.history('cron-retry', runId);
  const close = events.at(-1)!;
  assert.ok(close.eventType === 'WorkflowExecutionContinuedAsNew');
  assert.equal(close.attributes.initiator, 'RetryPolicy');
  await h.advance(60_000);
  const retry = await h.pollWorkflow();
  assert.equal(startedOf(retry.history).attempt, 2);
  assert.equal(startedOf(retry.history).cronSchedule, '@hourly');
  await h.complete(retry, [cmd.fail('second')]);
  const c = await cronClose(h, 'cron-retry', retry.runId);
  assert.equal(c.failure?.message, 'second');
  // From 01:01 (the retry's scheduled start) to 02:00.
  assert.equal(c.backoffStartIntervalMs, 59 * 60_000);
  const s = startedOf(await h.history('cron-retry', c.newExecutionRunId));
  assert.equal(s.attempt, 1);
  assert.equal(s.continuedFailure?.message, 'second');
});

fixtureTest('a cron run that reaches its run timeout starts the next run; the timeout counts from the fire time', async (f) => {
  const h = await f.engine();
  const { runId } = await h.start('cron-run-timeout', { cronSchedule: '0 6 * * *', workflowRunTimeoutMs: H });
  await h.advance(6 * H);
  await h.complete(await h.pollWorkflow(), [cmd.timer('long', 2 * H)]);
  await h.advance(H);
  const c = await cronClose(h, 'cron-run-timeout', runId);
  assert.equal(c.failure?.kind, 'Timeout');
  assert.equal(c.backoffStartIntervalMs, 23 * H);
});

fixtureTest('the execution timeout spans the chain and ends it', async (f) => {
  const h = await f.engine();
  // Expires 01-03 02:00: runs on 01-01 and 01-02 06:00; the 01-03 fire time is past the expiration.
  await h.start('cron-exec', { cronSchedule: '0 6 * * *', workflowExecutionTimeoutMs: 50 * H });
  await h.advance(6 * H);
  await h.complete(await h.pollWorkflow(), [cmd.complete(1)]);
  await h.advance(DAY);
  const wt = await h.pollWorkflow();
  await h.complete(wt, [cmd.complete(2)]);
  const close = (await h.history('cron-exec', wt.runId)).at(-1)!;
  assert.ok(close.eventType === 'WorkflowExecutionCompleted', 'no fire time left before the expiration: the chain ends');
  assert.equal((await latest(h, 'cron-exec')).execution.status, 'Completed');

  // A run still open at the expiration times out, and nothing follows.
  await h.start('cron-exec-2', { cronSchedule: '0 * * * *', workflowExecutionTimeoutMs: 90 * 60_000 });
  await h.advance(H);
  await h.complete(await h.pollWorkflow(), [cmd.timer('long', 5 * H)]);
  await h.advance(30 * 60_000);
  const d = await latest(h, 'cron-exec-2');
  assert.equal(d.execution.status, 'TimedOut');
  await h.advance(DAY);
  await h.noWorkflowTask();
});

fixtureTest('a child\'s bad cronSchedule fails the parent\'s workflow task (BadCommand) with the column', async (f) => {
  const h = await f.engine();
  await h.start('cron-parent');
  const wt = await h.pollWorkflow();
  await assert.rejects(h.complete(wt, [{
    commandType: 'StartChildWorkflowExecution', attributes: { workflowId: 'c', workflowType: 'child', args: [], cronSchedule: '*/0 * * * *' },
  }]), /^CronSyntaxError: commands\[0\]\.attributes\.cronSchedule "\*\/0 \* \* \* \*" is not a valid cron spec: at column 3 expected a step of 1 or more, got "0"$/);
  const failed = (await h.history('cron-parent')).find((e) => e.eventType === 'WorkflowTaskFailed');
  assert.equal(failed?.eventType === 'WorkflowTaskFailed' && failed.attributes.cause, 'BadCommand');
});

fixtureTest('a child started with a cronSchedule backs off to its first fire time and carries the schedule', async (f) => {
  const h = await f.engine();
  await h.start('cron-parent-2');
  await h.complete(await h.pollWorkflow(), [{
    commandType: 'StartChildWorkflowExecution', attributes: { workflowId: 'cron-kid', workflowType: 'child', args: [], cronSchedule: '@hourly' },
  }]);
  await h.settle();
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'cron-kid' });
  assert.equal(d.config.cronSchedule, '@hourly');
  assert.equal(d.execution.executionTime, new Date(T0 + H).toISOString());
  assert.equal(d.execution.parent?.workflowId, 'cron-parent-2');
});

fixtureTest('a reset run of a cron job stays in the chain: its close starts the next run', async (f) => {
  const h = await f.engine();
  await h.start('cron-reset', { cronSchedule: '@hourly' });
  await h.advance(H);
  await h.complete(await h.pollWorkflow(), [cmd.timer('t', 10 * 60_000)]);
  const { runId } = await h.engine.resetWorkflowExecution({ workflowId: 'cron-reset', resetType: 'LastWorkflowTask' });
  const wt = await h.pollWorkflow();
  assert.equal(wt.runId, runId);
  await h.complete(wt, [cmd.complete('after reset')]);
  const c = await cronClose(h, 'cron-reset', runId);
  assert.deepEqual(c.lastCompletionResult, 'after reset');
  assert.equal(c.backoffStartIntervalMs, H, 'from 01:00 (the reset run started at once) to 02:00');
});
