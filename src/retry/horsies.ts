import { ValidationError } from '../errors/index.ts';
import { toMs, type DurationString } from './duration.ts';
import type { BackoffSchedule } from './backoff.ts';
import { jitterOption, seal, seedOption } from './schedule-check.ts';
import { requireErrorCodes } from './error-codes.ts';

/** horsies' jitter: ±25 %. */
export const HORSIES_JITTER = 0.25;

/**
 * A horsies interval: a number of SECONDS, as horsies counts (`[60, 300, 900]` is 1, 5 and 15
 * minutes), or a duration string with a unit (`'60s'`, `'5m'`, `'15 minutes'`). A string
 * without a unit is refused: it would mean milliseconds elsewhere and seconds here.
 */
export type HorsiesInterval = number | Exclude<DurationString, `${number}`>;

/** Milliseconds of a {@link HorsiesInterval}. */
function intervalMs(value: unknown, field: string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new ValidationError(field, 'must be a finite number of seconds >= 0', value);
    return value * 1000;
  }
  if (typeof value === 'string' && /^\s*-?\d*\.?\d+\s*$/.test(value)) {
    throw new ValidationError(field, 'must be a number of seconds or a string with a unit such as "60s" or "5m"', value);
  }
  return toMs(value as DurationString, field);
}

/** horsies' RetryPolicy fields; intervals count seconds (see {@link HorsiesInterval}). */
export interface HorsiesPolicyOptions {
  /** Retries after the first attempt, 1–20. @default 3 */
  maxRetries?: number;
  /** `fixed`: one interval per retry; `exponential`: a single base interval. Seconds. @default [60, 300, 900] */
  intervals?: readonly HorsiesInterval[];
  /** @default 'fixed' */
  backoffStrategy?: 'fixed' | 'exponential';
  /** ±25 % when true; a number sets another fraction. @default true */
  jitter?: boolean | number;
  /** Seed of the jitter. @default a fresh seed per run */
  seed?: number;
  /**
   * horsies' `auto_retry_for`: the error codes that are retried (UPPER_SNAKE_CASE: a code an
   * error carries or an exception mapper gives it, or the library codes `UNHANDLED_EXCEPTION`
   * and `WORKER_CRASHED`). A failure with any other code is not retried, as in horsies.
   * @default [] (no failure is retried)
   */
  autoRetryFor?: readonly string[];
}

/** The options of `RetryPolicy.fixed` besides the intervals. */
export type HorsiesFixedOptions = Pick<HorsiesPolicyOptions, 'jitter' | 'seed' | 'maxRetries' | 'autoRetryFor'>;

/** The options of `RetryPolicy.exponential`. */
export type HorsiesExponentialOptions = Pick<HorsiesPolicyOptions, 'maxRetries' | 'jitter' | 'seed' | 'autoRetryFor'> & {
  /** The base interval: retry n waits `base × 2^(n−1)`. Seconds, or a string with a unit. */
  base: HorsiesInterval;
};

function maxRetriesOf(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 20) {
    throw new ValidationError(field, 'must be an integer from 1 to 20', value);
  }
  return value;
}

/**
 * Builds a horsies policy with its validation rules: `maxRetries` 1–20; for `fixed`, the list
 * length must match maxRetries; for `exponential`, `intervals` holds the one base interval and
 * retry n waits `base × 2^(n−1)`.
 */
export function horsiesPolicy(options: HorsiesPolicyOptions = {}, field = 'retryPolicy'): BackoffSchedule {
  if (typeof options !== 'object' || options === null) throw new ValidationError(field, 'must be an object', options);
  const strategy = options.backoffStrategy ?? 'fixed';
  if (strategy !== 'fixed' && strategy !== 'exponential') {
    throw new ValidationError(`${field}.backoffStrategy`, 'must be "fixed" or "exponential"', strategy);
  }
  const maxRetries = maxRetriesOf(`${field}.maxRetries`, options.maxRetries ?? 3);
  const raw = options.intervals ?? [60, 300, 900];
  if (!Array.isArray(raw)) throw new ValidationError(`${field}.intervals`, 'must be an array of intervals (seconds, or strings with a unit)', raw);
  const intervalsMs = raw.map((d, i) => intervalMs(d, `${field}.intervals[${i}]`));
  const jitter = jitterOption(`${field}.jitter`, options.jitter, HORSIES_JITTER, true);
  const autoRetryFor = Object.freeze([...requireErrorCodes(`${field}.autoRetryFor`, options.autoRetryFor ?? [])]);
  const common = {
    source: 'horsies' as const, maxRetries, jitter, capMs: Infinity, fastFirst: false, autoRetryFor, ...seedOption(`${field}.seed`, options.seed),
  };
  if (strategy === 'fixed') {
    if (intervalsMs.length !== maxRetries) {
      throw new ValidationError(
        `${field}.intervals`,
        `length must match maxRetries (${maxRetries}) for fixed backoff`,
        raw,
        `${field}.intervals length must match maxRetries for fixed backoff: ${intervalsMs.length} intervals, maxRetries ${maxRetries}`,
      );
    }
    return seal({ ...common, curve: { kind: 'fixed', intervalsMs } });
  }
  if (intervalsMs.length !== 1) {
    throw new ValidationError(`${field}.intervals`, 'must hold exactly one base interval for exponential backoff', raw);
  }
  return seal({ ...common, curve: { kind: 'exponential', initialMs: intervalsMs[0]!, factor: 2 } });
}

/** horsies' RetryPolicy constructors. */
export const RetryPolicy = {
  /**
   * Waits the listed intervals (seconds) in order; retries = the list's length (1–20).
   * `RetryPolicy.fixed([60, 300, 900], { autoRetryFor: ['RATE_LIMITED'] })` retries a
   * RATE_LIMITED failure 3 times after 1 min, 5 min, 15 min (±25 %).
   */
  fixed(intervals: readonly HorsiesInterval[], options: HorsiesFixedOptions = {}): BackoffSchedule {
    if (!Array.isArray(intervals)) throw new ValidationError('intervals', 'must be an array of intervals (seconds, or strings with a unit)', intervals);
    return horsiesPolicy({ ...options, maxRetries: options.maxRetries ?? intervals.length, intervals, backoffStrategy: 'fixed' }, 'fixed');
  },
  /**
   * Retry n waits `base × 2^(n−1)`: `{ base: 30, maxRetries: 5 }` → 30, 60, 120, 240, 480 s (±25 %).
   * @param options.maxRetries 1–20. @default 3
   */
  exponential(options: HorsiesExponentialOptions): BackoffSchedule {
    if (typeof options !== 'object' || options === null) throw new ValidationError('exponential', 'must be an object with base and maxRetries', options);
    if (options.base === undefined) throw new ValidationError('exponential.base', 'is required', undefined);
    const { base, ...rest } = options;
    return horsiesPolicy({ ...rest, intervals: [base], backoffStrategy: 'exponential' }, 'exponential');
  },
  /** The general constructor, `RetryPolicy(max_retries=..., intervals=..., backoff_strategy=...)`. */
  create: horsiesPolicy,
};
