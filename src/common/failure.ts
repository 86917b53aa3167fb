import { brandClass, SteadfastError } from '../errors/index.ts';
import { toMs, type Duration } from '../retry/duration.ts';
import {
  globalExceptionMapper, requireErrorCode, resolveErrorCode, resolveErrorCodeOf, UNHANDLED_EXCEPTION, type ErrorCodeConfig,
} from '../retry/error-codes.ts';
import { timeoutFailureType, type RetryState } from '../retry/decide.ts';
import { thrownFailureFacts } from '../retry/failure-types.ts';

/** Which timeout fired. */
export type TimeoutType = 'StartToClose' | 'ScheduleToStart' | 'ScheduleToClose' | 'Heartbeat';

export type { RetryState } from '../retry/decide.ts';

/** The kinds of failure, as {@link FailureInfo.kind} names them. */
export const FAILURE_KINDS = ['Application', 'Timeout', 'Canceled', 'Terminated', 'Activity', 'ChildWorkflow', 'Server'] as const;

/**
 * A failure in its stored form: what history events, the HTTP API and the sandbox boundary
 * carry. {@link toFailureInfo} and {@link fromFailureInfo} convert between this and the classes.
 */
export interface FailureInfo {
  kind: (typeof FAILURE_KINDS)[number];
  message: string;
  /**
   * Application failure type (the value `nonRetryableErrorTypes` matches), or the error's class
   * name; for a timeout, `StartToCloseTimeout`, `ScheduleToStartTimeout`, `ScheduleToCloseTimeout`
   * or `HeartbeatTimeout`.
   */
  type?: string;
  /**
   * True when `type` is only the thrown error's class name (no ApplicationFailure, no `type` of
   * its own): Cadence's generic error, or its panic for a TypeError, RangeError, ReferenceError or
   * SyntaxError, which `cadenceInternal:Generic` / `cadenceInternal:Panic` in
   * nonRetryableErrorTypes match. Absent otherwise.
   */
  typeFromClass?: boolean;
  /**
   * horsies' error code (what a horsies policy's `autoRetryFor` matches): the error's own code
   * or its exception mapper's; absent = `UNHANDLED_EXCEPTION`. A lost activity attempt (its
   * start-to-close or heartbeat timeout fired) carries `WORKER_CRASHED`.
   */
  errorCode?: string;
  nonRetryable?: boolean;
  details?: unknown[];
  /** Overrides the retry policy's interval for the retry after this failure. */
  nextRetryDelayMs?: number;
  stack?: string | undefined;
  timeoutType?: TimeoutType;
  lastHeartbeatDetails?: unknown;
  activityType?: string;
  activityId?: string;
  workflowType?: string;
  workflowId?: string;
  runId?: string;
  retryState?: RetryState;
  cause?: FailureInfo;
}

/** Base of failures that cross process and sandbox boundaries as {@link FailureInfo}. */
export class Failure extends SteadfastError {
  /** The stored form this failure was made from, when it came from history or the wire. */
  failure?: FailureInfo;
}
brandClass(Failure, 'Failure');

export interface ApplicationFailureOptions {
  message?: string;
  /** Matched against `nonRetryableErrorTypes`. @default the error's class name */
  type?: string;
  /** When true the failure is never retried, whatever the policy says. @default false */
  nonRetryable?: boolean;
  details?: unknown[];
  /** Replaces the retry policy's computed interval for the next retry. */
  nextRetryDelay?: Duration;
  /** horsies' error code, matched by a horsies policy's `autoRetryFor`; UPPER_SNAKE_CASE. @default none (UNHANDLED_EXCEPTION) */
  errorCode?: string;
  cause?: Error;
}

/**
 * A failure raised by user code, carrying the data retry decisions are made from:
 * `type`, `nonRetryable`, `nextRetryDelay`.
 */
export class ApplicationFailure extends Failure {
  readonly type: string | undefined;
  readonly nonRetryable: boolean;
  readonly details: unknown[];
  /** Milliseconds; replaces the policy's interval for the next retry. */
  readonly nextRetryDelay: number | undefined;
  /** horsies' error code, matched by a horsies policy's `autoRetryFor`. */
  errorCode?: string;

  constructor(
    message?: string,
    type?: string,
    nonRetryable = false,
    details: unknown[] = [],
    cause?: Error,
    nextRetryDelay?: Duration,
  ) {
    super(message ?? '', cause ? { cause } : undefined);
    this.type = type;
    this.nonRetryable = nonRetryable;
    this.details = details;
    this.nextRetryDelay = nextRetryDelay === undefined ? undefined : toMs(nextRetryDelay, 'nextRetryDelay');
  }

  /** Makes a failure from options. */
  static create(options: ApplicationFailureOptions): ApplicationFailure {
    const failure = new ApplicationFailure(
      options.message, options.type, options.nonRetryable ?? false, options.details ?? [], options.cause,
      options.nextRetryDelay,
    );
    if (options.errorCode !== undefined) failure.errorCode = requireErrorCode('errorCode', options.errorCode);
    return failure;
  }

  /** A failure the retry policy may retry. */
  static retryable(message: string, type?: string, ...details: unknown[]): ApplicationFailure {
    return new ApplicationFailure(message, type, false, details);
  }

  /** A failure that is never retried. */
  static nonRetryable(message: string, type?: string, ...details: unknown[]): ApplicationFailure {
    return new ApplicationFailure(message, type, true, details);
  }
}
brandClass(ApplicationFailure, 'ApplicationFailure');

/** A timeout of an activity, a workflow task or a workflow. */
export class TimeoutFailure extends Failure {
  readonly timeoutType: TimeoutType;
  /**
   * The failure type `nonRetryableErrorTypes` matches: `StartToCloseTimeout`,
   * `ScheduleToStartTimeout`, `ScheduleToCloseTimeout` or `HeartbeatTimeout` (Temporal's
   * `TemporalTimeout:StartToClose` and Cadence's `cadenceInternal:Timeout START_TO_CLOSE`
   * spellings match too).
   */
  readonly type: string;
  readonly lastHeartbeatDetails: unknown;
  constructor(message: string, timeoutType: TimeoutType, lastHeartbeatDetails?: unknown, cause?: Error) {
    super(message, cause ? { cause } : undefined);
    this.timeoutType = timeoutType;
    this.type = timeoutFailureType(timeoutType);
    this.lastHeartbeatDetails = lastHeartbeatDetails;
  }
}
brandClass(TimeoutFailure, 'TimeoutFailure');

/** A cancellation: of a workflow, a scope, an activity or a child. */
export class CancelledFailure extends Failure {
  readonly details: unknown[];
  constructor(message = 'cancelled', details: unknown[] = [], cause?: Error) {
    super(message, cause ? { cause } : undefined);
    this.details = details;
  }
}
brandClass(CancelledFailure, 'CancelledFailure');

/** A workflow was terminated. */
export class TerminatedFailure extends Failure {}
brandClass(TerminatedFailure, 'TerminatedFailure');

/** An error of the service itself, surfaced to a workflow or client. */
export class ServerFailure extends Failure {
  readonly nonRetryable: boolean;
  constructor(message: string, nonRetryable = false, cause?: Error) {
    super(message, cause ? { cause } : undefined);
    this.nonRetryable = nonRetryable;
  }
}
brandClass(ServerFailure, 'ServerFailure');

/** An activity failed for good; `cause` says why (application failure, timeout, cancellation). */
export class ActivityFailure extends Failure {
  constructor(
    message: string,
    readonly activityType: string,
    readonly activityId: string,
    readonly retryState: RetryState,
    cause?: Error,
  ) {
    super(message, cause ? { cause } : undefined);
  }
}
brandClass(ActivityFailure, 'ActivityFailure');

/** A child workflow closed without completing; `cause` says why. */
export class ChildWorkflowFailure extends Failure {
  constructor(
    message: string,
    readonly workflowType: string,
    readonly workflowId: string,
    readonly runId: string | undefined,
    readonly retryState: RetryState,
    cause?: Error,
  ) {
    super(message, cause ? { cause } : undefined);
  }
}
brandClass(ChildWorkflowFailure, 'ChildWorkflowFailure');

/** True for a cancellation, also when it is wrapped as the cause of an activity or child failure. */
export function isCancellation(err: unknown): boolean {
  if (err instanceof CancelledFailure) return true;
  if ((err instanceof ActivityFailure || err instanceof ChildWorkflowFailure) && err.cause) {
    return isCancellation(err.cause);
  }
  return false;
}

/** Converts any thrown value into its stored form. */
export function toFailureInfo(err: unknown, depth = 0): FailureInfo {
  if (err instanceof Failure && err.failure) {
    return err.failure;
  }
  const cause = depth < 8 && err instanceof Error && err.cause !== undefined
    ? toFailureInfo(err.cause, depth + 1)
    : undefined;
  const base = (kind: FailureInfo['kind'], e: Error): FailureInfo => ({
    kind,
    message: e.message,
    stack: e.stack,
    ...(cause ? { cause } : {}),
  });
  if (err instanceof ApplicationFailure) {
    return {
      ...base('Application', err),
      type: err.type ?? 'Error',
      nonRetryable: err.nonRetryable,
      details: err.details,
      ...(err.nextRetryDelay !== undefined ? { nextRetryDelayMs: err.nextRetryDelay } : {}),
      ...errorCodeOf(err),
    };
  }
  if (err instanceof TimeoutFailure) {
    return { ...base('Timeout', err), timeoutType: err.timeoutType, type: err.type, lastHeartbeatDetails: err.lastHeartbeatDetails };
  }
  if (err instanceof CancelledFailure) return { ...base('Canceled', err), details: err.details };
  if (err instanceof TerminatedFailure) return base('Terminated', err);
  if (err instanceof ServerFailure) return { ...base('Server', err), nonRetryable: err.nonRetryable };
  if (err instanceof ActivityFailure) {
    return {
      ...base('Activity', err), activityType: err.activityType, activityId: err.activityId, retryState: err.retryState,
    };
  }
  if (err instanceof ChildWorkflowFailure) {
    return {
      ...base('ChildWorkflow', err), workflowType: err.workflowType, workflowId: err.workflowId,
      ...(err.runId ? { runId: err.runId } : {}), retryState: err.retryState,
    };
  }
  if (err instanceof Error) {
    const e = err as Error & { nonRetryable?: unknown; nextRetryDelay?: unknown };
    const { type, typeFromClass } = thrownFailureFacts(err);
    return {
      ...base('Application', err),
      type: type ?? 'Error',
      ...(typeFromClass ? { typeFromClass } : {}),
      nonRetryable: e.nonRetryable === true,
      ...(typeof e.nextRetryDelay === 'number' ? { nextRetryDelayMs: e.nextRetryDelay } : {}),
      ...errorCodeOf(err),
    };
  }
  return {
    kind: 'Application', message: typeof err === 'string' ? err : `non-error thrown: ${safeString(err)}`, type: 'Error', typeFromClass: true,
  };
}

/**
 * The error's horsies code, from its own `errorCode` or this process's exception mapper (set
 * with `setGlobalExceptionMapper` where the activity runs); left out when it is the default.
 */
function errorCodeOf(err: Error): { errorCode?: string } {
  const code = resolveErrorCode(err);
  return code === UNHANDLED_EXCEPTION ? {} : { errorCode: code };
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Rebuilds a failure class from its stored form; the result keeps the stored form in `.failure`. */
export function fromFailureInfo(info: FailureInfo): Failure {
  const cause = info.cause ? fromFailureInfo(info.cause) : undefined;
  let err: Failure;
  switch (info.kind) {
    case 'Timeout':
      err = new TimeoutFailure(info.message, info.timeoutType ?? 'StartToClose', info.lastHeartbeatDetails, cause);
      break;
    case 'Canceled':
      err = new CancelledFailure(info.message, info.details ?? [], cause);
      break;
    case 'Terminated':
      err = new TerminatedFailure(info.message, cause ? { cause } : undefined);
      break;
    case 'Server':
      err = new ServerFailure(info.message, info.nonRetryable ?? false, cause);
      break;
    case 'Activity':
      err = new ActivityFailure(info.message, info.activityType ?? '', info.activityId ?? '', info.retryState ?? 'NonRetryableFailure', cause);
      break;
    case 'ChildWorkflow':
      err = new ChildWorkflowFailure(
        info.message, info.workflowType ?? '', info.workflowId ?? '', info.runId, info.retryState ?? 'NonRetryableFailure', cause,
      );
      break;
    default: {
      const app = new ApplicationFailure(info.message, info.type, info.nonRetryable ?? false, info.details ?? [], cause, info.nextRetryDelayMs);
      if (info.errorCode !== undefined) app.errorCode = info.errorCode;
      err = app;
    }
  }
  if (info.stack) err.stack = info.stack;
  err.failure = info;
  return err;
}

/**
 * The stored failure of an error an activity threw, its horsies error code resolved in the seed's
 * order with the activity's own mapper and default code (`perTask`, from `proxyActivities`)
 * before the worker's (`worker`, from `Worker.create`; where the worker sets neither, the
 * process's `setGlobalExceptionMapper`). A code that a mapper or a configured default code gave
 * also becomes the failure's `type`, so `nonRetryableErrorTypes` matches it as `autoRetryFor`
 * does, unless the failure has a type of its own (an ApplicationFailure's, an error's `type`).
 * A failure rethrown as it came (from history or the wire) is kept as it is.
 */
export function activityFailureInfo(err: unknown, perTask: ErrorCodeConfig, worker: ErrorCodeConfig = {}): FailureInfo {
  const info = toFailureInfo(err);
  if ((err instanceof Failure && err.failure) || info.kind !== 'Application') return info;
  const processWide = globalExceptionMapper();
  const exceptionMapper = worker.exceptionMapper ?? processWide.exceptionMapper;
  const defaultUnhandledErrorCode = worker.defaultUnhandledErrorCode ?? processWide.defaultUnhandledErrorCode;
  const global: ErrorCodeConfig = {
    ...(exceptionMapper !== undefined ? { exceptionMapper } : {}),
    ...(defaultUnhandledErrorCode !== undefined ? { defaultUnhandledErrorCode } : {}),
  };
  const { code, source } = resolveErrorCodeOf(err, perTask, global);
  const { errorCode: _previous, typeFromClass, ...rest } = info;
  const out: FailureInfo = code === UNHANDLED_EXCEPTION ? rest : { ...rest, errorCode: code };
  if (typeFromClass && (source === 'mapper' || source === 'default')) out.type = code;
  else if (typeFromClass) out.typeFromClass = true;
  return out;
}
