import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localActivityLine } from '../../src/ui/local-activity-row.ts';
import type { HistoryEvent } from '../../src/history/events.ts';

const marker = (details: Record<string, unknown>, failure?: { kind: 'Activity'; message: string }): HistoryEvent => ({
  eventId: 5, eventType: 'MarkerRecorded', eventTime: '2026-01-01T00:00:00.000Z',
  attributes: { markerName: 'core_local_activity', details, workflowTaskCompletedEventId: 4, ...(failure ? { failure } : {}) },
} as HistoryEvent);

test('a local activity marker reads as the activity completed or failed', () => {
  assert.equal(localActivityLine(marker({ seq: 1, activityId: '1', activityType: 'charge', attempt: 1, result: 3 })),
    'local activity charge (1) completed, attempt 1');
  assert.equal(localActivityLine(marker({ seq: 2, activityId: '2', activityType: 'charge', attempt: 3 }, { kind: 'Activity', message: 'declined' })),
    'local activity charge (2) failed, attempt 3: declined');
  assert.equal(localActivityLine(marker({ seq: 3, activityId: '3', activityType: 'charge', attempt: 1, backoffMs: 120000 }, { kind: 'Activity', message: 'x' })),
    'local activity charge (3) failed, attempt 1: x; retry in 120000 ms');
  const sideEffect = { ...marker({ seq: 1 }), attributes: { markerName: 'SideEffect', details: { seq: 1 }, workflowTaskCompletedEventId: 4 } } as HistoryEvent;
  assert.equal(localActivityLine(sideEffect), undefined);
});

test('a local activity marker with a summary names it', () => {
  const summarised = marker({ seq: 1, activityId: '1', activityType: 'charge', attempt: 1, result: 3 });
  (summarised.attributes as { userMetadata?: unknown }).userMetadata = { summary: 'Charge the card' };
  assert.equal(localActivityLine(summarised), 'local activity charge (1) "Charge the card" completed, attempt 1');
});
