import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DeterminismViolationError } from '../../src/common/errors.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import { Replayer } from '../../src/testing/replayer.ts';
import { harness } from '../workflow/harness.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/workflows/${name}`, import.meta.url));
const V1 = fixture('nondeterminism-v1.ts');
const V2 = fixture('nondeterminism-v2.ts');
/** Recorded with v1: the run started its one-minute timer, the timer fired, the next task started. */
const sleeping = JSON.parse(readFileSync(new URL('../histories/timer-then-activity-sleeping.json', import.meta.url), 'utf8')) as { events: HistoryEvent[] };

test('the code that wrote a history replays it', async () => {
  await Replayer.replayHistory(sleeping, { workflowsPath: V1 });
  await Replayer.replayHistory(sleeping.events, { workflowsPath: V1 });
});

test('timer-then-activity changed to activity-then-timer while a run sleeps is a non-determinism error', async () => {
  await assert.rejects(Replayer.replayHistory(sleeping, { workflowsPath: V2 }), (err: unknown) => {
    assert.ok(err instanceof DeterminismViolationError);
    assert.equal(err.eventId, 5);
    assert.match(err.message, /history has event 5 TimerStarted \{ timerId: "1" \}, but the code produced ScheduleActivityTask \{ activityId: "1", activityType: "greet" \}/);
    return true;
  });
});

test('a completed history replays with its code; leftover or missing commands are violations too', async () => {
  const h = await harness({ workflowType: 'timerThenActivity', args: ['bo'] }, V1);
  await h.next();
  h.history.advance(60_000).timerFired('1');
  await h.next();
  h.history.activityCompleted('1', 'hello bo');
  await h.next();
  const events = h.history.events;
  assert.equal(events.at(-1)!.eventType, 'WorkflowExecutionCompleted');
  await Replayer.replayHistory({ events }, { workflowsPath: V1 });
  // Cut the history after the timer's task completed: v1's ScheduleActivityTask is then missing from it.
  const cut = events.slice(0, events.findIndex((e) => e.eventType === 'ActivityTaskScheduled'));
  await assert.rejects(Replayer.replayHistory(cut, { workflowsPath: V1 }),
    /the code produced ScheduleActivityTask \{ activityId: "1", activityType: "greet" \} in the workflow task started at event 8, but history ends at event 9 without it/);
});

test('replayHistories reports each history instead of throwing', async () => {
  const results = await Replayer.replayHistories([
    { workflowId: 'sleeping-1', history: sleeping },
    sleeping.events,
  ], { workflowsPath: V2 });
  assert.deepEqual(results.map((r) => [r.index, r.workflowId, r.error instanceof DeterminismViolationError]), [
    [0, 'sleeping-1', true], [1, 'history-1', true],
  ]);
  const ok = await Replayer.replayHistories([sleeping], { workflowsPath: V1 });
  assert.equal(ok[0]!.error, undefined);
});

test('input is validated: the history must start with WorkflowExecutionStarted', async () => {
  await assert.rejects(Replayer.replayHistory({ events: sleeping.events.slice(1) }, { workflowsPath: V1 }),
    /history\[0\]\.eventType must be WorkflowExecutionStarted, got "WorkflowTaskScheduled"/);
  await assert.rejects(Replayer.replayHistory(sleeping, { workflowsPath: '' }), /workflowsPath must be a non-empty string/);
});
