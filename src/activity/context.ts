import { AsyncLocalStorage } from 'node:async_hooks';
import { IllegalStateError } from '../common/errors.ts';
import { checkPayload } from '../common/payload.ts';
import { CancelledFailure } from '../common/failure.ts';
import { toMs, type Duration } from '../retry/duration.ts';

/**
 * What an activity knows about the attempt it is running: Temporal's `Info` fields
 * (`workflowExecution`, `activityType`, `heartbeatDetails`, `currentAttemptScheduledTimestampMs`, …)
 * and, beside them, the same facts as Dates and flat ids.
 */
export interface ActivityInfo {
  namespace: string;
  /** The namespace the activity runs in (Temporal's name); the workflow's. */
  activityNamespace: string;
  /** The namespace of the workflow that scheduled the activity. */
  workflowNamespace: string;
  activityId: string;
  activityType: string;
  workflowId: string;
  runId: string;
  /** The run that scheduled the activity, as Temporal gives it. */
  workflowExecution: { workflowId: string; runId: string };
  workflowType: string;
  taskQueue: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  /** Always false: there are no local activities. */
  isLocal: boolean;
  /** When the activity was first scheduled. */
  scheduledTime: Date;
  /** {@link scheduledTime} in ms since the epoch (Temporal's field). */
  scheduledTimestampMs: number;
  /** When this attempt was scheduled (after the retry backoff). */
  currentAttemptScheduledTime: Date;
  /** {@link currentAttemptScheduledTime} in ms since the epoch (Temporal's field). */
  currentAttemptScheduledTimestampMs: number;
  /** When this attempt started. */
  startedTime: Date;
  /**
   * Details of the last heartbeat recorded by an earlier attempt, so a retry can resume where
   * the failed attempt got to (Cadence's heartbeat resume). Undefined when none was recorded.
   */
  heartbeatDetails: unknown;
  /** Heartbeat timeout, ms; undefined when the activity has none. */
  heartbeatTimeoutMs: number | undefined;
  /** Start-to-close timeout, ms; undefined when the activity has none. */
  startToCloseTimeoutMs: number | undefined;
  /** Schedule-to-close timeout, ms; undefined when the activity has none. */
  scheduleToCloseTimeoutMs: number | undefined;
  /**
   * Identifies this attempt to the service (Temporal's type): what `client.activity.complete()`
   * and its siblings take to complete the attempt from elsewhere after the activity throws
   * CompleteAsyncError.
   */
  taskToken: Uint8Array;
  /** {@link taskToken} in base64 (Temporal's field); `Buffer.from(base64TaskToken, 'base64')` is the token again. */
  base64TaskToken: string;
}

/** The activity logger (Temporal's): lines go to the worker's logger with the attempt's ids as fields. */
export interface ActivityLogger {
  trace(message: string, attrs?: Record<string, unknown>): void;
  debug(message: string, attrs?: Record<string, unknown>): void;
  info(message: string, attrs?: Record<string, unknown>): void;
  warn(message: string, attrs?: Record<string, unknown>): void;
  error(message: string, attrs?: Record<string, unknown>): void;
}

/** A logger that writes nothing: the log of a context made without one. */
const droppedLog: ActivityLogger = Object.freeze({
  trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined,
});

/**
 * The context of one running activity attempt (Temporal's `Context`), reachable from anywhere
 * in its async call tree as `Context.current()`: the worker enters it before calling the
 * activity function.
 */
export class Context {
  /**
   * Rejects (with the cancellation signal's reason: a CancelledFailure, or a TimeoutFailure at
   * the start-to-close deadline) once the attempt is cancelled; never resolves. Race it against
   * work that does not take an AbortSignal.
   */
  get cancelled(): Promise<never> {
    // Made on first use: most activities never race it, and every attempt makes a context.
    if (!this.#cancelled) {
      const signal = this.cancellationSignal;
      this.#cancelled = new Promise<never>((_, reject) => {
        const fire = () => reject(cancellationReason(signal));
        if (signal.aborted) fire();
        else signal.addEventListener('abort', fire, { once: true });
      });
      this.#cancelled.catch(() => undefined);
    }
    return this.#cancelled;
  }

  #cancelled: Promise<never> | undefined;

  constructor(
    readonly info: ActivityInfo,
    /** Aborted when the workflow cancels the activity, the worker shuts down past its grace time, or the start-to-close deadline passes. */
    readonly cancellationSignal: AbortSignal,
    /** Records progress; throttled by the worker. */
    readonly heartbeat: (details?: unknown) => void,
    /** Lines to the worker's logger with this attempt's ids. */
    readonly log: ActivityLogger = droppedLog,
  ) {}

  /**
   * Waits `ms` (a number of ms or a duration such as '2s'); rejects as {@link cancelled} does
   * when the attempt is cancelled first.
   */
  sleep = (ms: Duration): Promise<void> => {
    const wait = toMs(ms, 'ms');
    const signal = this.cancellationSignal;
    if (signal.aborted) return Promise.reject(cancellationReason(signal));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(cancellationReason(signal));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, wait);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  };

  /** The context of the activity running now. @throws IllegalStateError outside an activity. */
  static current(): Context {
    const ctx = storage.getStore();
    if (!ctx) throw new IllegalStateError('steadfast/activity functions can only be called from an activity run by a worker');
    return ctx;
  }
}

/** The name this context had before it took Temporal's (`Context`). */
export { Context as ActivityContext };

function cancellationReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new CancelledFailure(typeof reason === 'string' ? reason : 'Activity cancelled');
}


const storage = new AsyncLocalStorage<Context>();
/** Calls of {@link runInActivityContext} not yet ended: the storage is on while there are any. */
let inFlight = 0;

function ended(): void {
  if (--inFlight === 0) storage.disable();
}

/**
 * Runs `fn` with `context` as the current activity context (used by the worker). The storage is
 * on only while an activity runs (until the promise `fn` returns settles): an AsyncLocalStorage
 * that is on makes Node run its hooks for every promise the process creates, the worker's and
 * the engine's too, not only the activity's.
 */
export function runInActivityContext<T>(context: Context, fn: () => T): T {
  inFlight++;
  let result: T;
  try {
    result = storage.run(context, fn);
  } catch (err) {
    ended();
    throw err;
  }
  if (typeof (result as { then?: unknown } | null)?.then === 'function') {
    // The caller awaits `result` itself; this reaction only counts its end.
    (result as PromiseLike<unknown>).then(ended, ended);
  } else {
    ended();
  }
  return result;
}

/** True when called from inside an activity. */
export function inActivityContext(): boolean {
  return storage.getStore() !== undefined;
}

/** Information about the running activity attempt. */
export function activityInfo(): ActivityInfo {
  return Context.current().info;
}

/**
 * Records progress of a long activity. Heartbeats are throttled: at most one call to the
 * service every 0.8 × heartbeatTimeout (30 s without a heartbeat timeout), always carrying the
 * latest details; the last details also travel with a failure so the next attempt sees them
 * in `activityInfo().heartbeatDetails`. When the service answers that the workflow asked to
 * cancel the activity, {@link cancellationSignal} aborts.
 * @param details any JSON-serializable value, e.g. the index of the last finished item.
 */
export function heartbeat(details?: unknown): void {
  checkPayload('heartbeat details', details);
  Context.current().heartbeat(details);
}

/**
 * An AbortSignal for the running attempt: aborted (its reason a CancelledFailure or a
 * TimeoutFailure) when the workflow cancels the activity, when the worker shuts down past its
 * grace time, or when the start-to-close deadline passes. Pass it to fetch() and friends.
 */
export function cancellationSignal(): AbortSignal {
  return Context.current().cancellationSignal;
}

/** Waits `ms` (ms or a duration such as '2s') in the running activity; rejects when the attempt is cancelled first. */
export function sleep(ms: Duration): Promise<void> {
  return Context.current().sleep(ms);
}

/** The running activity's {@link Context.cancelled}: rejects once the attempt is cancelled. */
export function cancelled(): Promise<never> {
  return Context.current().cancelled;
}

/**
 * The activity logger (Temporal's `log` of @temporalio/activity): lines go to the worker's
 * logger with the running attempt's ids (namespace, taskQueue, workflowId, workflowRunId,
 * workflowType, activityId, activityType, attempt, isLocal) as fields.
 */
export const log: ActivityLogger = Object.freeze({
  trace: (message: string, attrs?: Record<string, unknown>) => Context.current().log.trace(message, attrs),
  debug: (message: string, attrs?: Record<string, unknown>) => Context.current().log.debug(message, attrs),
  info: (message: string, attrs?: Record<string, unknown>) => Context.current().log.info(message, attrs),
  warn: (message: string, attrs?: Record<string, unknown>) => Context.current().log.warn(message, attrs),
  error: (message: string, attrs?: Record<string, unknown>) => Context.current().log.error(message, attrs),
});
