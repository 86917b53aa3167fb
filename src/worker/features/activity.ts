import type { FailureInfo } from '../../common/failure.ts';
import { defineFeature, records, SILENT, wakes } from './feature.ts';
import type { ReplayIds } from './replay-ids.ts';

function activityFailure(
  ids: ReplayIds, scheduledEventId: number, message: string, retryState: FailureInfo['retryState'], cause: FailureInfo,
): FailureInfo {
  const { activityId, activityType } = ids.activity(scheduledEventId);
  // The message names the activity and its root cause, so a WorkflowFailedError reads well
  // on its own: "activity chargeCard (1) failed: card declined for declined-1".
  const full = `activity ${activityType} (${activityId}) ${message}: ${cause.message}`;
  return { kind: 'Activity', message: full, activityType, activityId, ...(retryState ? { retryState } : {}), cause };
}

/**
 * Activities: a ScheduleActivityTask matches by activity id and type; a cancel request by the
 * scheduled event it names. Each outcome event resolves the activity's promise.
 * ActivityTaskStarted is written only when the attempt closes and concerns no workflow code.
 */
export const activityFeature = defineFeature({
  name: 'activity',
  commands: {
    ScheduleActivityTask: { events: ['ActivityTaskScheduled'], keys: ['activityId', 'activityType'] },
    RequestCancelActivityTask: { events: ['ActivityTaskCancelRequested'], keys: ['scheduledEventId'] },
  },
  events: {
    ActivityTaskScheduled: records<'ActivityTaskScheduled'>((e, ids) => ids.addActivity(e.eventId, e.attributes.activityId, e.attributes.activityType)),
    ActivityTaskStarted: SILENT,
    ActivityTaskCancelRequested: records(),
    ActivityTaskCompleted: wakes<'ActivityTaskCompleted'>((e, ids) => ({
      type: 'resolveActivity', activityId: ids.activity(e.attributes.scheduledEventId).activityId, result: e.attributes.result,
    })),
    ActivityTaskFailed: wakes<'ActivityTaskFailed'>((e, ids) => ({
      type: 'resolveActivity',
      activityId: ids.activity(e.attributes.scheduledEventId).activityId,
      failure: activityFailure(ids, e.attributes.scheduledEventId, 'failed', e.attributes.retryState, e.attributes.failure),
    })),
    ActivityTaskTimedOut: wakes<'ActivityTaskTimedOut'>((e, ids) => ({
      type: 'resolveActivity',
      activityId: ids.activity(e.attributes.scheduledEventId).activityId,
      failure: activityFailure(ids, e.attributes.scheduledEventId, 'timed out', e.attributes.retryState, e.attributes.failure),
    })),
    ActivityTaskCanceled: wakes<'ActivityTaskCanceled'>((e, ids) => ({
      type: 'resolveActivity',
      activityId: ids.activity(e.attributes.scheduledEventId).activityId,
      failure: activityFailure(ids, e.attributes.scheduledEventId, 'cancelled', 'CancelRequested', {
        kind: 'Canceled', message: 'Activity cancelled', details: e.attributes.details === undefined ? [] : [e.attributes.details],
      }),
    })),
  },
});
