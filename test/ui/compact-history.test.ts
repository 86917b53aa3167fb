import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryEvent } from '../../src/history/events.ts';
import { compactHistory } from '../../src/ui/compact-history.ts';
import { readStartForm } from '../../src/ui/start-form-model.ts';

let id = 0;
const ev = (eventType: string, attributes: Record<string, unknown>, second: number) =>
  ({ eventId: ++id, eventType, eventTime: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(), attributes }) as unknown as HistoryEvent;

test('one row per activity, timer, child and update, with attempts, times and outcome', () => {
  id = 0;
  const failure = { kind: 'Application', message: 'card declined', type: 'Declined' };
  const events = [
    ev('WorkflowExecutionStarted', {}, 0),
    ev('ActivityTaskScheduled', { activityId: '1', activityType: 'charge' }, 1), // 2
    ev('TimerStarted', { timerId: 't1', startToFireTimeoutMs: 30_000 }, 1), // 3
    ev('ActivityTaskStarted', { scheduledEventId: 2, attempt: 3 }, 5),
    ev('ActivityTaskFailed', { scheduledEventId: 2, failure }, 6),
    ev('StartChildWorkflowExecutionInitiated', { workflowType: 'ship', workflowId: 'ship-1' }, 7), // 6
    ev('ChildWorkflowExecutionCompleted', { initiatedEventId: 6 }, 9),
    ev('WorkflowExecutionUpdateAccepted', { updateId: 'u1', updateName: 'label' }, 10),
    ev('WorkflowExecutionUpdateCompleted', { updateId: 'u1', outcome: { failure } }, 11),
    ev('TimerFired', { timerId: 't1' }, 31),
  ];
  const rows = compactHistory(events);
  assert.deepEqual(rows.map((r) => [r.kind, r.name, r.detail, r.attempts, r.outcome]), [
    ['Activity', 'charge', '1', 3, 'Failed'],
    ['Timer', 't1', '30s', undefined, 'Fired'],
    ['Child', 'ship', 'ship-1', undefined, 'Completed'],
    ['Update', 'label', 'u1', undefined, 'Failed'],
  ]);
  assert.equal(rows[0]!.failure?.message, 'card declined');
  assert.equal(Date.parse(rows[1]!.endTime!) - Date.parse(rows[1]!.startTime), 30_000);
});

test('a row without its closing event is Running', () => {
  id = 0;
  const rows = compactHistory([ev('ActivityTaskScheduled', { activityId: '1', activityType: 'charge' }, 1)]);
  assert.equal(rows[0]!.outcome, 'Running');
  assert.equal(rows[0]!.endTime, undefined);
});

test('the start form names each field at fault and reads args as a JSON array', () => {
  const r = readStartForm({ workflowType: '', workflowId: ' x', taskQueue: 'q', args: '[1' });
  assert.equal(r.ok, false);
  assert.ok(!r.ok);
  assert.equal(r.errors.workflowType, 'workflow type is required');
  assert.equal(r.errors.workflowId, 'workflow id must not start or end with spaces');
  assert.equal(r.errors.taskQueue, undefined);
  assert.match(r.errors.args!, /^args is not valid JSON/);
  assert.deepEqual(readStartForm({ workflowType: 't', workflowId: 'i', taskQueue: 'q', args: '' }),
    { ok: true, request: { workflowType: 't', workflowId: 'i', taskQueue: 'q', args: [] } });
  assert.deepEqual(readStartForm({ workflowType: 't', workflowId: 'i', taskQueue: 'q', args: '{"a":1}' }),
    { ok: false, errors: { args: 'args must be a JSON array, e.g. ["Ada", 3]' } });
});

test("a reset run's timeline starts at the reset: the copied events' spans are clipped, rows before it dropped", async () => {
  const { timelineRows, resetOf } = await import('../../src/ui/timeline-model.ts');
  id = 0;
  const events = [
    ev('WorkflowExecutionStarted', {}, 0),
    ev('TimerStarted', { timerId: 'early', startToFireTimeoutMs: 2000 }, 1),
    ev('TimerFired', { timerId: 'early' }, 3),
    ev('TimerStarted', { timerId: 'across', startToFireTimeoutMs: 20_000 }, 4),
    ev('WorkflowTaskFailed', { cause: 'ResetWorkflow', baseRunId: 'run-a', newRunId: 'run-b', failure: { kind: 'Application', message: 'reset' } }, 10),
  ];
  assert.equal(resetOf(events)?.attributes.baseRunId, 'run-a');
  const rows = timelineRows(events, undefined, Date.UTC(2026, 0, 1, 0, 0, 30));
  const start = Date.UTC(2026, 0, 1, 0, 0, 10);
  assert.ok(rows.every((r) => r.spans.every((s) => s.from >= start)), JSON.stringify(rows));
  assert.ok(!rows.some((r) => r.label.includes('early')), 'the timer that fired before the reset is not drawn');
  assert.equal(rows[0]!.key, 'run');
});

test("the schedule form takes duration strings such as '1 hour' and '30s' for the interval, its preview and the catch-up window", async () => {
  const { createRequest, emptyForm, previewTimes } = await import('../../src/ui/schedule-form-model.ts');
  const f = { ...emptyForm(), scheduleId: 'n', workflowType: 'greets', taskQueue: 'ui', workflowId: 'n', specKind: 'interval' as const, every: '1 hour', offset: '', jitter: '', catchupWindow: '30s' };
  assert.deepEqual(previewTimes(f, Date.UTC(2026, 0, 1), 2), { times: ['2026-01-01T01:00:00.000Z', '2026-01-01T02:00:00.000Z'] });
  assert.deepEqual(previewTimes({ ...f, every: '30s' }, Date.UTC(2026, 0, 1), 1), { times: ['2026-01-01T00:00:30.000Z'] });
  assert.equal(createRequest(f, 'ns').policies?.catchupWindowMs, 30_000);
  assert.deepEqual((createRequest(f, 'ns').spec as { intervals?: unknown }).intervals, [{ every: '1 hour' }]);
});

test('the retry simulator labels only points far enough apart, always the first and the last', async () => {
  const { labelledPoints } = await import('../../src/ui/simulator-schedule.ts');
  // Exponential backoff: the early attempts crowd the left.
  const xs = [20, 22, 26, 34, 50, 82, 146, 274, 530, 980];
  const shown = [...labelledPoints(xs, 80)].sort((a, b) => a - b);
  assert.deepEqual(shown, [0, 6, 7, 8, 9]);
  for (let i = 1; i < shown.length; i++) assert.ok(xs[shown[i]!]! - xs[shown[i - 1]!]! >= 80, `${shown}`);
  assert.deepEqual([...labelledPoints([20, 30], 80)], [1], 'two points too close: the last only');
  assert.deepEqual([...labelledPoints([500], 80)], [0]);
});

test('an activity, timer or child carries the summary its event records; the others none', () => {
  id = 0;
  const rows = compactHistory([
    ev('ActivityTaskScheduled', { activityId: '1', activityType: 'charge', userMetadata: { summary: 'Charge the card' } }, 1),
    ev('TimerStarted', { timerId: 't1', startToFireTimeoutMs: 1000, userMetadata: { summary: 'Cool down' } }, 1),
    ev('StartChildWorkflowExecutionInitiated', { workflowType: 'ship', workflowId: 'ship-1', userMetadata: { summary: 'Ship it', details: 'd' } }, 2),
    ev('ActivityTaskScheduled', { activityId: '2', activityType: 'refund' }, 3),
  ]);
  assert.deepEqual(rows.map((r) => r.summary), ['Charge the card', 'Cool down', 'Ship it', undefined]);
});
