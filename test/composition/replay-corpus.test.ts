/**
 * The composition replay corpus: histories recorded once (record-histories.ts) and replayed on
 * every run against the fixture code, so a change to the runtime or the fixtures that breaks
 * histories already in flight fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DeterminismViolationError } from '../../src/common/errors.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { Replayer } from '../../src/testing/index.ts';
import { COMPOSITION, fixture } from './helpers.ts';

const history = (name: string) =>
  JSON.parse(readFileSync(new URL(`../histories/composition-${name}.json`, import.meta.url), 'utf8')) as { events: HistoryEvent[] };

const CORPUS: [name: string, workflowsPath: string, closedBy: string][] = [
  ['side-effect', COMPOSITION, 'WorkflowExecutionCompleted'],
  ['patch-before', COMPOSITION, 'WorkflowExecutionCompleted'],
  ['patched', COMPOSITION, 'WorkflowExecutionCompleted'],
  ['patched', fixture('composition-v3.ts'), 'WorkflowExecutionCompleted'],
  ['deprecate-patch', fixture('composition-v3.ts'), 'WorkflowExecutionCompleted'],
  ['deprecate-patch', fixture('composition-v4.ts'), 'WorkflowExecutionCompleted'],
  ['child', COMPOSITION, 'WorkflowExecutionCompleted'],
  ['continue-as-new', COMPOSITION, 'WorkflowExecutionContinuedAsNew'],
  ['cancellation', COMPOSITION, 'WorkflowExecutionCanceled'],
  ['reset', COMPOSITION, 'WorkflowExecutionCompleted'],
];

for (const [name, path, closedBy] of CORPUS) {
  test(`history ${name} replays against ${path.split('/').at(-1)}`, async () => {
    const h = history(name);
    assert.equal(h.events.at(-1)!.eventType, closedBy);
    await Replayer.replayHistory(h, { workflowsPath: path });
  });
}

/** Histories of the Temporal API's commands (record-temporal-histories.ts), replayed against their fixture (temporal-api.ts unless named). */
const TEMPORAL_CORPUS: [name: string, commandEvent: string, workflows?: string][] = [
  ['upsert-memo', 'WorkflowPropertiesModified'],
  ['upsert-search-attributes', 'UpsertWorkflowSearchAttributes', 'search-attributes.ts'],
  ['cancel-try', 'ActivityTaskCancelRequested'],
  ['cancel-wait', 'ActivityTaskCanceled'],
  ['cancel-abandon', 'ActivityTaskScheduled'],
  ['external-cancel', 'ExternalWorkflowExecutionCancelRequested'],
  ['external-cancel-failed', 'RequestCancelExternalWorkflowExecutionFailed'],
  ['child-signal', 'ExternalWorkflowExecutionSignaled'],
];
const temporalHistory = (name: string) =>
  JSON.parse(readFileSync(new URL(`../histories/temporal-${name}.json`, import.meta.url), 'utf8')) as { events: HistoryEvent[] };

for (const [name, commandEvent, workflows = 'temporal-api.ts'] of TEMPORAL_CORPUS) {
  test(`history temporal-${name} replays against ${workflows}`, async () => {
    const h = temporalHistory(name);
    assert.equal(h.events.at(-1)!.eventType, 'WorkflowExecutionCompleted');
    assert.ok(h.events.some((e) => e.eventType === commandEvent), `the history has ${commandEvent}`);
    await Replayer.replayHistory(h, { workflowsPath: fixture(workflows) });
  });
}

test('an upsertSearchAttributes call is matched against its UpsertWorkflowSearchAttributes event on replay', async () => {
  const h = temporalHistory('upsert-search-attributes');
  await assert.rejects(Replayer.replayHistory(h, { workflowsPath: fixture('search-attributes-no-upsert.ts') }), (err: unknown) => {
    assert.ok(err instanceof DeterminismViolationError);
    assert.match(err.message, /history has event \d+ UpsertWorkflowSearchAttributes, but the code produced no matching command/);
    return true;
  });
  const changed = structuredClone(h);
  const i = changed.events.findIndex((e) => e.eventType === 'UpsertWorkflowSearchAttributes');
  const e = changed.events[i]!;
  changed.events[i] = { eventId: e.eventId, eventTime: e.eventTime, eventType: 'TimerStarted', attributes: { timerId: '1', startToFireTimeoutMs: 1000, workflowTaskCompletedEventId: e.eventId - 1 } };
  await assert.rejects(Replayer.replayHistory(changed, { workflowsPath: fixture('search-attributes.ts') }),
    /history has event \d+ TimerStarted \{ timerId: "1" \}, but the code produced UpsertWorkflowSearchAttributes \(the event type differs\)/);
});

test('an upsertMemo call is matched against its WorkflowPropertiesModified event on replay', async () => {
  const h = structuredClone(temporalHistory('upsert-memo'));
  const i = h.events.findIndex((e) => e.eventType === 'WorkflowPropertiesModified');
  const e = h.events[i]!;
  h.events[i] = { eventId: e.eventId, eventTime: e.eventTime, eventType: 'TimerStarted', attributes: { timerId: '1', startToFireTimeoutMs: 1000, workflowTaskCompletedEventId: e.eventId - 1 } };
  await assert.rejects(Replayer.replayHistory(h, { workflowsPath: fixture('temporal-api.ts') }), (err: unknown) => {
    assert.ok(err instanceof DeterminismViolationError);
    assert.match(err.message, /history has event \d+ TimerStarted \{ timerId: "1" \}, but the code produced ModifyWorkflowProperties \(the event type differs\)/);
    return true;
  });
});

test('a replayed external cancel settles only through its recorded outcome event', async () => {
  const h = structuredClone(temporalHistory('external-cancel-failed'));
  const failed = h.events.find((e) => e.eventType === 'RequestCancelExternalWorkflowExecutionFailed');
  assert.ok(failed?.eventType === 'RequestCancelExternalWorkflowExecutionFailed');
  // Without the outcome event, cancel() never settles and the code cannot produce the completion the history holds.
  h.events.splice(h.events.indexOf(failed), 1);
  h.events.forEach((e, k) => {
    e.eventId = k + 1;
  });
  await assert.rejects(Replayer.replayHistory(h, { workflowsPath: fixture('temporal-api.ts') }), DeterminismViolationError);
});

test('a replayed side effect returns the recorded value without running its function', async () => {
  const h = structuredClone(history('side-effect'));
  const marker = h.events.find((e) => e.eventType === 'MarkerRecorded')!;
  assert.ok(marker.eventType === 'MarkerRecorded');
  assert.deepEqual(marker.attributes.details, { seq: 1, result: 'echoA' });
  // The function always answers echoA; a history that recorded echoB must schedule echoB on replay.
  marker.attributes.details = { seq: 1, result: 'echoB' };
  await assert.rejects(Replayer.replayHistory(h, { workflowsPath: COMPOSITION }), (err: unknown) => {
    assert.ok(err instanceof DeterminismViolationError);
    assert.match(err.message, /history has event \d+ ActivityTaskScheduled \{ activityId: "1", activityType: "echoA" \}, but the code produced ScheduleActivityTask \{ activityId: "1", activityType: "echoB" \}/);
    return true;
  });
});

test('the old history does not replay against code that dropped the old branch before the runs drained', async () => {
  await assert.rejects(Replayer.replayHistory(history('patch-before'), { workflowsPath: fixture('composition-v3.ts') }), DeterminismViolationError);
});

test('a new-path history does not replay against the pre-patch code', async () => {
  await assert.rejects(Replayer.replayHistory(history('patched'), { workflowsPath: fixture('composition-v1.ts') }), DeterminismViolationError);
});
