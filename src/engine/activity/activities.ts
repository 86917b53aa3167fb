import type { ActivityInfo } from './activity-state.ts';
import { capDelay } from '../../common/max-duration.ts';
import type { FailureInfo, RetryState, TimeoutType } from '../../common/failure.ts';
import { newUuid } from '../../common/ids.ts';
import type { EventAttributes } from '../../history/events.ts';
import type { ActivityTask, PendingActivityInfo } from '../../protocol/index.ts';
import { backoffInfo, decideRetry, timeoutFailureType, WORKER_CRASHED } from '../../retry/index.ts';
import type { ExecutionRecord } from '../../store/types.ts';
import type { TaskTokens } from '../core/task-token.ts';
import type { TransitionBuilder } from '../core/transition.ts';

/* Activity state machine: scheduled → started → closed, or back to scheduled (a retry, with its
 * task row visible after the backoff). One ActivityTimeout timer per activity sits at the
 * earliest deadline; when it fires early (a heartbeat moved the deadline) it re-arms. */

interface Deadline { type: TimeoutType; at: number }

function deadlines(act: ActivityInfo): Deadline[] {
  const t = act.timeouts;
  const out: Deadline[] = [];
  if (t.scheduleToCloseTimeoutMs !== undefined) out.push({ type: 'ScheduleToClose', at: act.scheduledTime + t.scheduleToCloseTimeoutMs });
  if (act.state === 'Scheduled' && t.scheduleToStartTimeoutMs !== undefined) {
    out.push({ type: 'ScheduleToStart', at: act.attemptScheduledTime + t.scheduleToStartTimeoutMs });
  }
  if (act.state === 'Started' && act.startedTime !== undefined) {
    if (t.startToCloseTimeoutMs !== undefined) out.push({ type: 'StartToClose', at: act.startedTime + t.startToCloseTimeoutMs });
    if (t.heartbeatTimeoutMs !== undefined) {
      out.push({ type: 'Heartbeat', at: Math.max(act.startedTime, act.attemptHeartbeatTime ?? 0) + t.heartbeatTimeoutMs });
    }
  }
  return out;
}

/** Keeps the activity's timer at (or before) its earliest deadline. */
export function armActivityTimer(b: TransitionBuilder, act: ActivityInfo): void {
  const ds = deadlines(act);
  if (ds.length === 0) {
    b.deleteTimer(act.timer?.id);
    delete act.timer;
    return;
  }
  const at = Math.min(...ds.map((d) => d.at));
  if (act.timer && act.timer.dueAt <= at) return;
  b.deleteTimer(act.timer?.id);
  act.timer = { id: b.addTimer('ActivityTimeout', at, { scheduledEventId: act.scheduledEventId }), dueAt: at };
}

/**
 * Writes ActivityTaskStarted (if the attempt started), stamped with the attempt's start time, and
 * the close event; forgets the activity. The seeds write the start only at the close, so that a
 * retried attempt leaves no event; its time is still when the attempt started, as Temporal's
 * eventTime is: a two-minute attempt spans two minutes between the two events.
 */
function closeActivity<K extends 'ActivityTaskCompleted' | 'ActivityTaskFailed' | 'ActivityTaskTimedOut' | 'ActivityTaskCanceled'>(
  b: TransitionBuilder, act: ActivityInfo, eventType: K, attributes: Omit<EventAttributes[K], 'startedEventId' | 'scheduledEventId'>,
): void {
  const started = act.state === 'Started';
  if (started) {
    b.addEvent('ActivityTaskStarted', {
      scheduledEventId: act.scheduledEventId, attempt: act.attempt, identity: act.identity ?? '', requestId: act.requestId ?? '',
      ...(act.lastFailure ? { lastFailure: act.lastFailure } : {}),
    }, false, act.startedTime !== undefined ? new Date(act.startedTime).toISOString() : b.nowIso);
  }
  b.addEvent(eventType, { ...attributes, scheduledEventId: act.scheduledEventId, startedEventId: 0 } as unknown as EventAttributes[K], started);
  delete b.state.activities[String(act.scheduledEventId)];
  b.deleteTimer(act.timer?.id);
  b.deleteTask(act.taskId);
  b.ensureWorkflowTask();
}

/**
 * True when an attempt's timeout means its worker vanished, which carries horsies'
 * WORKER_CRASHED code (a horsies policy's autoRetryFor may list it): a heartbeat timeout, or a
 * start-to-close timeout of an attempt that gave no sign of life within its heartbeat timeout. An
 * attempt still heartbeating when its start-to-close passed ran too long on a live worker: a
 * plain timeout, as horsies keeps WORKER_CRASHED for a worker that is gone.
 */
function workerVanished(act: ActivityInfo, type: TimeoutType, now: number): boolean {
  if (type === 'Heartbeat') return true;
  if (type !== 'StartToClose') return false;
  const every = act.timeouts.heartbeatTimeoutMs;
  const last = act.attemptHeartbeatTime;
  return every === undefined || last === undefined || now - last > every;
}

function timeoutFailure(act: ActivityInfo, type: TimeoutType, now: number, cause?: FailureInfo): FailureInfo {
  return {
    kind: 'Timeout', message: `activity ${type} timeout`, timeoutType: type, type: timeoutFailureType(type),
    ...(workerVanished(act, type, now) ? { errorCode: WORKER_CRASHED } : {}),
    ...(act.heartbeatDetails !== undefined ? { lastHeartbeatDetails: act.heartbeatDetails } : {}),
    ...(cause ? { cause } : {}),
  };
}

function timeOut(b: TransitionBuilder, act: ActivityInfo, type: TimeoutType, retryState: RetryState, cause?: FailureInfo): void {
  closeActivity(b, act, 'ActivityTaskTimedOut', { failure: timeoutFailure(act, type, b.now, cause ?? act.lastFailure), retryState });
}

/**
 * A failed attempt (an error or a start-to-close / heartbeat timeout): the next attempt is put
 * back on the queue after the policy's interval (jittered with seed key runId+activityId, so
 * every server computes the same delay), or the activity closes. A retry that would start at
 * or after the schedule-to-close deadline closes it with ScheduleToClose instead.
 */
function retryOrClose(b: TransitionBuilder, act: ActivityInfo, failure: FailureInfo, onClose: (retryState: RetryState) => void): void {
  const d = decideRetry(act.retryPolicy, {
    attempt: act.attempt, failure, elapsedMs: b.now - act.scheduledTime, seedKey: b.record.runId + act.activityId,
  });
  if (!d.retry) return onClose(d.retryState);
  const nextAt = b.now + capDelay(d.delayMs);
  const s2c = act.timeouts.scheduleToCloseTimeoutMs;
  if (s2c !== undefined && nextAt >= act.scheduledTime + s2c) return timeOut(b, act, 'ScheduleToClose', 'Timeout', failure);
  act.attempt++;
  act.state = 'Scheduled';
  act.lastFailure = failure;
  act.attemptScheduledTime = nextAt;
  delete act.startedTime;
  delete act.attemptHeartbeatTime;
  act.taskId = b.addTask('activity', act.taskQueue, { scheduledEventId: act.scheduledEventId, attempt: act.attempt }, nextAt);
  armActivityTimer(b, act);
  b.touch();
}

/** Marks the attempt started (the event itself is written when the activity closes). */
export function startActivity(b: TransitionBuilder, act: ActivityInfo, identity: string): void {
  act.state = 'Started';
  act.startedTime = b.now;
  act.lastStartedTime = b.now;
  act.identity = identity;
  act.requestId = newUuid();
  b.deleteTask(act.taskId);
  delete act.taskId;
  armActivityTimer(b, act);
  b.touch();
}

/**
 * Puts a started attempt back on its queue, as if it had never been handed out: the worker it
 * was handed to never received it (its long poll's connection was gone). Same attempt, no event.
 */
export function unstartActivity(b: TransitionBuilder, act: ActivityInfo): void {
  act.state = 'Scheduled';
  delete act.startedTime;
  delete act.attemptHeartbeatTime;
  delete act.identity;
  delete act.requestId;
  act.taskId = b.addTask('activity', act.taskQueue, { scheduledEventId: act.scheduledEventId, attempt: act.attempt }, b.now);
  armActivityTimer(b, act);
  b.touch();
}

export function completeActivity(b: TransitionBuilder, act: ActivityInfo, result: unknown, identity: string): void {
  closeActivity(b, act, 'ActivityTaskCompleted', { result: result === undefined ? null : result, identity });
}

export function failActivity(b: TransitionBuilder, act: ActivityInfo, failure: FailureInfo, identity: string, heartbeatDetails?: unknown): void {
  if (heartbeatDetails !== undefined) act.heartbeatDetails = heartbeatDetails;
  retryOrClose(b, act, failure, (retryState) => closeActivity(b, act, 'ActivityTaskFailed', { failure, retryState, identity }));
}

export function cancelActivity(b: TransitionBuilder, act: ActivityInfo, details: unknown, identity: string): void {
  closeActivity(b, act, 'ActivityTaskCanceled', {
    latestCancelRequestedEventId: act.cancelRequestedEventId ?? 0, identity, ...(details !== undefined ? { details } : {}),
  });
}

/** Records a heartbeat; returns whether cancellation was requested. */
export function heartbeatActivity(b: TransitionBuilder, act: ActivityInfo, details: unknown): boolean {
  if (details !== undefined) act.heartbeatDetails = details;
  act.lastHeartbeatTime = b.now;
  act.attemptHeartbeatTime = b.now;
  b.touch();
  return act.cancelRequested;
}

/** The ActivityTimeout timer fired: handle the deadline that passed, or re-arm. */
export function onActivityTimer(b: TransitionBuilder, act: ActivityInfo): void {
  delete act.timer;
  b.touch();
  const due = deadlines(act).filter((d) => d.at <= b.now).sort((x, y) => x.at - y.at);
  const hit = due.find((d) => d.type === 'ScheduleToClose') ?? due[0];
  if (!hit) return armActivityTimer(b, act);
  if (hit.type === 'ScheduleToClose' || hit.type === 'ScheduleToStart') return timeOut(b, act, hit.type, 'Timeout');
  const failure = timeoutFailure(act, hit.type, b.now);
  retryOrClose(b, act, failure, (retryState) => closeActivity(b, act, 'ActivityTaskTimedOut', { failure, retryState }));
}

/**
 * RequestCancelActivityTask: an activity not running (scheduled or backing off) is canceled at
 * once; a running one is marked, and its next heartbeat answers cancelRequested.
 */
export function requestCancelActivity(b: TransitionBuilder, act: ActivityInfo, workflowTaskCompletedEventId: number): void {
  const requested = b.append('ActivityTaskCancelRequested', { scheduledEventId: act.scheduledEventId, workflowTaskCompletedEventId });
  if (act.state === 'Scheduled') {
    b.append('ActivityTaskCanceled', {
      scheduledEventId: act.scheduledEventId, startedEventId: 0, latestCancelRequestedEventId: requested.eventId, identity: '',
    });
    delete b.state.activities[String(act.scheduledEventId)];
    b.deleteTimer(act.timer?.id);
    b.deleteTask(act.taskId);
    b.needsWorkflowTask = true;
    return;
  }
  act.cancelRequested = true;
  act.cancelRequestedEventId = requested.eventId;
}

/** The task handed to an activity worker. */
export function activityTask(rec: ExecutionRecord, act: ActivityInfo, tokens: TaskTokens): ActivityTask {
  const t: ActivityTask = {
    taskToken: tokens.encode({ kind: 'activity', namespace: rec.namespace, runId: rec.runId, scheduledEventId: act.scheduledEventId, attempt: act.attempt }),
    namespace: rec.namespace, workflowId: rec.workflowId, runId: rec.runId, workflowType: rec.workflowType,
    activityId: act.activityId, activityType: act.activityType, taskQueue: act.taskQueue, args: act.args, attempt: act.attempt,
    scheduledEventId: act.scheduledEventId, scheduledTime: iso(act.scheduledTime),
    currentAttemptScheduledTime: iso(act.attemptScheduledTime), startedTime: iso(act.startedTime ?? act.attemptScheduledTime),
  };
  if (act.heartbeatDetails !== undefined) t.heartbeatDetails = act.heartbeatDetails;
  if (act.header) t.header = act.header;
  const to = act.timeouts;
  if (to.heartbeatTimeoutMs !== undefined) t.heartbeatTimeoutMs = to.heartbeatTimeoutMs;
  if (to.startToCloseTimeoutMs !== undefined) t.startToCloseTimeoutMs = to.startToCloseTimeoutMs;
  if (to.scheduleToCloseTimeoutMs !== undefined) t.scheduleToCloseTimeoutMs = to.scheduleToCloseTimeoutMs;
  if (act.retryPolicy.errorCodes !== undefined) t.errorCodes = act.retryPolicy.errorCodes;
  return t;
}

/** What describe shows of a pending activity. */
export function pendingActivityInfo(act: ActivityInfo, now: number): PendingActivityInfo {
  const p: PendingActivityInfo = {
    activityId: act.activityId, activityType: act.activityType, scheduledEventId: act.scheduledEventId,
    state: act.cancelRequested ? 'CancelRequested' : act.state, attempt: act.attempt,
    maximumAttempts: act.retryPolicy.maximumAttempts, backoff: backoffInfo(act.retryPolicy), scheduledTime: iso(act.scheduledTime),
  };
  if (act.lastStartedTime !== undefined) p.lastStartedTime = iso(act.lastStartedTime);
  if (act.state === 'Scheduled' && act.attempt > 1 && act.attemptScheduledTime > now) p.nextAttemptScheduleTime = iso(act.attemptScheduledTime);
  if (act.lastFailure) p.lastFailure = act.lastFailure;
  if (act.lastHeartbeatTime !== undefined) p.lastHeartbeatTime = iso(act.lastHeartbeatTime);
  if (act.heartbeatDetails !== undefined) p.heartbeatDetails = act.heartbeatDetails;
  if (act.timeouts.scheduleToCloseTimeoutMs !== undefined) p.expirationTime = iso(act.scheduledTime + act.timeouts.scheduleToCloseTimeoutMs);
  if (act.identity !== undefined) p.lastWorkerIdentity = act.identity;
  if (act.summary !== undefined) p.summary = act.summary;
  return p;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
