import { ServiceError, throttledFor } from '../common/errors.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { methodsWhere, type WorkflowServiceMethod } from '../protocol/index.ts';
import { systemClock, type Clock } from '../retry/clock.ts';
import { toMs, type Duration } from '../retry/duration.ts';
import { ValidationError } from '../errors/index.ts';
import { RetryError } from '../retry/retry-error.ts';
import { retry } from '../retry/retry.ts';
import { resolveRetryPolicy } from '../retry/temporal.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';

/**
 * How a client call is retried while the server is unavailable (connection refused or reset,
 * no answer in time, HTTP 502/503/504). Any other answer ends the call at once.
 */
export interface ClientRetryOptions {
  /** Wait before the first retry. @default 100ms */
  initialInterval?: Duration;
  /** Multiplier of the wait per retry; >= 1. @default 2 */
  backoffCoefficient?: number;
  /** Cap on the wait between attempts. @default 5s */
  maximumInterval?: Duration;
  /** Proportional jitter in [0, 1]: each wait is spread over ±jitter × wait. @default 0.2 */
  jitter?: number;
  /** Attempts in all, the first included; 0 = unlimited (the timeout bounds them). @default 0 */
  maximumAttempts?: number;
  /**
   * How long a call keeps retrying once the server became unavailable to it, counted from the
   * first failed attempt; no retry starts after it. Long enough to ride through a server
   * restart or a 60-second outage. @default 90s
   */
  timeout?: Duration;
}

/** {@link ClientRetryOptions} validated, with defaults filled. */
export interface CallRetryPlan {
  policy: RetryPolicyData;
  timeoutMs: number;
  clock: Clock;
}

/** The default of {@link ClientRetryOptions.timeout}, ms. */
export const DEFAULT_CALL_RETRY_TIMEOUT_MS = 90_000;

const KEYS = optionKeys<ClientRetryOptions>({
  initialInterval: true, backoffCoefficient: true, maximumInterval: true, jitter: true, maximumAttempts: true, timeout: true,
});

/**
 * Calls the client retries on Unavailable. Each is safe to repeat: reads change nothing; a start,
 * signal, signal-with-start, cancel and terminate carry a request id made once per logical call
 * (the body is serialized once and resent as is), and an update carries its update id, so the
 * server applies a repeated one once. Not here: reset and the schedule and search-attribute
 * writes (no request id: a repeat of one that took effect would reset twice, trigger twice, or
 * answer AlreadyExists / NotFound for a call that succeeded), the worker's polls and reports (the
 * worker retries those itself, within the task's deadline). Taken from the `retriedByClient` column of METHODS.
 */
export const RETRIED_METHODS: ReadonlySet<WorkflowServiceMethod> = new Set(methodsWhere((f) => f.retriedByClient));

/**
 * Validates the `retry` option of a client: `false` turns retries off (undefined is returned),
 * undefined takes the defaults. Errors name the field: `retry.timeout must be ...`.
 * @throws ValidationError
 */
export function resolveCallRetry(options: ClientRetryOptions | false | undefined, clock: Clock = systemClock, field = 'retry'): CallRetryPlan | undefined {
  if (options === false) return undefined;
  const o = options ?? {};
  if (typeof o !== 'object' || o === null || Array.isArray(o)) {
    throw new ValidationError(field, 'must be false or an object of retry options', options);
  }
  refuseUnknownKeys('client retry', o, KEYS, { field });
  const timeoutMs = o.timeout === undefined ? DEFAULT_CALL_RETRY_TIMEOUT_MS : toMs(o.timeout, `${field}.timeout`);
  if (timeoutMs <= 0) throw new ValidationError(`${field}.timeout`, 'must be greater than 0', o.timeout);
  const initialInterval = o.initialInterval ?? 100;
  const policy = resolveRetryPolicy({
    initialInterval,
    backoffCoefficient: o.backoffCoefficient ?? 2,
    maximumInterval: o.maximumInterval ?? Math.max(5_000, toMs(initialInterval, `${field}.initialInterval`)),
    maximumAttempts: o.maximumAttempts ?? 0,
    jitter: o.jitter ?? 0.2,
  }, field);
  return { policy, timeoutMs, clock };
}

/** True for an error that says the server could not be reached or could not serve now. */
export function isUnavailable(err: unknown): boolean {
  return err instanceof ServiceError && err.code === 'Unavailable';
}

/** True when the call never got an answer from the server (the transport's error keeps the socket's as its cause). */
function isUnreachable(err: unknown): boolean {
  return isUnavailable(err) && (err as Error).cause instanceof Error;
}

/**
 * Which failures of `method` are retried. A query is retried only when the server could not be
 * reached: one the server answered Unavailable had already waited its timeout for a worker.
 */
function retryableFor(method: WorkflowServiceMethod): (err: unknown) => boolean {
  return method === 'queryWorkflow' ? isUnreachable : isUnavailable;
}

/** The innermost message of an error: the socket's own words rather than the wrapper's. */
function rootMessage(err: unknown): string {
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Error) return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** How a call being retried can be ended early. */
interface CallStops {
  /**
   * Aborted when the transport closes: no retry starts after it, and the call fails with the
   * signal's reason. `plan.clock`'s sleeps should end on it too (see {@link stoppableClock}).
   */
  closed?: AbortSignal;
  /** The caller's signal (a long poll's); when it aborts the call ends with `aborted()`'s value. */
  signal?: AbortSignal;
  aborted?: () => unknown;
}

/** A clock whose sleeps also end when `stop` aborts: a closed client leaves no backoff timer behind. */
export function stoppableClock(clock: Clock, stop: AbortSignal): Clock {
  return {
    now: () => clock.now(),
    sleep: (ms, signal) => clock.sleep(ms, signal ? AbortSignal.any([signal, stop]) : stop),
  };
}

/**
 * Runs one logical call, repeating `attempt` while it fails with Unavailable (see
 * {@link retryableFor}), under `plan`'s backoff, or with a ResourceExhausted that says when to
 * come back (after that wait), until `plan.timeoutMs` after the first failure.
 * Any other error is rethrown as is. A call that stays unavailable fails with ServiceError
 * `Unavailable` saying how long and how often it tried.
 */
export async function callWithRetry<T>(
  plan: CallRetryPlan, what: WorkflowServiceMethod, address: string, attempt: () => Promise<T>, stops: CallStops = {},
): Promise<T> {
  const retryable = retryableFor(what);
  const { clock } = plan;
  const { closed, signal } = stops;
  let outageStart: number | undefined;
  try {
    return await retry(async () => {
      try {
        return await attempt();
      } catch (err) {
        if (isUnavailable(err) || throttledFor(err) !== undefined) outageStart ??= clock.now();
        throw err;
      }
    }, {
      policy: plan.policy,
      clock,
      classify: (err) => {
        const wait = throttledFor(err);
        if ((!retryable(err) && wait === undefined) || closed?.aborted || clock.now() - outageStart! >= plan.timeoutMs) return 'fail';
        return wait === undefined ? 'retry' : { retryAfter: wait };
      },
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    // Not a RetryError: the closing reason, from a backoff wait that close() ended.
    if (!(err instanceof RetryError)) throw err;
    if (err.retryState === 'CancelRequested' && stops.aborted) return stops.aborted() as T;
    if (!retryable(err.lastError)) throw err.lastError;
    if (closed?.aborted) throw closed.reason;
    const forMs = clock.now() - (outageStart ?? clock.now());
    throw new ServiceError('Unavailable', `${what}: the steadfast server at ${address} was unavailable for ${(forMs / 1000).toFixed(1)}s ` +
      `over ${err.attempts} attempt${err.attempts === 1 ? '' : 's'}: ${rootMessage(err.lastError)}`, { cause: err.lastError });
  }
}
