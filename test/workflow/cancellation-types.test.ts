/**
 * Activity cancellation types in the workflow runtime, fed hand-built history (no server): which
 * commands cancelling a started activity's scope emits, and when the activity's promise settles.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Command } from '../../src/history/commands.ts';
import { harness } from './harness.ts';

const WORKFLOWS = fileURLToPath(new URL('../fixtures/workflows/temporal-api.ts', import.meta.url));

async function cancelled(type: string) {
  const h = await harness({ workflowType: 'cancelTypeFlow', args: [type] }, WORKFLOWS);
  const first = await h.next();
  assert.deepEqual(first.map((c) => c.commandType === 'ScheduleActivityTask' && c.attributes.activityId), [`waiter-${type}`]);
  const scheduledEventId = h.history.events.find((e) => e.eventType === 'ActivityTaskScheduled')!.eventId;
  h.history.add('WorkflowExecutionSignaled', { signalName: 'go', args: ['now'] });
  return { h, scheduledEventId, commands: await h.next() };
}

const kinds = (commands: Command[]) => commands.map((c) => c.commandType === 'ScheduleActivityTask' ? `${c.commandType}:${c.attributes.activityType}` : c.commandType);

test('TRY_CANCEL sends the cancel request and rejects the promise in the same task', async () => {
  const { scheduledEventId, commands } = await cancelled('TRY_CANCEL');
  assert.deepEqual(commands[0], { commandType: 'RequestCancelActivityTask', attributes: { scheduledEventId } });
  assert.deepEqual(kinds(commands), ['RequestCancelActivityTask', 'ScheduleActivityTask:echoA']);
});

test('ABANDON sends no cancel request and rejects the promise at once', async () => {
  const { commands } = await cancelled('ABANDON');
  assert.deepEqual(kinds(commands), ['ScheduleActivityTask:echoA']);
  assert.equal((commands[0]!.attributes as { args: unknown[] }).args[0], 'ABANDON');
});

test('WAIT_CANCELLATION_COMPLETED sends the cancel request and settles only when the activity reports', async () => {
  const { h, scheduledEventId, commands } = await cancelled('WAIT_CANCELLATION_COMPLETED');
  assert.deepEqual(commands, [{ commandType: 'RequestCancelActivityTask', attributes: { scheduledEventId } }]);
  h.history.activityCanceled('waiter-WAIT_CANCELLATION_COMPLETED');
  assert.deepEqual(kinds(await h.next()), ['ScheduleActivityTask:echoA']);
  h.history.activityCompleted('2', 'A:W');
  assert.deepEqual(await h.next(), [{ commandType: 'CompleteWorkflowExecution', attributes: { result: 'cancelled|A:W' } }]);
});

test('WAIT_CANCELLATION_COMPLETED: an activity that completes instead resolves the promise with its result', async () => {
  const { h } = await cancelled('WAIT_CANCELLATION_COMPLETED');
  h.history.activityCompleted('waiter-WAIT_CANCELLATION_COMPLETED', 'done anyway');
  assert.deepEqual(kinds(await h.next()), ['ScheduleActivityTask:echoA']);
  h.history.activityCompleted('2', 'A:W');
  assert.deepEqual(await h.next(), [{ commandType: 'CompleteWorkflowExecution', attributes: { result: 'completed:done anyway|A:W' } }]);
});
