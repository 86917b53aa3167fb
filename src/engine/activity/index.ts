import { encodePayload } from '../../common/payload.ts';
import { optionalArray, optionalString, requireInt, requireString } from '../../common/validate.ts';
import { ValidationError } from '../../errors/index.ts';
import { checkUserMetadata } from '../../history/user-metadata.ts';
import { armActivityTimer, onActivityTimer, pendingActivityInfo, requestCancelActivity } from './activities.ts';
import { checkPending } from '../core/limits.ts';
import { optionalHeader, optionalTimeout, requireRetryPolicy } from '../core/requests.ts';
import type { HistoryEvent } from '../../history/events.ts';
import { activitySlice, type ActivityInfo } from './activity-state.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import { atKey } from '../core/queue-book.ts';
import { applyRunTimer, type Feature } from '../core/feature.ts';

/**
 * Activities: ScheduleActivityTask and RequestCancelActivityTask; the ActivityTimeout timer
 * (every timeout and the end of a retry backoff); describe's pending activities. Its state
 * slice is `RunState.activities`; the task side (poll, heartbeat, respond) is activities.ts.
 */
export const activityFeature = {
  commands: {
    ScheduleActivityTask({ b, completedEventId, field, limits }, a) {
      const activityId = requireString(`${field}.activityId`, a.activityId);
      const activityType = requireString(`${field}.activityType`, a.activityType);
      const taskQueue = optionalString(`${field}.taskQueue`, a.taskQueue) ?? b.record.taskQueue;
      const args = optionalArray(`${field}.args`, a.args);
      encodePayload(`${field}.args`, args);
      const retryPolicy = requireRetryPolicy(`${field}.retryPolicy`, a.retryPolicy);
      const header = optionalHeader(`${field}.header`, a.header);
      const userMetadata = checkUserMetadata(`${field}.userMetadata`, a.userMetadata, false);
      const s2c = optionalTimeout(`${field}.scheduleToCloseTimeoutMs`, a.scheduleToCloseTimeoutMs);
      const s2s = optionalTimeout(`${field}.scheduleToStartTimeoutMs`, a.scheduleToStartTimeoutMs);
      const stc = optionalTimeout(`${field}.startToCloseTimeoutMs`, a.startToCloseTimeoutMs);
      const hb = optionalTimeout(`${field}.heartbeatTimeoutMs`, a.heartbeatTimeoutMs);
      if (stc === undefined && s2c === undefined) {
        throw new ValidationError(`${field}.startToCloseTimeoutMs`, 'is required when scheduleToCloseTimeoutMs is not set', undefined);
      }
      const pending = Object.values(b.state.activities);
      if (pending.some((x) => x.activityId === activityId)) {
        throw new ValidationError(`${field}.activityId`, 'must be unique among the pending activities of the run', activityId);
      }
      checkPending(field, pending.length, limits, 'maxPendingActivities');
      const timeouts = {
        startToCloseTimeoutMs: stc ?? s2c!,
        ...(s2c !== undefined ? { scheduleToCloseTimeoutMs: s2c } : {}),
        ...(s2s !== undefined ? { scheduleToStartTimeoutMs: s2s } : {}),
        ...(hb !== undefined ? { heartbeatTimeoutMs: hb } : {}),
      };
      const ev = b.append('ActivityTaskScheduled', {
        activityId, activityType, taskQueue, args, retryPolicy, workflowTaskCompletedEventId: completedEventId, ...timeouts,
        ...(header ? { header } : {}),
        ...(userMetadata ? { userMetadata } : {}),
      });
      const act: ActivityInfo = {
        scheduledEventId: ev.eventId, activityId, activityType, taskQueue, args, retryPolicy, timeouts, attempt: 1,
        state: 'Scheduled', scheduledTime: b.now, attemptScheduledTime: b.now, cancelRequested: false,
      };
      if (header) act.header = header;
      if (userMetadata?.summary !== undefined) act.summary = userMetadata.summary;
      act.taskId = b.addTask('activity', taskQueue, { scheduledEventId: ev.eventId, attempt: 1 });
      b.state.activities[String(ev.eventId)] = act;
      armActivityTimer(b, act);
    },

    RequestCancelActivityTask({ b, completedEventId, field }, a) {
      const id = requireInt(`${field}.scheduledEventId`, a.scheduledEventId, 1);
      const act = b.state.activities[String(id)];
      if (!act) throw new ValidationError(`${field}.scheduledEventId`, 'must be the scheduled event id of a pending activity', id);
      requestCancelActivity(b, act, completedEventId);
    },
  },
  timers: {
    ActivityTimeout: (core, timer) => core.mutate(timer.runId, (b) => {
      const { scheduledEventId } = timer.data;
      const act = b.state.activities[String(scheduledEventId)];
      // The worker's answer to a timed-out attempt is no longer awaited.
      if (act) core.inFlight.delete(atKey({ runId: timer.runId, scheduledEventId, attempt: act.attempt }));
      applyRunTimer(b, timer, (tb, data) => {
        const pending = tb.state.activities[String(data.scheduledEventId)];
        if (tb.closed || !pending || pending.timer?.id !== timer.id) return;
        onActivityTimer(tb, pending);
      });
    }),
  },
  describe(s, d, now) {
    d.pendingActivities = Object.values(s.activities).sort((a, b) => a.scheduledEventId - b.scheduledEventId).map((a) => pendingActivityInfo(a, now));
  },
  rebuild: rebuildActivities,
  state: activitySlice,
  onClose: (b) => {
    b.state.activities = {};
  },
} satisfies Feature;

const ACTIVITY_CLOSE_EVENTS: ReadonlySet<string> = new Set(['ActivityTaskCompleted', 'ActivityTaskFailed', 'ActivityTaskTimedOut', 'ActivityTaskCanceled']);

/** Activities scheduled and not closed in the history are pending again, dispatched as attempt 1 with their timeouts counted from now. */
function rebuildActivities(b: TransitionBuilder, events: readonly HistoryEvent[]): void {
  const open = new Map<number, HistoryEvent<'ActivityTaskScheduled'>>();
  for (const e of events) {
    if (e.eventType === 'ActivityTaskScheduled') open.set(e.eventId, e);
    else if (ACTIVITY_CLOSE_EVENTS.has(e.eventType)) open.delete((e.attributes as { scheduledEventId: number }).scheduledEventId);
  }
  for (const e of open.values()) {
    const a = e.attributes;
    const timeouts = {
      ...(a.startToCloseTimeoutMs !== undefined ? { startToCloseTimeoutMs: a.startToCloseTimeoutMs } : {}),
      ...(a.scheduleToCloseTimeoutMs !== undefined ? { scheduleToCloseTimeoutMs: a.scheduleToCloseTimeoutMs } : {}),
      ...(a.scheduleToStartTimeoutMs !== undefined ? { scheduleToStartTimeoutMs: a.scheduleToStartTimeoutMs } : {}),
      ...(a.heartbeatTimeoutMs !== undefined ? { heartbeatTimeoutMs: a.heartbeatTimeoutMs } : {}),
    };
    const act: ActivityInfo = {
      scheduledEventId: e.eventId, activityId: a.activityId, activityType: a.activityType, taskQueue: a.taskQueue, args: a.args,
      retryPolicy: a.retryPolicy, timeouts, attempt: 1, state: 'Scheduled', scheduledTime: b.now, attemptScheduledTime: b.now, cancelRequested: false,
    };
    if (a.header) act.header = a.header;
    act.taskId = b.addTask('activity', a.taskQueue, { scheduledEventId: e.eventId, attempt: 1 });
    b.state.activities[String(e.eventId)] = act;
    armActivityTimer(b, act);
  }
}
