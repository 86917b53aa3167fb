import type { SdkMetadata } from '../../common/sdk-metadata.ts';
import { ValidationError } from '../../errors/index.ts';
import { ServiceError } from '../../common/errors.ts';
import type { FailureInfo } from '../../common/failure.ts';
import { newUuid } from '../../common/ids.ts';
import type { HistoryEvent, WorkflowTaskFailedCause } from '../../history/events.ts';
import type { ExecutionRecord } from '../../store/types.ts';
import { coreStateOf, type WorkflowTaskFailureRecord, type WorkflowTaskInfo } from '../core/state.ts';
import type { TaskTokenData } from '../core/task-token.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import type { EngineLimits } from '../core/limits.ts';

/** Cap on the delay between attempts of a failing workflow task, ms. @default 600 000 (10 min) */
export const MAX_WORKFLOW_TASK_RETRY_DELAY_MS = 600_000;

/**
 * Delay before attempt `attempt` of a workflow task that keeps failing: the first retry at
 * once (a transient fault, or a fixed deploy), then 1 s, 2 s, 4 s, … up to 10 minutes.
 * Workflow tasks retry indefinitely, outside any retry policy.
 */
export function workflowTaskRetryDelayMs(attempt: number): number {
  if (attempt <= 2) return 0;
  return Math.min(1000 * 2 ** (attempt - 3), MAX_WORKFLOW_TASK_RETRY_DELAY_MS);
}

/** The history limits' warning line, past which a started workflow task suggests continue-as-new. */
export type WarningLine = Pick<EngineLimits, 'historyWarnEvents' | 'historyWarnBytes'>;

/**
 * Starts the scheduled workflow task `seq`; null when the task row is stale (the run closed,
 * or the task was started, timed out or replaced). A transient task gets its Scheduled/Started
 * ids now but its events are only written when it completes. `at` is the start's time when it is
 * not the transition's (a task its worker ran before reporting it, continued-task.ts). A task that
 * starts with the history at or past the warning line of `limits` suggests continue-as-new on its
 * WorkflowTaskStarted, as Temporal's server does.
 */
export function startWorkflowTask(
  b: TransitionBuilder, seq: number, identity: string, limits: WarningLine, at?: number,
): WorkflowTaskInfo | null {
  const wt = b.state.wt;
  if (b.closed || !wt || wt.seq !== seq || wt.startedTime !== undefined) return null;
  const requestId = newUuid();
  if (b.record.nextEventId - 1 >= limits.historyWarnEvents || (b.state.historySizeBytes ?? 0) >= limits.historyWarnBytes) {
    wt.suggestContinueAsNew = true;
  } else {
    delete wt.suggestContinueAsNew;
  }
  if (wt.transient) {
    wt.scheduledEventId = b.record.nextEventId;
    wt.startedEventId = wt.scheduledEventId + 1;
  } else {
    const attributes = { scheduledEventId: wt.scheduledEventId!, identity, requestId, ...(wt.suggestContinueAsNew ? { suggestContinueAsNew: true } : {}) };
    wt.startedEventId = (at === undefined ? b.append('WorkflowTaskStarted', attributes)
      : b.appendAt('WorkflowTaskStarted', new Date(at).toISOString(), attributes)).eventId;
  }
  wt.startedTime = at ?? b.now;
  wt.identity = identity;
  wt.requestId = requestId;
  b.deleteTask(wt.taskId);
  delete wt.taskId;
  wt.timeoutTimerId = b.addTimer('WorkflowTaskTimeout', b.now + b.state.cfg.workflowTaskTimeoutMs, { seq, attempt: wt.attempt });
  b.touch();
  return { ...wt };
}

/** The Scheduled/Started events of a transient task, sent to the worker but not yet stored. */
export function transientEvents(wt: WorkflowTaskInfo, workflowTaskTimeoutMs: number): HistoryEvent[] {
  if (!wt.transient) return [];
  const at = new Date(wt.startedTime!).toISOString();
  return [
    { eventId: wt.scheduledEventId!, eventType: 'WorkflowTaskScheduled', eventTime: new Date(wt.scheduledTime).toISOString(),
      attributes: { taskQueue: wt.taskQueue, startToCloseTimeoutMs: workflowTaskTimeoutMs, attempt: wt.attempt } },
    { eventId: wt.startedEventId!, eventType: 'WorkflowTaskStarted', eventTime: at,
      attributes: {
        scheduledEventId: wt.scheduledEventId!, identity: wt.identity ?? '', requestId: wt.requestId ?? '',
        ...(wt.suggestContinueAsNew ? { suggestContinueAsNew: true } : {}),
      } },
  ];
}

/** True when a token's start (if it names one) is the task's current start. */
function sameStart(wt: WorkflowTaskInfo, startId: string | undefined): boolean {
  return startId === undefined || startId === wt.requestId;
}

/**
 * The started workflow task a response's token names.
 * @throws ServiceError FailedPrecondition when the run closed or the token is from another task or attempt.
 */
export function requireStartedTask(b: TransitionBuilder, token: Extract<TaskTokenData, { kind: 'workflow' }>): WorkflowTaskInfo {
  if (b.record.namespace !== token.namespace) throw new ValidationError('taskToken', 'must name the namespace of its run', token.namespace);
  if (b.closed) throw new ServiceError('FailedPrecondition', `workflow run ${b.record.runId} is already ${b.record.status}`);
  const wt = b.state.wt;
  if (!wt || wt.seq !== token.seq || wt.attempt !== token.attempt || wt.startedTime === undefined || !sameStart(wt, token.startId)) {
    throw new ServiceError('FailedPrecondition', `workflow task ${token.seq} attempt ${token.attempt} of run ${b.record.runId} is not the started task (it timed out, failed or completed)`);
  }
  return wt;
}

/** Writes the (transient) Scheduled/Started and WorkflowTaskCompleted events; returns the completed event id. */
export function completeWorkflowTask(b: TransitionBuilder, wt: WorkflowTaskInfo, identity: string, sdkMetadata?: SdkMetadata): number {
  if (wt.transient) {
    // Stored exactly as the worker saw them (ids and times), so a replay sees the same history.
    const [scheduled, started] = transientEvents(wt, b.state.cfg.workflowTaskTimeoutMs) as [HistoryEvent<'WorkflowTaskScheduled'>, HistoryEvent<'WorkflowTaskStarted'>];
    b.appendAt('WorkflowTaskScheduled', scheduled.eventTime, scheduled.attributes);
    b.appendAt('WorkflowTaskStarted', started.eventTime, started.attributes);
  }
  const completed = b.append('WorkflowTaskCompleted', { scheduledEventId: wt.scheduledEventId!, startedEventId: wt.startedEventId!, identity, ...(sdkMetadata?.langUsedFlags ? { sdkMetadata } : {}) });
  b.deleteTimer(wt.timeoutTimerId);
  b.state.wt = undefined;
  b.state.previousStartedEventId = wt.startedEventId!;
  b.state.wtAttempt = 1;
  delete b.state.wtLastFailure;
  return completed.eventId;
}

/** After the commands: events that arrived meanwhile are appended, and a new task shows them to the worker. */
export function finishWorkflowTask(b: TransitionBuilder): void {
  if (b.closed) return;
  const flushed = b.flushBuffered();
  if (flushed > 0 || b.needsWorkflowTask) b.ensureWorkflowTask();
}

/**
 * A failed attempt (reported by the worker, or a command the engine rejected): only the first
 * failure in a row is written (WorkflowTaskFailed); later attempts are transient. The next
 * attempt is scheduled after {@link workflowTaskRetryDelayMs}.
 */
export function failWorkflowTask(b: TransitionBuilder, wt: WorkflowTaskInfo, cause: WorkflowTaskFailedCause, failure: FailureInfo, identity: string): void {
  if (!wt.transient) {
    b.append('WorkflowTaskFailed', { scheduledEventId: wt.scheduledEventId!, startedEventId: wt.startedEventId!, cause, failure, identity });
  }
  b.deleteTimer(wt.timeoutTimerId);
  b.state.wt = undefined;
  b.flushBuffered();
  b.state.wtAttempt = wt.attempt + 1;
  b.state.wtLastFailure = failureRecord(cause, failure, wt.attempt, b.now, identity);
  b.scheduleWorkflowTask(b.now + workflowTaskRetryDelayMs(wt.attempt + 1));
}

/** Lines of a failure's stack kept for describe: the message line and the first frames. */
export const KEPT_STACK_LINES = 6;
/** Longest failure message kept for describe, characters. */
const KEPT_MESSAGE_CHARS = 2_000;

function failureRecord(cause: WorkflowTaskFailedCause, failure: FailureInfo, attempt: number, time: number, identity: string): WorkflowTaskFailureRecord {
  const message = failure.message.length > KEPT_MESSAGE_CHARS ? `${failure.message.slice(0, KEPT_MESSAGE_CHARS)}…` : failure.message;
  const rec: WorkflowTaskFailureRecord = { cause, message, attempt, time, identity };
  if (failure.type !== undefined) rec.type = failure.type;
  if (failure.stack) rec.stack = failure.stack.split('\n').slice(0, KEPT_STACK_LINES).join('\n');
  return rec;
}

/**
 * The workflow task's timeout timer fired: like {@link onWorkflowTaskTimeout}, and describe's
 * last failure says so (a task the worker never finishes — an endless loop, a vanished worker —
 * is otherwise as invisible as one that fails).
 */
export function onWorkflowTaskTimerFired(b: TransitionBuilder, seq: number, attempt: number): void {
  const wt = b.state.wt;
  const identity = wt?.identity ?? '';
  if (!onWorkflowTaskTimeout(b, seq, attempt)) return;
  const ms = b.state.cfg.workflowTaskTimeoutMs;
  b.state.wtLastFailure = {
    cause: 'TimedOut', message: `workflow task timed out: no answer within its ${ms} ms workflowTaskTimeout`, attempt, time: b.now, identity,
  };
}

/** The workflow task timeout fired: the worker vanished or is too slow; hand the task out again. */
export function onWorkflowTaskTimeout(b: TransitionBuilder, seq: number, attempt: number, startId?: string): boolean {
  const wt = b.state.wt;
  if (b.closed || !wt || wt.seq !== seq || wt.attempt !== attempt || wt.startedTime === undefined || !sameStart(wt, startId)) return false;
  if (!wt.transient) {
    b.append('WorkflowTaskTimedOut', { scheduledEventId: wt.scheduledEventId!, startedEventId: wt.startedEventId!, timeoutType: 'StartToClose' });
  }
  b.state.wt = undefined;
  b.flushBuffered();
  b.state.wtAttempt = wt.attempt + 1;
  b.scheduleWorkflowTask();
  return true;
}

/**
 * Why a run does not move while its workflow task keeps failing, or undefined when it is not
 * failing: `the run's workflow task is failing: attempt 5, BadCommand: …; see describe`. The
 * client says the same from describe's pendingWorkflowTask (client/waits.ts).
 */
export function workflowTaskFailing(rec: ExecutionRecord): string | undefined {
  if (rec.status !== 'Running') return undefined;
  const f = coreStateOf(rec).wtLastFailure;
  if (!f) return undefined;
  return `the run's workflow task is failing: attempt ${f.attempt}, ${f.cause}${f.type !== undefined ? ` (${f.type})` : ''}: ${f.message.split('\n')[0]}; ` +
    `see describe (\`steadfast workflow describe ${rec.workflowId}\`: pendingWorkflowTask.lastFailure)`;
}
