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
