import { onTimeout, type Clock } from '../retry/clock.ts';
import { decideRetry } from '../retry/decide.ts';
import {
  ApplicationFailure, CancelledFailure, TimeoutFailure, activityFailureInfo, isCancellation, type FailureInfo,
} from '../common/failure.ts';
import { errorCodeConfigOf, type ErrorCodeConfig } from '../retry/error-codes.ts';
import type { ActivityFunction } from '../common/workflow-types.ts';
import { toPayload } from '../common/payload.ts';
import { ActivityContext, runInActivityContext, type ActivityInfo } from '../activity/context.ts';
import { executeActivity, type ActivityInterceptorsFactory } from './interceptors.ts';
import { activityLogger } from './activity-executor.ts';
import type { LocalActivityOutcome, LocalActivityRequest } from '../workflow/local-activity-types.ts';
import type { Logger } from './logger.ts';
import type { Command } from '../history/commands.ts';
import { MAX_RUNNING_LOCAL_ACTIVITIES, type RunningLocalActivity } from '../protocol/index.ts';
import { CallCancel } from './call-cancel.ts';

/** The run a local activity belongs to. */
export interface LocalActivityRun {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
}

/** What {@link LocalActivityRunner} needs from its worker. */
export interface LocalActivityRunnerDeps {
  activities: Record<string, ActivityFunction>;
  clock: Clock;
  logger: Logger;
  /** WorkerOptions.maxConcurrentLocalActivityExecutions. */
  maxConcurrent: number;
  /** The worker's exception mapper and default error code. */
  errorCodes?: ErrorCodeConfig | undefined;
  /** WorkerOptions.interceptors.activity: around each attempt, as for activities. */
  interceptors?: readonly ActivityInterceptorsFactory[] | undefined;
}

interface Running {
  readonly outcome: Promise<LocalActivityOutcome>;
  readonly cancel: CallCancel;
  readonly request: LocalActivityRequest;
  /** Where the call is, for a heartbeating completion's report. */
  readonly progress: Progress;
  /** The call ended; its outcome waits here until a workflow task takes it ({@link LocalActivityRunner.taken}). */
  settled: boolean;
}

/** A call's attempt, when it started (unset while it waits for a slot or its retry) and how the previous one failed. */
interface Progress {
  attempt: number;
  startedAt?: number | undefined;
  lastFailure?: FailureInfo | undefined;
}

/**
 * Runs local activities in the worker: each call through its attempts (retries whose wait is
 * under the call's localRetryThreshold wait here; a longer wait ends the call with `backoffMs`,
 * and the workflow waits on a durable timer), at most `maxConcurrent` attempts at a time. A call
 * already running (a workflow task that came back to this worker) is joined, not run again, and
 * one that ended while no task waited on it (between a heartbeat's completion and the next task)
 * keeps its outcome for the next task.
 */
export class LocalActivityRunner {
  readonly #deps: LocalActivityRunnerDeps;
  readonly #running = new Map<string, Running>();
  #used = 0;
  readonly #waiting: (() => void)[] = [];
  /** Attempts started and the most running at once, for tests and metrics. */
  readonly stats = { attempts: 0, peak: 0 };

  constructor(deps: LocalActivityRunnerDeps) {
    this.#deps = deps;
  }

  /** Attempts running now. */
  get running(): number {
    return this.#used;
  }

  /** The call's outcome: started now, or the one already running for the same call of the same run. */
  start(run: LocalActivityRun, request: LocalActivityRequest): Promise<LocalActivityOutcome> {
    const key = callKey(run, request.seq);
    let running = this.#running.get(key);
    if (!running) {
      const cancel = new CallCancel();
      const progress: Progress = { attempt: request.attempt };
      const entry: Running = { outcome: this.#runCall(run, request, cancel, progress), cancel, request, progress, settled: false };
      const settle = () => {
        entry.settled = true;
      };
      entry.outcome.then(settle, settle);
      this.#running.set(key, (running = entry));
    }
    return running.outcome;
  }

  /** The workflow took these calls' outcomes: a later call with the same seq (a retry after a durable timer) runs anew. */
  taken(run: LocalActivityRun, seqs: Iterable<number>): void {
    for (const seq of seqs) {
      const key = callKey(run, seq);
      if (this.#running.get(key)?.settled) this.#running.delete(key);
    }
  }

  /**
   * Cancels the calls of `run` the workflow no longer waits on (a cancelled scope, a closed run)
   * and those in `cancelRequested`, whose outcome it still waits for; calls in `spared` (abandoned)
   * run on.
   */
  cancelExcept(run: LocalActivityRun, waited: ReadonlySet<number>, spared: ReadonlySet<number> = NONE, cancelRequested: ReadonlySet<number> = NONE): void {
    const prefix = callKey(run, 0).replace(/#0$/, '#');
    for (const [key, running] of this.#running) {
      if (!key.startsWith(prefix)) continue;
      const seq = Number(key.slice(prefix.length));
      if (running.settled) {
        // An outcome no task will take: the workflow no longer waits on it.
        if (!waited.has(seq)) this.#running.delete(key);
        continue;
      }
      if (running.cancel.aborted) continue;
      if ((!waited.has(seq) && !spared.has(seq)) || cancelRequested.has(seq)) {
        running.cancel.abort(new CancelledFailure('Local activity cancelled by the workflow'));
      }
    }
  }

  /** The calls of `run` running now, as a heartbeating completion reports them (at most MAX_RUNNING_LOCAL_ACTIVITIES). */
  report(run: LocalActivityRun): RunningLocalActivity[] {
    const prefix = callKey(run, 0).replace(/#0$/, '#');
    const out: RunningLocalActivity[] = [];
    for (const [key, { request, progress, settled }] of this.#running) {
      if (settled || !key.startsWith(prefix) || out.length >= MAX_RUNNING_LOCAL_ACTIVITIES) continue;
      const r: RunningLocalActivity = {
        activityId: request.activityId, activityType: request.activityType, attempt: progress.attempt, originalScheduleTime: request.originalScheduleTime,
      };
      if (progress.startedAt !== undefined) r.attemptStartedTime = progress.startedAt;
      if (progress.lastFailure !== undefined) r.lastFailure = progress.lastFailure;
      out.push(r);
    }
    return out;
  }

  /** Aborts every running call (worker shutdown). */
  abortAll(reason: Error): void {
    for (const running of this.#running.values()) running.cancel.abort(reason);
  }

  async #runCall(run: LocalActivityRun, request: LocalActivityRequest, cancel: CallCancel, progress: Progress): Promise<LocalActivityOutcome> {
    const { clock } = this.#deps;
    const s2c = request.scheduleToCloseTimeoutMs;
    const deadline = s2c !== undefined ? request.originalScheduleTime + s2c : undefined;
    const received = clock.now();
    for (let attempt = request.attempt; ; attempt++) {
      let failure: FailureInfo;
      const slot = await this.#acquire(cancel, attempt === request.attempt ? request.scheduleToStartTimeoutMs : undefined, received);
      if (slot === 'cancelled') {
        return { seq: request.seq, attempt, failure: finalFailure(request, 'cancelled', 'CancelRequested', toCancelled(cancel.reason)) };
      }
      if (slot === 'timed out') {
        const timeout: FailureInfo = {
          kind: 'Timeout', message: 'Local activity schedule-to-start timeout passed', type: 'ScheduleToStartTimeout', timeoutType: 'ScheduleToStart',
        };
        return { seq: request.seq, attempt, failure: finalFailure(request, 'timed out', 'Timeout', timeout) };
      }
      progress.attempt = attempt;
      progress.startedAt = clock.now();
      try {
        const result = await this.#attempt(run, request, attempt, cancel, deadline);
        return { seq: request.seq, attempt, result };
      } catch (err) {
        if (cancel.aborted && (isCancellation(err) || err === cancel.reason)) {
          return { seq: request.seq, attempt, failure: finalFailure(request, 'cancelled', 'CancelRequested', toCancelled(cancel.reason)) };
        }
        failure = activityFailureInfo(err, errorCodeConfigOf(request.retryPolicy.errorCodes), this.#deps.errorCodes);
        // Cancelled while it ran and failed otherwise: the failure ends the call, with no retry.
        if (cancel.aborted) return { seq: request.seq, attempt, failure: finalFailure(request, 'failed', 'CancelRequested', failure) };
        if (err instanceof TimeoutFailure && err.timeoutType === 'ScheduleToClose') {
          return { seq: request.seq, attempt, failure: finalFailure(request, 'timed out', 'Timeout', failure) };
        }
      } finally {
        this.#release();
      }
      progress.startedAt = undefined;
      progress.lastFailure = failure;
      const now = clock.now();
      const d = decideRetry(request.retryPolicy, {
        attempt, failure, elapsedMs: now - request.originalScheduleTime, seedKey: run.runId + request.activityId,
      });
      if (!d.retry) return { seq: request.seq, attempt, failure: finalFailure(request, 'failed', d.retryState, failure) };
      if (deadline !== undefined && now + d.delayMs >= deadline) {
        return { seq: request.seq, attempt, failure: finalFailure(request, 'timed out', 'Timeout', timeoutInfo('ScheduleToClose', failure)) };
      }
      if (d.delayMs >= request.localRetryThresholdMs) return { seq: request.seq, attempt, failure, backoffMs: d.delayMs };
      try {
        await clock.sleep(d.delayMs, cancel.signal);
      } catch {
        return { seq: request.seq, attempt, failure: finalFailure(request, 'cancelled', 'CancelRequested', toCancelled(cancel.reason)) };
      }
    }
  }

  /** One attempt, bounded by its start-to-close timeout and the call's schedule-to-close deadline. */
  async #attempt(run: LocalActivityRun, request: LocalActivityRequest, attempt: number, cancel: CallCancel, deadline: number | undefined): Promise<unknown> {
    const { clock, activities } = this.#deps;
    const fn = activities[request.activityType];
    if (!fn) {
      const known = Object.keys(activities).sort().join(', ') || '(none)';
      throw ApplicationFailure.retryable(`activity type "${request.activityType}" is not registered on this worker; registered: ${known}`, 'NotFoundError');
    }
    this.stats.attempts++;
    const controller = new AbortController();
    /** Ends the attempt when the call is cancelled (unset when it waits for the activity to end). */
    let endAttempt: ((reason: unknown) => void) | undefined;
    // One listener: the activity's signal aborts, then the attempt ends.
    const unlink = cancel.onAbort(() => {
      controller.abort(cancel.reason);
      endAttempt?.(cancel.reason);
    });
    let untime = (): void => undefined;
    const started = clock.now();
    const bounds: [number, 'StartToClose' | 'ScheduleToClose'][] = [];
    if (request.startToCloseTimeoutMs !== undefined) bounds.push([request.startToCloseTimeoutMs, 'StartToClose']);
    if (deadline !== undefined) bounds.push([Math.max(0, deadline - started), 'ScheduleToClose']);
    bounds.sort((a, b) => a[0] - b[0]);
    try {
      const info = localInfo(run, request, attempt, started);
      const ctx: ActivityContext = new ActivityContext(info, controller.signal, () => undefined, activityLogger(this.#deps.logger, info, () => ctx));
      const work = Promise.resolve().then(() => runInActivityContext(ctx, () => executeActivity(this.#deps.interceptors ?? [], ctx, request.header, request.args, fn)));
      const races: Promise<unknown>[] = [work];
      const first = bounds[0];
      if (first) {
        races.push(new Promise((_, reject) => {
          untime = onTimeout(clock, first[0], () => {
            const timeout = new TimeoutFailure(`Local activity ${first[1] === 'StartToClose' ? 'start-to-close' : 'schedule-to-close'} timeout passed`, first[1]);
            controller.abort(timeout);
            reject(timeout);
          });
        }));
      }
      // WAIT_CANCELLATION_COMPLETED: an abort reaches the activity, and the attempt ends when it does.
      if (request.cancellationType !== 'WAIT_CANCELLATION_COMPLETED') {
        races.push(new Promise((_, reject) => {
          if (cancel.aborted) reject(cancel.reason);
          else endAttempt = reject;
        }));
      }
      const result = await Promise.race(races);
      try {
        return toPayload(`result of activity ${request.activityType}`, result) ?? null;
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, 'PayloadError');
      }
    } finally {
      untime();
      unlink();
    }
  }

  /**
   * Takes an execution slot, waiting while all are used: until one frees, the call is cancelled,
   * or `limitMs` after `since` passes (a schedule-to-start timeout).
   */
  async #acquire(cancel: CallCancel, limitMs: number | undefined, since: number): Promise<'ok' | 'cancelled' | 'timed out'> {
    while (this.#used >= this.#deps.maxConcurrent) {
      if (cancel.aborted) return 'cancelled';
      const left = limitMs === undefined ? undefined : since + limitMs - this.#deps.clock.now();
      if (left !== undefined && left <= 0) return 'timed out';
      await new Promise<void>((resolve) => {
        let unlisten = (): void => undefined;
        let untime = (): void => undefined;
        const wake = () => {
          untime();
          unlisten();
          const at = this.#waiting.indexOf(wake);
          if (at >= 0) this.#waiting.splice(at, 1);
          resolve();
        };
        this.#waiting.push(wake);
        unlisten = cancel.onAbort(wake);
        if (left !== undefined) untime = onTimeout(this.#deps.clock, left, wake);
      });
    }
    if (cancel.aborted) return 'cancelled';
    this.#used++;
    if (this.#used > this.stats.peak) this.stats.peak = this.#used;
    return 'ok';
  }

  #release(): void {
    this.#used--;
    this.#waiting.shift()?.();
  }
}

const NONE: ReadonlySet<number> = new Set();

function callKey(run: LocalActivityRun, seq: number): string {
  return `${run.namespace}/${run.workflowId}/${run.runId}#${seq}`;
}

function toCancelled(reason: unknown): FailureInfo {
  return { kind: 'Canceled', message: reason instanceof Error ? reason.message : 'Local activity cancelled', details: [] };
}

function timeoutInfo(type: 'ScheduleToClose', cause: FailureInfo): FailureInfo {
  return { kind: 'Timeout', message: 'Local activity schedule-to-close timeout passed', type: `${type}Timeout`, timeoutType: type, cause };
}

/** The failure a call ends with, as an ActivityFailure's info (the shape activity events resolve to). */
function finalFailure(request: LocalActivityRequest, how: string, retryState: NonNullable<FailureInfo['retryState']>, cause: FailureInfo): FailureInfo {
  const { activityType, activityId } = request;
  return { kind: 'Activity', message: `local activity ${activityType} (${activityId}) ${how}: ${cause.message}`, activityType, activityId, retryState, cause };
}

function localInfo(run: LocalActivityRun, request: LocalActivityRequest, attempt: number, now: number): ActivityInfo {
  const scheduled = new Date(request.originalScheduleTime);
  return {
    namespace: run.namespace, activityNamespace: run.namespace, workflowNamespace: run.namespace,
    activityId: request.activityId, activityType: request.activityType,
    workflowId: run.workflowId, runId: run.runId, workflowExecution: { workflowId: run.workflowId, runId: run.runId },
    workflowType: run.workflowType, taskQueue: run.taskQueue, attempt, isLocal: true,
    scheduledTime: scheduled, scheduledTimestampMs: scheduled.getTime(),
    currentAttemptScheduledTime: new Date(now), currentAttemptScheduledTimestampMs: now, startedTime: new Date(now),
    heartbeatDetails: undefined, heartbeatTimeoutMs: undefined,
    startToCloseTimeoutMs: request.startToCloseTimeoutMs, scheduleToCloseTimeoutMs: request.scheduleToCloseTimeoutMs,
    taskToken: new Uint8Array(0), base64TaskToken: '',
  };
}

/** The part of a WorkflowRun the local activity loop drives. */
interface RunWithLocalActivities {
  readonly closed: boolean;
  readonly pendingLocalActivities: LocalActivityRequest[];
  readonly abandonedLocalActivities: ReadonlySet<number>;
  readonly cancelRequestedLocalActivities: ReadonlySet<number>;
  resolveLocalActivities(outcomes: readonly LocalActivityOutcome[]): Promise<Command[]>;
}

/**
 * Runs the local activities a workflow task's code waits on, handing each outcome back to the
 * code as it comes (the commands that follow are appended to `commands`), until the code waits
 * on none. Returns true when `heartbeatAt` (performance.now() time) came first: the task is then
 * completed with what it has and a new one asked for (forceCreateNewWorkflowTask), while the
 * calls still running go on here and are joined by that task.
 */
export async function runLocalActivities(
  run: RunWithLocalActivities, runner: LocalActivityRunner, info: LocalActivityRun, commands: Command[], heartbeatAt: number,
): Promise<boolean> {
  for (;;) {
    const pending = run.pendingLocalActivities;
    if (run.closed) runner.cancelExcept(info, NONE);
    else runner.cancelExcept(info, new Set(pending.map((r) => r.seq)), run.abandonedLocalActivities, run.cancelRequestedLocalActivities);
    if (pending.length === 0 || run.closed) return false;
    const done: LocalActivityOutcome[] = [];
    const settled = Promise.race(pending.map((r) => runner.start(info, r).then((o) => {
      done.push(o);
    })));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const heartbeat = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, heartbeatAt - performance.now()));
    });
    await Promise.race([settled, heartbeat]);
    clearTimeout(timer);
    if (done.length === 0) return true;
    runner.taken(info, done.map((o) => o.seq));
    commands.push(...await run.resolveLocalActivities(done));
  }
}
