import { AsyncLocalStorage } from 'node:async_hooks';
import { IllegalStateError } from '../common/errors.ts';
import { checkPayload } from '../common/payload.ts';

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
  /** Identifies this attempt to the service. */
  taskToken: string;
  /** The same token (Temporal's name for its text form). */
  base64TaskToken: string;
}

/**
 * The context of one running activity attempt, reachable from anywhere in its async call
 * tree through `AsyncLocalStorage`: the worker enters it before calling the activity function.
 */
export class ActivityContext {
  constructor(
    readonly info: ActivityInfo,
    /** Aborted when the workflow cancels the activity, the worker shuts down past its grace time, or the start-to-close deadline passes. */
    readonly cancellationSignal: AbortSignal,
    /** Records progress; throttled by the worker. */
    readonly heartbeat: (details?: unknown) => void,
  ) {}

  /** The context of the activity running now. @throws IllegalStateError outside an activity. */
  static current(): ActivityContext {
    const ctx = storage.getStore();
    if (!ctx) throw new IllegalStateError('steadfast/activity functions can only be called from an activity run by a worker');
    return ctx;
  }
}

const storage = new AsyncLocalStorage<ActivityContext>();

/** Runs `fn` with `context` as the current activity context (used by the worker). */
export function runInActivityContext<T>(context: ActivityContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** True when called from inside an activity. */
export function inActivityContext(): boolean {
  return storage.getStore() !== undefined;
}

/** Information about the running activity attempt. */
export function activityInfo(): ActivityInfo {
  return ActivityContext.current().info;
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
  ActivityContext.current().heartbeat(details);
}

/**
 * An AbortSignal for the running attempt: aborted (its reason a CancelledFailure or a
 * TimeoutFailure) when the workflow cancels the activity, when the worker shuts down past its
 * grace time, or when the start-to-close deadline passes. Pass it to fetch() and friends.
 */
export function cancellationSignal(): AbortSignal {
  return ActivityContext.current().cancellationSignal;
}
