import { ValidationError } from './errors.ts';
import { toMs, type Duration } from './duration.ts';
import type { BackoffSchedule } from './backoff.ts';
import { jitterOption, seal, seedOption } from './schedule-check.ts';

/** horsies' jitter: ±25 %. */
export const HORSIES_JITTER = 0.25;

/**
 * horsies' RetryPolicy fields. Intervals are {@link Duration}s: ms numbers or strings such as
 * `"60s"` (horsies itself counts seconds: its `[60, 300, 900]` is `['60s', '5m', '15m']` here).
 */
export interface HorsiesPolicyOptions {
  /** Retries after the first attempt, 1–20. @default 3 */
  maxRetries?: number;
  /** `fixed`: one interval per retry; `exponential`: a single base interval. @default ['60s', '5m', '15m'] */
  intervals?: readonly Duration[];
  /** @default 'fixed' */
  backoffStrategy?: 'fixed' | 'exponential';
  /** ±25 % when true; a number sets another fraction. @default true */
  jitter?: boolean | number;
  /** Seed of the jitter. @default a fresh seed per run */
  seed?: number;
}

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
  const raw = options.intervals ?? ['60s', '5m', '15m'];
  if (!Array.isArray(raw)) throw new ValidationError(`${field}.intervals`, 'must be an array of durations', raw);
  const intervalsMs = raw.map((d, i) => toMs(d, `${field}.intervals[${i}]`));
  const jitter = jitterOption(`${field}.jitter`, options.jitter, HORSIES_JITTER, true);
  const common = { source: 'horsies' as const, maxRetries, jitter, capMs: Infinity, fastFirst: false, ...seedOption(`${field}.seed`, options.seed) };
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
   * Waits the listed intervals in order; retries = the list's length (1–20).
   * `RetryPolicy.fixed(['60s', '5m', '15m'])` retries 3 times after 1 min, 5 min, 15 min (±25 %).
   */
  fixed(intervals: readonly Duration[], options: { jitter?: boolean | number; seed?: number; maxRetries?: number } = {}): BackoffSchedule {
    if (!Array.isArray(intervals)) throw new ValidationError('intervals', 'must be an array of durations', intervals);
    return horsiesPolicy({ ...options, maxRetries: options.maxRetries ?? intervals.length, intervals, backoffStrategy: 'fixed' }, 'fixed');
  },
  /**
   * Retry n waits `base × 2^(n−1)`: base 30 s, 5 retries → 30, 60, 120, 240, 480 s (±25 %).
   * @param options.maxRetries 1–20. @default 3
   */
  exponential(options: { base: Duration; maxRetries?: number; jitter?: boolean | number; seed?: number }): BackoffSchedule {
    if (typeof options !== 'object' || options === null) throw new ValidationError('exponential', 'must be an object with base and maxRetries', options);
    if (options.base === undefined) throw new ValidationError('exponential.base', 'is required', undefined);
    const { base, ...rest } = options;
    return horsiesPolicy({ ...rest, intervals: [base], backoffStrategy: 'exponential' }, 'exponential');
  },
  /** The general constructor, `RetryPolicy(max_retries=..., intervals=..., backoff_strategy=...)`. */
  create: horsiesPolicy,
};
