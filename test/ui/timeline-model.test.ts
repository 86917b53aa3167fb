import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryEvent } from '../../src/history/index.ts';
import type { WorkflowExecutionDescription } from '../../src/protocol/index.ts';
import type { RetryPolicyData } from '../../src/retry/index.ts';
import { timelineRows, type Span } from '../../src/ui/timeline-model.ts';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const policy: RetryPolicyData = { initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 100_000, maximumAttempts: 0, nonRetryableErrorTypes: [] };

function ev(eventId: number, ms: number, eventType: string, attributes: object): HistoryEvent {
  return { eventId, eventTime: at(ms), eventType, attributes } as HistoryEvent;
}

const started = ev(1, 0, 'WorkflowExecutionStarted', { workflowType: 'order', taskQueue: 'q', args: [], workflowTaskTimeoutMs: 10_000, attempt: 1 });
const scheduled = ev(5, 100, 'ActivityTaskScheduled', { activityId: '1', activityType: 'charge', taskQueue: 'q', args: [], retryPolicy: policy, workflowTaskCompletedEventId: 4 });

function describeAt(pending: Partial<WorkflowExecutionDescription['pendingActivities'][number]>[] = [], closeTime?: string): WorkflowExecutionDescription {
  return {
    execution: {
      namespace: 'default', workflowId: 'w', runId: 'r', workflowType: 'order', taskQueue: 'q', status: closeTime ? 'Completed' : 'Running',
      startTime: at(0), executionTime: at(0), historyLength: 5, attempt: 1, firstExecutionRunId: 'r', originalExecutionRunId: 'r',
      ...(closeTime ? { closeTime } : {}),
    },
    config: { workflowTaskTimeoutMs: 10_000 },
    pendingActivities: pending.map((p) => ({ activityId: '1', activityType: 'charge', scheduledEventId: 5, state: 'Scheduled', attempt: 1, maximumAttempts: 0, scheduledTime: at(100), ...p }) as WorkflowExecutionDescription['pendingActivities'][number]),
    pendingChildren: [],
  };
}

const shape = (spans: Span[]) => spans.map((s) => [s.kind, s.from - T0, s.to - T0, Boolean(s.failed), Boolean(s.derived)]);

test('a completed activity: earlier attempts and their backoffs placed by the policy before the last attempt, drawn to scale', () => {
  const events = [started, scheduled,
    ev(6, 3300, 'ActivityTaskStarted', { scheduledEventId: 5, attempt: 3, identity: 'w', requestId: 'x' }),
    ev(7, 3350, 'ActivityTaskCompleted', { scheduledEventId: 5, startedEventId: 6, result: 1, identity: 'w' })];
  const rows = timelineRows(events, describeAt([], at(4000)), T0 + 9999);
  assert.deepEqual(rows.map((r) => r.label), ['order', 'charge (1)']);
  assert.deepEqual(shape(rows[0]!.spans), [['run', 0, 4000, false, false]]);
  // Retry 1 waits 1 s, retry 2 waits 2 s: attempt 2 at 3300 − 2000, its backoff from 1300 − 1000.
  assert.deepEqual(shape(rows[1]!.spans), [
    ['attempt', 100, 100, true, true], ['backoff', 300, 1300, false, true],
    ['attempt', 1300, 1300, true, true], ['backoff', 1300, 3300, false, true],
    ['attempt', 3300, 3350, false, false],
  ]);
});

test('a pending activity in its backoff: the failed attempt, then the gap until the next one', () => {
  const d = describeAt([{ attempt: 2, lastStartedTime: at(150), nextAttemptScheduleTime: at(1150) }]);
  const rows = timelineRows([started, scheduled], d, T0 + 600);
  assert.deepEqual(shape(rows[1]!.spans), [['attempt', 150, 150, true, false], ['backoff', 150, 1150, false, false]]);
  assert.equal(rows[1]!.spans[1]!.label, 'backoff 1000ms before attempt 2');
  const waiting = timelineRows([started, scheduled], describeAt([{ attempt: 1 }]), T0 + 600);
  assert.deepEqual(shape(waiting[1]!.spans), [['waiting', 100, 600, false, false]]);
});

test('timers run from start to fired; one still pending runs to now', () => {
  const events = [started,
    ev(5, 10, 'TimerStarted', { timerId: 't1', startToFireTimeoutMs: 500, workflowTaskCompletedEventId: 4 }),
    ev(6, 510, 'TimerFired', { timerId: 't1', startedEventId: 5 }),
    ev(7, 600, 'TimerStarted', { timerId: 't2', startToFireTimeoutMs: 5000, workflowTaskCompletedEventId: 4 })];
  const rows = timelineRows(events, describeAt(), T0 + 900);
  assert.deepEqual(rows.slice(1).map((r) => [r.label, ...shape(r.spans)[0]!.slice(1, 3)]), [['timer t1', 10, 510], ['timer t2', 600, 900]]);
});

test('an activity, timer or child row carries the summary its event records, beside its own label', () => {
  const rows = timelineRows([
    started,
    ev(5, 100, 'ActivityTaskScheduled', { activityId: '1', activityType: 'charge', taskQueue: 'q', args: [], retryPolicy: policy, workflowTaskCompletedEventId: 4, userMetadata: { summary: 'Charge the card' } }),
    ev(6, 100, 'TimerStarted', { timerId: '1', startToFireTimeoutMs: 1000, workflowTaskCompletedEventId: 4, userMetadata: { summary: 'Cool down' } }),
    ev(7, 100, 'StartChildWorkflowExecutionInitiated', { workflowType: 'ship', workflowId: 'ship-1', userMetadata: { summary: 'Ship it' } }),
    ev(8, 100, 'TimerStarted', { timerId: '2', startToFireTimeoutMs: 1000, workflowTaskCompletedEventId: 4 }),
  ], describeAt(), T0 + 500);
  assert.deepEqual(rows.slice(1).map((r) => [r.label, r.summary]), [
    ['charge (1)', 'Charge the card'], ['timer 1', 'Cool down'], ['child ship-1', 'Ship it'], ['timer 2', undefined],
  ]);
});
