import { onTimeout, type Clock } from '../retry/clock.ts';
import {
  ApplicationFailure, CancelledFailure, TimeoutFailure, activityFailureInfo, isCancellation, type FailureInfo,
} from '../common/failure.ts';
import { errorCodeConfigOf, type ErrorCodeConfig } from '../retry/error-codes.ts';
import type { ActivityFunction } from '../common/workflow-types.ts';
import type { ActivityTask, WorkflowService } from '../protocol/index.ts';
import { activityLogAttributes, executeActivity, type ActivityInterceptorsFactory } from './interceptors.ts';
import { Context, runInActivityContext, type ActivityInfo, type ActivityLogger } from '../activity/context.ts';
import { CompleteAsyncError } from '../activity/complete-async-error.ts';
import { logAt } from './runtime.ts';
import { Heartbeater, heartbeatThrottleMs } from './heartbeater.ts';
import { guardSignalListeners } from './activity-signal.ts';
import { toPayload } from '../common/payload.ts';
import type { Logger } from './logger.ts';
import type { CodecChain } from '../codec/codec-chain.ts';
import { refuseEnvelopes } from '../codec/payload-codec.ts';
import { DEFAULT_REPORT_WINDOW_MS, deliverReport } from './report.ts';
import type { WorkflowContinuation } from './workflow-task-handler.ts';

/** One running activity attempt, as shutdown sees it. */
export interface RunningActivity {
  /** Aborts the attempt's cancellation signal with `reason`. */
  abort(reason: Error): void;
  readonly done: Promise<void>;
}

/** What {@link runActivityTask} needs from its worker. */
interface ActivityExecutorDeps {
  service: WorkflowService;
  activities: Record<string, ActivityFunction>;
  identity: string;
  clock: Clock;
  logger: Logger;
  /** The worker's payload codecs: the task's arguments and heartbeat details are decoded before the activity runs. */
  codec?: CodecChain | undefined;
  /** The worker's exception mapper and default error code (horsies' global level). @default the process's (setGlobalExceptionMapper) */
  errorCodes?: ErrorCodeConfig | undefined;
  /** Told once how the attempt ended, before the outcome is reported. */
  onOutcome?: (outcome: 'completed' | 'failed' | 'canceled', err?: unknown) => void;
  /** Runs the workflow task the completion schedules, when the worker has the run cached (WorkflowTaskHandler.continueAfterActivity). */
  continueWorkflow?: ((task: ActivityTask, result: unknown, ranMs: number) => Promise<WorkflowContinuation | undefined>) | undefined;
  /** The worker's activity interceptor factories. */
  interceptors?: readonly ActivityInterceptorsFactory[] | undefined;
}

function infoOf(task: ActivityTask, clockNow: number): ActivityInfo {
  const scheduledTime = new Date(task.scheduledTime);
  const currentAttemptScheduledTime = new Date(task.currentAttemptScheduledTime);
  return {
    namespace: task.namespace,
    activityNamespace: task.namespace,
    workflowNamespace: task.namespace,
    activityId: task.activityId,
    activityType: task.activityType,
    workflowId: task.workflowId,
    runId: task.runId,
    workflowExecution: { workflowId: task.workflowId, runId: task.runId },
    workflowType: task.workflowType,
    taskQueue: task.taskQueue,
    attempt: task.attempt,
    isLocal: false,
    scheduledTime,
    scheduledTimestampMs: scheduledTime.getTime(),
    currentAttemptScheduledTime,
    currentAttemptScheduledTimestampMs: currentAttemptScheduledTime.getTime(),
    startedTime: new Date(task.startedTime ?? clockNow),
    heartbeatDetails: task.heartbeatDetails,
    heartbeatTimeoutMs: task.heartbeatTimeoutMs,
    startToCloseTimeoutMs: task.startToCloseTimeoutMs,
    scheduleToCloseTimeoutMs: task.scheduleToCloseTimeoutMs,
    taskToken: Buffer.from(task.taskToken, 'utf8'),
    base64TaskToken: Buffer.from(task.taskToken, 'utf8').toString('base64'),
  };
}

/** The activity `log` of one attempt: the worker's logger with Temporal's activity fields. */
/**
 * The activity logger of an attempt: lines go to the worker's logger with the attempt's ids,
 * shaped by the attempt's outbound `getLogAttributes` interceptors once its context exists.
 */
export function activityLogger(logger: Logger, info: ActivityInfo, context: () => Context | undefined = () => undefined): ActivityLogger {
  const fields = {
    sdkComponent: 'activity', isLocal: info.isLocal, attempt: info.attempt, namespace: info.namespace, taskToken: info.base64TaskToken,
    workflowId: info.workflowId, workflowRunId: info.runId, workflowType: info.workflowType, activityId: info.activityId,
    activityType: info.activityType, taskQueue: info.taskQueue,
  };
  const at = (level: 'trace' | 'debug' | 'info' | 'warn' | 'error') => (message: string, attrs?: Record<string, unknown>) =>
    logAt(logger, level, String(message), withLogAttributes(context(), { ...fields, ...attrs }));
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/**
 * Until when the attempt's outcome and heartbeats are worth retrying, on the worker's clock: its
 * start-to-close deadline (counted from when the worker got the task), or the schedule-to-close
 * deadline when that comes first. After it the service has timed the attempt out.
 */
function attemptDeadline(task: ActivityTask, receivedAt: number): number {
  const bounds: number[] = [];
  if (task.startToCloseTimeoutMs) bounds.push(receivedAt + task.startToCloseTimeoutMs);
  if (task.scheduleToCloseTimeoutMs) {
    const scheduled = Date.parse(task.scheduledTime);
    const started = Date.parse(task.startedTime);
    // The server's times, moved to the worker's clock by the distance between them.
    bounds.push(receivedAt - (Number.isNaN(started - scheduled) ? 0 : started - scheduled) + task.scheduleToCloseTimeoutMs);
  }
  return bounds.length > 0 ? Math.min(...bounds) : receivedAt + DEFAULT_REPORT_WINDOW_MS;
}

/**
 * Refuses a result JSON cannot carry. Non-retryable: the same code would return the same kind of
 * value again, and activities retry without limit by default.
 */
function checkResult(activityType: string, result: unknown): unknown {
  try {
    return toPayload(`result of activity ${activityType}`, result);
  } catch (err) {
    throw ApplicationFailure.nonRetryable((err as Error).message, 'PayloadError');
  }
}

/**
 * The failure to report for an error the activity threw. When its details (or its causes')
 * cannot be carried as JSON, they are left out and the message says why, so that the failure
 * is still reported, with the retryability the activity gave it.
 */
function reportableFailure(err: unknown, task: ActivityTask, workerCodes: ErrorCodeConfig | undefined): FailureInfo {
  const info = activityFailureInfo(err, errorCodeConfigOf(task.errorCodes), workerCodes);
  try {
    return toPayload('failure', info);
  } catch (payloadErr) {
    const { details: _details, cause: _cause, lastHeartbeatDetails: _heartbeat, ...rest } = info;
    return { ...rest, message: `${info.message} (its details were left out: ${(payloadErr as Error).message})` };
  }
}

/** The task with its arguments and heartbeat details decoded by the codecs. */
async function decodedInput(task: ActivityTask, codec: CodecChain): Promise<ActivityTask> {
  const [args, details] = await Promise.all([
    codec.decodeValues(task.args),
    task.heartbeatDetails === undefined ? undefined : codec.decodeValues([task.heartbeatDetails]),
  ]);
  return { ...task, args, heartbeatDetails: details?.[0] };
}

/**
 * Runs one activity attempt and reports its outcome: completed with the result; failed with
 * the error (and the latest heartbeat details, which reach the next attempt); or canceled
 * when the workflow asked for cancellation and the activity gave up. The attempt's signal is
 * aborted on a cancel request, when its start-to-close deadline passes, or by shutdown.
 */
export function runActivityTask(task: ActivityTask, deps: ActivityExecutorDeps): RunningActivity {
  const controller = new AbortController();
  const { service, identity, clock, logger } = deps;
  const reportDeadline = attemptDeadline(task, clock.now());
  const receivedAt = performance.now();
  const abort = (reason: Error) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  // Only a cancel the workflow asked for is answered with respondActivityTaskCanceled; an abort by
  // shutdown or the deadline is a failed attempt, which the retry policy may retry elsewhere.
  let cancelRequested = false;
  const heartbeater = new Heartbeater(service, task.taskToken, identity, heartbeatThrottleMs(task.heartbeatTimeoutMs), clock, reportDeadline,
    (why) => {
      cancelRequested = !controller.signal.aborted;
      abort(new CancelledFailure(why === 'gone' ? 'Activity no longer known to the service' : 'Activity cancelled by the workflow'));
    },
    logger);
  const untime = task.startToCloseTimeoutMs
    ? onTimeout(clock, task.startToCloseTimeoutMs, () => abort(new TimeoutFailure('Activity start-to-close timeout passed', 'StartToClose')))
    : () => undefined;

  const run = async (): Promise<void> => {
    const fn = deps.activities[task.activityType];
    if (!fn) {
      const known = Object.keys(deps.activities).sort().join(', ') || '(none)';
      throw ApplicationFailure.retryable(
        `activity type "${task.activityType}" is not registered on this worker; registered: ${known}`, 'NotFoundError');
    }
    let input = task;
    if (deps.codec) input = await decodedInput(task, deps.codec);
    else refuseEnvelopes(task.args, 'this worker');
    const info = infoOf(input, clock.now());
    const ctx: Context = new Context(info, controller.signal, (d) => heartbeater.heartbeat(d), activityLogger(logger, info, () => ctx));
    guardSignalListeners(controller.signal, (f) => runInActivityContext(ctx, f), (err) => logger.error(
      `activity ${task.activityType} (${task.activityId}): a listener of its cancellation signal threw: ${(err as Error)?.message ?? String(err)}`,
      { workflowId: task.workflowId, runId: task.runId, attempt: task.attempt, error: err },
    ));
    return runInActivityContext(ctx, () => executeActivity(deps.interceptors ?? [], ctx, task.header, input.args, fn)) as Promise<void>;
  };

  const done = (async () => {
    // Left undefined when the attempt completed with `result`.
    let respond: (() => Promise<unknown>) | undefined;
    let result: unknown;
    try {
      result = checkResult(task.activityType, await run()) ?? null;
      deps.onOutcome?.('completed');
    } catch (err) {
      if (err instanceof CompleteAsyncError) {
        // The attempt stays open for a client to complete; the worker's part of it ended without error.
        deps.onOutcome?.('completed');
        return;
      }
      const reason = controller.signal.reason as unknown;
      const cancelled = cancelRequested
        && (isCancellation(err) || err === reason || (err as Error)?.name === 'AbortError');
      respond = cancelled
        ? () => service.respondActivityTaskCanceled({ taskToken: task.taskToken, identity, details: heartbeater.latestDetails })
        : () => service.respondActivityTaskFailed({
          taskToken: task.taskToken, failure: reportableFailure(err, task, deps.errorCodes), identity,
          ...(heartbeater.hasDetails ? { lastHeartbeatDetails: heartbeater.latestDetails } : {}),
        });
      deps.onOutcome?.(cancelled ? 'canceled' : 'failed', err);
    } finally {
      heartbeater.stop();
      untime();
    }
    const next = respond ? undefined : await deps.continueWorkflow?.(task, result, performance.now() - receivedAt);
    respond ??= () => service.respondActivityTaskCompleted({ taskToken: task.taskToken, result, identity, ...(next ? { workflowTask: next.task } : {}) });
    const sent = await deliverReport(respond, {
      clock, logger, deadline: reportDeadline, what: `the outcome of activity ${task.activityType} (${task.activityId})`,
      meta: { workflowId: task.workflowId, runId: task.runId, attempt: task.attempt },
    });
    await next?.settle(sent.delivered ? sent.value ?? undefined : undefined);
  })();
  return { abort, done };
}

/** `attrs` through the attempt's getLogAttributes interceptors (as they are before its context exists). */
function withLogAttributes(ctx: Context | undefined, attrs: Record<string, unknown>): Record<string, unknown> {
  return ctx ? activityLogAttributes(ctx, attrs) : attrs;
}
