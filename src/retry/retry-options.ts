import { ValidationError } from '../errors/index.ts';
import { toMs, type Duration } from './duration.ts';
import { systemClock, type Clock } from './clock.ts';
import type { BackoffSchedule } from './backoff.ts';
import { resolveRetryPolicy, temporalSchedule } from './temporal.ts';
import { checkSchedule } from './schedule-check.ts';
import {
  errorCodeConfigOf, requireErrorCode, requireErrorCodes, toExceptionMap, type ErrorCodeConfig, type ExceptionMapper,
} from './error-codes.ts';
import { isCurvePolicy, resolvePolicyData, scheduleOf, type RetryPolicyInput } from './policy-model.ts';

export type { RetryPolicyInput } from './policy-model.ts';

/** What `fn` receives on each attempt. */
export interface AttemptContext {
  /** 1-based attempt number. */
  readonly attempt: number;
  /** Aborts when this attempt times out, the overall timeout runs out, or the caller's signal aborts. */
  readonly signal: AbortSignal;
}

/** What `onRetry` is told before each wait. */
export interface RetryEvent {
  /** The attempt that just failed, 1-based; the next attempt is `attempt + 1`. */
  attempt: number;
  /** The wait before the next attempt, ms. */
  delayMs: number;
  /** The failed attempt's error. */
  error: unknown;
}

/** A classifier's verdict: retry with the policy's delay, fail now, or retry after a given delay. */
export type RetryVerdict = 'retry' | 'fail' | { retryAfter: Duration };

/** Options of `retry()`. Everything is optional. */
export interface RetryOptions {
  /**
   * The policy: `{ maximumAttempts: 5, initialInterval: '100ms' }`, `Backoff.exponential(100, 5)`,
   * `RetryPolicy.fixed(['1s', '5s'])`, ... @default Temporal's defaults (1 s × 2^n up to 100 s, unlimited attempts)
   */
  policy?: RetryPolicyInput;
  /** Limit on each attempt; a timed-out attempt fails with AttemptTimeoutError (retryable). @default none */
  attemptTimeout?: Duration;
  /** Limit on all attempts and waits together (Polly's timeout around the retry policy). @default none */
  timeout?: Duration;
  /** Aborts the run: the current attempt's signal aborts and any wait ends at once. */
  signal?: AbortSignal;
  /** Retries only errors this returns true for. @default all */
  retryIf?: (error: unknown, attempt: number) => boolean;
  /** Decides per error: `'retry'`, `'fail'`, or `{ retryAfter }` to replace the delay. */
  classify?: (error: unknown, attempt: number) => RetryVerdict;
  /** Error types never retried (an error's `type`, else its `name`); added to the policy's. */
  nonRetryableErrorTypes?: readonly string[];
  /**
   * horsies' autoRetryFor: retry only errors whose code (see exceptionMapper) is listed.
   * UPPER_SNAKE_CASE. Added to a horsies policy's own list (with a horsies policy, an error whose
   * code neither lists is not retried).
   */
  autoRetryFor?: readonly string[];
  /** Per-call exception mapper: exact error class → code. */
  exceptionMapper?: ExceptionMapper;
  /** Per-call code for an error no mapper knows. @default the global one, else UNHANDLED_EXCEPTION */
  defaultUnhandledErrorCode?: string;
  /** Called before each wait; a returned promise is awaited; a throw ends the run with that error. */
  onRetry?: (event: RetryEvent) => void | Promise<void>;
  /** @default systemClock */
  clock?: Clock;
  /** Seed of the policy's random draws, overriding the policy's. @default the policy's, else fresh per run */
  seed?: number;
}

/** Options resolved and validated once per call. */
export interface RetryPlan {
  schedule: BackoffSchedule;
  /** Attempts in all; Infinity = unlimited. */
  maxAttempts: number;
  types: readonly string[] | undefined;
  expirationMs: number | undefined;
  attemptTimeoutMs: number | undefined;
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
  clock: Clock;
  retryIf: RetryOptions['retryIf'];
  classify: RetryOptions['classify'];
  onRetry: RetryOptions['onRetry'];
  autoRetryFor: readonly string[] | undefined;
  codes: ErrorCodeConfig;
  seed: number | undefined;
}

const DEFAULT_SCHEDULE = temporalSchedule(resolveRetryPolicy(undefined));
const NO_CODES: ErrorCodeConfig = Object.freeze({});

function fnOption<T>(field: string, value: T): T {
  if (value !== undefined && typeof value !== 'function') throw new ValidationError(field, 'must be a function', value);
  return value;
}

function positiveMs(field: string, value: Duration | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = toMs(value, field);
  if (ms <= 0) throw new ValidationError(field, 'must be greater than 0', value);
  return ms;
}

/**
 * The codes that are retried: a horsies policy's autoRetryFor plus the call's, or the call's
 * alone; undefined when neither restricts them.
 */
function retryCodes(fromPolicy: readonly string[] | undefined, fromCall: readonly string[] | undefined): readonly string[] | undefined {
  const call = fromCall === undefined ? undefined : requireErrorCodes('autoRetryFor', fromCall);
  if (fromPolicy === undefined) return call;
  return call === undefined ? fromPolicy : [...fromPolicy, ...call];
}

/** Validates `retry()`'s options. */
export function planRetry(options: RetryOptions | undefined): RetryPlan {
  const o = options ?? {};
  if (typeof o !== 'object') throw new ValidationError('options', 'must be an object', o);
  const policy = o.policy;
  let schedule = DEFAULT_SCHEDULE;
  let types: readonly string[] | undefined;
  let expirationMs: number | undefined;
  let policyCodes: ErrorCodeConfig = NO_CODES;
  if (policy !== undefined) {
    if (typeof policy === 'object' && policy !== null && 'curve' in policy && !('version' in policy)) {
      schedule = checkSchedule(policy, 'policy');
    } else {
      const data = resolvePolicyData(policy, 'policy');
      schedule = scheduleOf(data);
      if (data.nonRetryableErrorTypes.length > 0) types = data.nonRetryableErrorTypes;
      if (!isCurvePolicy(data)) expirationMs = data.expirationIntervalMs;
      if (data.errorCodes !== undefined) policyCodes = errorCodeConfigOf(data.errorCodes);
    }
  }
  if (o.nonRetryableErrorTypes !== undefined) {
    if (!Array.isArray(o.nonRetryableErrorTypes)) {
      throw new ValidationError('nonRetryableErrorTypes', 'must be an array of strings', o.nonRetryableErrorTypes);
    }
    types = types ? [...types, ...o.nonRetryableErrorTypes] : o.nonRetryableErrorTypes;
  }
  const signal = o.signal;
  if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean')) {
    throw new ValidationError('signal', 'must be an AbortSignal', signal);
  }
  const clock = o.clock ?? systemClock;
  if (typeof clock.now !== 'function' || typeof clock.sleep !== 'function') {
    throw new ValidationError('clock', 'must have now() and sleep()', clock);
  }
  let codes = policyCodes;
  if (o.exceptionMapper !== undefined || o.defaultUnhandledErrorCode !== undefined) {
    codes = {
      ...policyCodes,
      ...(o.exceptionMapper !== undefined ? { exceptionMapper: toExceptionMap('exceptionMapper', o.exceptionMapper) } : {}),
      ...(o.defaultUnhandledErrorCode !== undefined
        ? { defaultUnhandledErrorCode: requireErrorCode('defaultUnhandledErrorCode', o.defaultUnhandledErrorCode) }
        : {}),
    };
  }
  if (o.seed !== undefined && !Number.isSafeInteger(o.seed)) throw new ValidationError('seed', 'must be an integer', o.seed);
  return {
    schedule,
    maxAttempts: schedule.maxRetries + 1,
    types,
    expirationMs,
    attemptTimeoutMs: positiveMs('attemptTimeout', o.attemptTimeout),
    timeoutMs: positiveMs('timeout', o.timeout),
    signal,
    clock,
    retryIf: fnOption('retryIf', o.retryIf),
    classify: fnOption('classify', o.classify),
    onRetry: fnOption('onRetry', o.onRetry),
    autoRetryFor: retryCodes(schedule.autoRetryFor, o.autoRetryFor),
    codes,
    seed: o.seed ?? schedule.seed,
  };
}
