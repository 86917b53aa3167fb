import type { Clock } from '../retry/clock.ts';
import { ApplicationFailure, CancelledFailure, TimeoutFailure, isCancellation, toFailureInfo } from '../common/failure.ts';
import type { ActivityFunction } from '../common/workflow-types.ts';
import type { ActivityTask, WorkflowService } from '../history/service.ts';
import { ActivityContext, runInActivityContext, type ActivityInfo } from '../activity/context.ts';
import { Heartbeater, heartbeatThrottleMs } from './heartbeater.ts';
import type { Logger } from './logger.ts';

/** One running activity attempt, as shutdown sees it. */
export interface RunningActivity {
  /** Aborts the attempt's cancellation signal with `reason`. */
  abort(reason: Error): void;
  readonly done: Promise<void>;
}

/** What {@link runActivityTask} needs from its worker. */
export interface ActivityExecutorDeps {
  service: WorkflowService;
  activities: Record<string, ActivityFunction>;
  identity: string;
  clock: Clock;
  logger: Logger;
}

function infoOf(task: ActivityTask, clockNow: number): ActivityInfo {
  return {
    namespace: task.namespace,
    activityId: task.activityId,
    activityType: task.activityType,
    workflowId: task.workflowId,
    runId: task.runId,
    workflowType: task.workflowType,
    taskQueue: task.taskQueue,
    attempt: task.attempt,
    scheduledTime: new Date(task.scheduledTime),
    currentAttemptScheduledTime: new Date(task.currentAttemptScheduledTime),
    startedTime: new Date(task.startedTime ?? clockNow),
    heartbeatDetails: task.heartbeatDetails,
    heartbeatTimeoutMs: task.heartbeatTimeoutMs,
    startToCloseTimeoutMs: task.startToCloseTimeoutMs,
    scheduleToCloseTimeoutMs: task.scheduleToCloseTimeoutMs,
    taskToken: task.taskToken,
  };
}

/**
 * Runs one activity attempt and reports its outcome: completed with the result; failed with
 * the error (and the latest heartbeat details, which reach the next attempt); or canceled
 * when the workflow asked for cancellation and the activity gave up. The attempt's signal is
 * aborted on a cancel request, when its start-to-close deadline passes, or by shutdown.
 */
export function runActivityTask(task: ActivityTask, deps: ActivityExecutorDeps): RunningActivity {
  const controller = new AbortController();
  const deadline = new AbortController();
  const { service, identity, clock, logger } = deps;
  const abort = (reason: Error) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  // Only a cancel the workflow asked for is answered with respondActivityTaskCanceled; an abort by
  // shutdown or the deadline is a failed attempt, which the retry policy may retry elsewhere.
  let cancelRequested = false;
  const heartbeater = new Heartbeater(service, task.taskToken, identity, heartbeatThrottleMs(task.heartbeatTimeoutMs), clock,
    (why) => {
      cancelRequested = !controller.signal.aborted;
      abort(new CancelledFailure(why === 'gone' ? 'Activity no longer known to the service' : 'Activity cancelled by the workflow'));
    },
    logger);
  if (task.startToCloseTimeoutMs) {
    clock.sleep(task.startToCloseTimeoutMs, deadline.signal).then(
      () => abort(new TimeoutFailure('Activity start-to-close timeout passed', 'StartToClose')), () => undefined);
  }

  const run = async (): Promise<void> => {
    const fn = deps.activities[task.activityType];
    if (!fn) {
      const known = Object.keys(deps.activities).sort().join(', ') || '(none)';
      throw ApplicationFailure.retryable(
        `activity type "${task.activityType}" is not registered on this worker; registered: ${known}`, 'NotFoundError');
    }
    const ctx = new ActivityContext(infoOf(task, clock.now()), controller.signal, (d) => heartbeater.heartbeat(d));
    return runInActivityContext(ctx, () => fn(...task.args)) as Promise<void>;
  };

  const done = (async () => {
    let respond: () => Promise<void>;
    try {
      const result = await run();
      respond = () => service.respondActivityTaskCompleted({ taskToken: task.taskToken, result: result ?? null, identity });
    } catch (err) {
      const reason = controller.signal.reason as unknown;
      const cancelled = cancelRequested
        && (isCancellation(err) || err === reason || (err as Error)?.name === 'AbortError');
      respond = cancelled
        ? () => service.respondActivityTaskCanceled({ taskToken: task.taskToken, identity, details: heartbeater.latestDetails })
        : () => service.respondActivityTaskFailed({
          taskToken: task.taskToken, failure: toFailureInfo(err), identity,
          ...(heartbeater.hasDetails ? { lastHeartbeatDetails: heartbeater.latestDetails } : {}),
        });
    } finally {
      heartbeater.stop();
      // A plain reason: abort() without one builds a DOMException (and its stack) every time.
      deadline.abort('attempt finished');
    }
    try {
      await respond();
    } catch (err) {
      logger.warn(`could not report the outcome of activity ${task.activityType} (${task.activityId}): ${(err as Error).message}`,
        { workflowId: task.workflowId, runId: task.runId });
    }
  })();
  return { abort, done };
}
