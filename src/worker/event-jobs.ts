import type { FailureInfo } from '../common/failure.ts';
import type { EventType, HistoryEvent } from '../history/events.ts';
import type { ActivationJob } from '../workflow/activation.ts';
import { CHILD_EVENT_JOBS, type ChildLookup } from './child-jobs.ts';
import { MESSAGE_EVENT_JOBS } from './message-jobs.ts';

/** What a job factory may ask of the run about activities it scheduled. */
export interface ActivityLookup {
  /** Activity id and type of the ActivityTaskScheduled event with this id. */
  activity(scheduledEventId: number): { activityId: string; activityType: string };
}

/** Makes the job of an event; undefined when the event wakes nothing in this run. */
type JobFactory<K extends EventType> = (event: HistoryEvent<K>, runs: ActivityLookup & ChildLookup) => ActivationJob | undefined;

function activityFailure(
  runs: ActivityLookup, scheduledEventId: number, message: string, retryState: FailureInfo['retryState'], cause: FailureInfo,
): FailureInfo {
  const { activityId, activityType } = runs.activity(scheduledEventId);
  // The message names the activity and its root cause, so a WorkflowFailedError reads well
  // on its own: "activity chargeCard (1) failed: card declined for declined-1".
  const full = `activity ${activityType} (${activityId}) ${message}: ${cause.message}`;
  return { kind: 'Activity', message: full, activityType, activityId, ...(retryState ? { retryState } : {}), cause };
}

/**
 * The events that wake workflow code, each turned into one activation job. Events not listed
 * here either record a command (matched instead), belong to the workflow task itself, or do
 * not concern workflow code (ActivityTaskStarted). Signals, updates and child results are one
 * entry each.
 */
export const EVENT_JOBS: { [K in EventType]?: JobFactory<K> } = {
  WorkflowExecutionStarted: (e) => ({ type: 'startWorkflow', args: e.attributes.args ?? [] }),
  TimerFired: (e) => ({ type: 'fireTimer', timerId: e.attributes.timerId }),
  ActivityTaskCompleted: (e, runs) => ({
    type: 'resolveActivity', activityId: runs.activity(e.attributes.scheduledEventId).activityId, result: e.attributes.result,
  }),
  ActivityTaskFailed: (e, runs) => ({
    type: 'resolveActivity',
    activityId: runs.activity(e.attributes.scheduledEventId).activityId,
    failure: activityFailure(runs, e.attributes.scheduledEventId, 'failed', e.attributes.retryState, e.attributes.failure),
  }),
  ActivityTaskTimedOut: (e, runs) => ({
    type: 'resolveActivity',
    activityId: runs.activity(e.attributes.scheduledEventId).activityId,
    failure: activityFailure(runs, e.attributes.scheduledEventId, 'timed out', e.attributes.retryState, e.attributes.failure),
  }),
  ActivityTaskCanceled: (e, runs) => ({
    type: 'resolveActivity',
    activityId: runs.activity(e.attributes.scheduledEventId).activityId,
    failure: activityFailure(runs, e.attributes.scheduledEventId, 'cancelled', 'CancelRequested', {
      kind: 'Canceled', message: 'Activity cancelled', details: e.attributes.details === undefined ? [] : [e.attributes.details],
    }),
  }),
  WorkflowExecutionCancelRequested: (e) => ({ type: 'cancelWorkflow', ...(e.attributes.reason ? { reason: e.attributes.reason } : {}) }),
  ...CHILD_EVENT_JOBS,
  ...MESSAGE_EVENT_JOBS,
};
