import type { Command } from '../../history/commands.ts';
import type { HistoryEvent } from '../../history/events.ts';
import type { ActivationJob } from '../../workflow/activation.ts';
import { SIDE_EFFECT_MARKER, VERSION_MARKER } from '../../workflow/markers.ts';
import { LOCAL_ACTIVITY_MARKER, type LocalActivityMarkerDetails, type LocalActivityOutcome } from '../../workflow/local-activity-types.ts';
import { defineFeature, records } from './feature.ts';

/**
 * Markers (patches and side effects): a RecordMarker matches by marker name. Their jobs do not
 * come from the event's position but from the task that recorded them (see {@link markerJobs}).
 */
export const markerFeature = defineFeature({
  name: 'marker',
  commands: {
    RecordMarker: { events: ['MarkerRecorded'], keys: ['markerName'] },
  },
  events: {
    MarkerRecorded: records(),
  },
});

/**
 * Jobs from the markers a completed workflow task recorded, applied before that task's code is
 * replayed: which patches it took, and the results its side effects returned. They are the
 * MarkerRecorded events that follow the task's WorkflowTaskCompleted (at index `from`) up to
 * the next workflow task.
 */
export function markerJobs(events: readonly HistoryEvent[], from: number): ActivationJob[] {
  const jobs: ActivationJob[] = [];
  for (let i = from; i < events.length; i++) {
    const e = events[i]!;
    if (e.eventType === 'WorkflowTaskStarted') break;
    if (e.eventType !== 'MarkerRecorded') continue;
    const d = e.attributes.details as { patchId?: unknown; seq?: unknown; result?: unknown };
    if (e.attributes.markerName === VERSION_MARKER && typeof d.patchId === 'string') {
      jobs.push({ type: 'notifyHasPatch', patchId: d.patchId });
    } else if (e.attributes.markerName === SIDE_EFFECT_MARKER && typeof d.seq === 'number') {
      jobs.push({ type: 'resolveSideEffect', seq: d.seq, result: d.result });
    }
  }
  return jobs;
}

function isPatchMarkerEvent(event: HistoryEvent): event is HistoryEvent<'MarkerRecorded'> {
  return event.eventType === 'MarkerRecorded' && event.attributes.markerName === VERSION_MARKER;
}

function patchIdOf(command: Command | undefined): string | undefined {
  if (command?.commandType !== 'RecordMarker' || command.attributes.markerName !== VERSION_MARKER) return undefined;
  return (command.attributes.details as { patchId?: string }).patchId;
}

/**
 * Patch markers are optional on both sides of a replay (Temporal's rule): a marker in history
 * that the code no longer asks about (the patch call was removed after deprecation) is skipped,
 * and so is a patch command the history has no marker for at this point. Drops skipped commands
 * from `expected`; returns true when the event itself is to be skipped.
 */
export function skipPatchMarkers(expected: Command[], event: HistoryEvent): boolean {
  const eventPatch = isPatchMarkerEvent(event) ? (event.attributes.details as { patchId?: string }).patchId : undefined;
  for (;;) {
    const commandPatch = patchIdOf(expected[0]);
    if (eventPatch !== undefined && commandPatch === eventPatch) return false;
    if (commandPatch !== undefined) {
      expected.shift();
      continue;
    }
    return eventPatch !== undefined;
  }
}

/**
 * The outcomes recorded by the local activity markers of a completed workflow task (the
 * MarkerRecorded events after its WorkflowTaskCompleted at index `from`), by call number. A
 * replay hands each to its call when the code has made it, as the worker did when it ran.
 */
export function localActivityOutcomes(events: readonly HistoryEvent[], from: number): Map<number, LocalActivityOutcome> {
  const outcomes = new Map<number, LocalActivityOutcome>();
  for (let i = from; i < events.length; i++) {
    const e = events[i]!;
    if (e.eventType === 'WorkflowTaskStarted') break;
    if (e.eventType !== 'MarkerRecorded' || e.attributes.markerName !== LOCAL_ACTIVITY_MARKER) continue;
    const d = e.attributes.details as Partial<LocalActivityMarkerDetails>;
    if (typeof d.seq !== 'number' || typeof d.attempt !== 'number') continue;
    const outcome: LocalActivityOutcome = { seq: d.seq, attempt: d.attempt };
    if (e.attributes.failure) outcome.failure = e.attributes.failure;
    else outcome.result = d.result;
    if (typeof d.backoffMs === 'number') outcome.backoffMs = d.backoffMs;
    outcomes.set(d.seq, outcome);
  }
  return outcomes;
}
