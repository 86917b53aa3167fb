import { ValidationError } from '../errors/index.ts';
import { toMs, type Duration } from './duration.ts';
import type { BackoffCurve, BackoffSchedule } from './backoff.ts';
import { jitterOption, MAX_RETRIES_RULE, seal, seedOption } from './schedule-check.ts';
import { MAX_ATTEMPTS } from './temporal.ts';

/** Options every Polly-style helper takes. */
export interface PollyOptions {
  /** The first retry happens at once and counts against retryCount. @default false */
  fastFirst?: boolean;
  /** Seed of the random draws: the same seed gives the same delays. @default a fresh seed per run */
  seed?: number;
  /** Upper bound on every delay. @default none */
  ceiling?: Duration;
  /** Extra proportional jitter (not Polly's): true = ±25 %, or a fraction. @default false */
  jitter?: boolean | number;
}

function retryCountOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new ValidationError('retryCount', 'must be an integer', value);
  if (value < 0) throw new ValidationError('retryCount', 'must be >= 0', value);
  if (value > MAX_ATTEMPTS - 1) throw new ValidationError('retryCount', MAX_RETRIES_RULE, value);
  return value;
}

function build(curve: BackoffCurve, retryCount: unknown, options: PollyOptions | undefined): BackoffSchedule {
  const maxRetries = retryCountOf(retryCount);
  const o = options ?? {};
  if (typeof o !== 'object') throw new ValidationError('options', 'must be an object', o);
  if (o.fastFirst !== undefined && typeof o.fastFirst !== 'boolean') throw new ValidationError('fastFirst', 'must be true or false', o.fastFirst);
  const capMs = o.ceiling === undefined ? Infinity : toMs(o.ceiling, 'ceiling');
  return seal({
    source: 'polly',
    curve,
    maxRetries,
    jitter: jitterOption('jitter', o.jitter, 0.25, false),
    capMs,
    fastFirst: o.fastFirst ?? false,
    ...seedOption('seed', o.seed),
  });
}

/**
 * Polly.Contrib.WaitAndRetry's backoff helpers. Each returns a schedule of `retryCount`
 * retries; argument errors name the argument (`retryCount must be >= 0, got -1`).
 * @see https://github.com/Polly-Contrib/Polly.Contrib.WaitAndRetry
 */
export const Backoff = {
  /** The same delay before every retry: `constant(200, 5)` → 200, 200, 200, 200, 200 ms. */
  constant(delay: Duration, retryCount: number, options?: PollyOptions): BackoffSchedule {
    return build({ kind: 'constant', delayMs: toMs(delay, 'delay') }, retryCount, options);
  },
  /**
   * `initialDelay × (1 + factor × (n−1))`: `linear(100, 5)` → 100, 200, 300, 400, 500 ms;
   * with factor 2 → 100, 300, 500, 700, 900 ms. `factor` must be >= 0. @default factor 1
   */
  linear(initialDelay: Duration, retryCount: number, options?: PollyOptions & { factor?: number }): BackoffSchedule {
    const factor = options?.factor ?? 1;
    if (typeof factor !== 'number' || !Number.isFinite(factor)) throw new ValidationError('factor', 'must be a finite number', factor);
    if (factor < 0) throw new ValidationError('factor', 'must be >= 0', factor);
    return build({ kind: 'linear', initialMs: toMs(initialDelay, 'initialDelay'), factor }, retryCount, options);
  },
  /**
   * `initialDelay × factor^(n−1)`: `exponential(100, 5)` → 100, 200, 400, 800, 1600 ms; with
   * factor 4 the last is 25,600 ms. `factor` must be >= 1. @default factor 2
   */
  exponential(initialDelay: Duration, retryCount: number, options?: PollyOptions & { factor?: number }): BackoffSchedule {
    const factor = options?.factor ?? 2;
    if (typeof factor !== 'number' || !Number.isFinite(factor)) throw new ValidationError('factor', 'must be a finite number', factor);
    if (factor < 1) throw new ValidationError('factor', 'must be >= 1', factor);
    return build({ kind: 'exponential', initialMs: toMs(initialDelay, 'initialDelay'), factor }, retryCount, options);
  },
  /**
   * Polly's recommended jitter (DecorrelatedJitterBackoffV2): smooth, decorrelated delays whose
   * medians grow broadly as 2^n. Polly's constants put the median retry *times* near 1, 2, 4, 8 ×
   * `medianFirstRetryDelay`; measured over 10^5 samples the first delay's median is 0.90× (the
   * formula's value at t = 0.5), the later delays' medians 1.14×, 2.0×, 4.0×, 8.0×.
   */
  decorrelatedJitterV2(medianFirstRetryDelay: Duration, retryCount: number, options?: PollyOptions): BackoffSchedule {
    return build(
      { kind: 'decorrelated-jitter', medianFirstRetryDelayMs: toMs(medianFirstRetryDelay, 'medianFirstRetryDelay') },
      retryCount, options,
    );
  },
  /**
   * The earlier AWS "decorrelated jitter": `sleep = uniform(minDelay, min(maxDelay, 3 × previous))`.
   * `maxDelay` must be >= `minDelay`.
   */
  awsDecorrelatedJitter(minDelay: Duration, maxDelay: Duration, retryCount: number, options?: PollyOptions): BackoffSchedule {
    const minMs = toMs(minDelay, 'minDelay');
    const maxMs = toMs(maxDelay, 'maxDelay');
    if (maxMs < minMs) throw new ValidationError('maxDelay', `must be >= minDelay (${minMs}ms)`, maxDelay);
    return build({ kind: 'aws-jitter', minMs, maxMs }, retryCount, options);
  },
};
