import { STREAM, unitRandom } from './random.ts';

/**
 * The shape of a backoff, as plain data (JSON-safe apart from `Infinity` retries). Every seed's
 * strategy is one of these curves:
 * - `exponential`: `initialMs × factor^(n−1)` (Temporal/Cadence, horsies' exponential with factor 2,
 *   Polly's ExponentialBackoff).
 * - `linear`: `initialMs × (1 + factor × (n−1))` (Polly's LinearBackoff).
 * - `constant`: `delayMs` every time (Polly's ConstantBackoff).
 * - `fixed`: `intervalsMs[n−1]` (horsies' fixed list).
 * - `decorrelated-jitter`: Polly's DecorrelatedJitterBackoffV2.
 * - `aws-jitter`: Polly's AwsDecorrelatedJitterBackoff.
 * where n is the retry number, 1-based (after `fastFirst`'s shift, see {@link backoffDelay}).
 */
export type BackoffCurve =
  | { kind: 'exponential'; initialMs: number; factor: number }
  | { kind: 'linear'; initialMs: number; factor: number }
  | { kind: 'constant'; delayMs: number }
  | { kind: 'fixed'; intervalsMs: readonly number[] }
  | { kind: 'decorrelated-jitter'; medianFirstRetryDelayMs: number }
  | { kind: 'aws-jitter'; minMs: number; maxMs: number };

/** Where a schedule's semantics come from; decides defaults and how it is shown. */
export type BackoffSource = 'temporal' | 'horsies' | 'polly';

/**
 * A complete, validated backoff schedule: the curve plus the knobs every strategy shares.
 * Built by {@link import('./temporal.ts').temporalSchedule}, `RetryPolicy.fixed/exponential`
 * (horsies) and `Backoff.*` (Polly); read by {@link backoffDelay}, the only place delays are computed.
 */
export interface BackoffSchedule {
  readonly source: BackoffSource;
  readonly curve: BackoffCurve;
  /** Retries allowed after the first attempt: 0 = none, `Infinity` = unlimited. */
  readonly maxRetries: number;
  /** Proportional jitter in [0, 1]: each delay is spread uniformly over ±jitter × delay. @default 0 */
  readonly jitter: number;
  /** Upper bound on every delay, ms (Temporal's maximumInterval, Polly's ceiling). @default Infinity */
  readonly capMs: number;
  /** Polly's fastFirst: the first retry happens at once and the curve starts at the second. @default false */
  readonly fastFirst: boolean;
  /** Seed of the random draws; absent = a fresh seed per run. */
  readonly seed?: number;
  /**
   * horsies' autoRetryFor: when present, only failures whose error code is listed are retried
   * (an empty list retries none). Absent (Temporal, Polly): the code does not decide.
   */
  readonly autoRetryFor?: readonly string[];
}

/**
 * Largest delay any schedule returns, ms (about 285,000 years): keeps runaway curves
 * (`factor^n`, `2^t` in the decorrelated formula) finite instead of Infinity or NaN.
 */
export const MAX_DELAY_MS = Number.MAX_SAFE_INTEGER;

/** Polly's pFactor: smooths the first delay of the decorrelated-jitter V2 formula. */
const DJ_P_FACTOR = 4.0;

/** The decorrelated-jitter V2 formula's cumulative value at t = i + u: `2^t × tanh(√(pFactor × t))`. */
function djCumulative(seed: number, i: number): number {
  const t = i + unitRandom(seed, i, STREAM.decorrelated);
  return Math.pow(2, t) * Math.tanh(Math.sqrt(DJ_P_FACTOR * t));
}

/**
 * Polly's rpScalingFactor, 1/1.4: the scale of the decorrelated-jitter V2 curve, so the same
 * `medianFirstRetryDelay` gives Polly's distribution.
 *
 * Under it the median retry *times* fall near 1, 2, 4, 8, 16 × `medianFirstRetryDelay`
 * (measured over 100,000 samples: 0.90, 1.99, 4.03, 8.07, 16.2 ×), which is what the seed
 * promises. The first delay alone has its median at the formula's value for u = 0.5,
 * √2 · tanh √2 / 1.4 ≈ 0.8975 × the configured value ("close to" it, in the seed's words);
 * the delays' own medians are then 0.90, 1.14, 2.0, 4.0, 8.0 ×.
 * @see https://github.com/Polly-Contrib/Polly.Contrib.WaitAndRetry (Backoff.DecorrelatedJitterV2.cs)
 */
export const DECORRELATED_JITTER_SCALE = 1 / 1.4;

/**
 * Polly's DecorrelatedJitterBackoffV2 for formula index `i` (0-based). The delay is the
 * difference of consecutive cumulative values, scaled by `median × DECORRELATED_JITTER_SCALE`;
 * `afterFast` says the previous slot was fastFirst's zero, in which case Polly subtracts 0 rather
 * than value(i−1). Polly bounds each delay by TimeSpan.MaxValue; here {@link MAX_DELAY_MS} and
 * the schedule's ceiling bound it (in {@link backoffDelay}).
 * @see https://github.com/Polly-Contrib/Polly.Contrib.WaitAndRetry (Backoff.DecorrelatedJitterV2.cs)
 */
function decorrelatedJitter(medianMs: number, i: number, afterFast: boolean, seed: number): number {
  const next = djCumulative(seed, i);
  if (!Number.isFinite(next)) return MAX_DELAY_MS;
  const prev = i === 0 || afterFast ? 0 : djCumulative(seed, i - 1);
  return (next - prev) * DECORRELATED_JITTER_SCALE * medianMs;
}

/**
 * Polly's AwsDecorrelatedJitterBackoff: `sleep = uniform(min, min(max, 3 × previous sleep))`,
 * starting from `previous = min`. Sequential by nature, so retry n replays n draws.
 */
function awsJitter(minMs: number, maxMs: number, n: number, seed: number): number {
  let ms = minMs;
  for (let k = 1; k <= n; k++) {
    const ceiling = Math.min(maxMs, ms * 3);
    ms = minMs + unitRandom(seed, k, STREAM.aws) * (ceiling - minMs);
  }
  return ms;
}

/** The curve's raw value for step n (1-based), before jitter and cap. */
function curveDelay(curve: BackoffCurve, n: number, seed: number, afterFast = false): number {
  switch (curve.kind) {
    case 'exponential':
      return curve.initialMs * Math.pow(curve.factor, n - 1);
    case 'linear':
      return curve.initialMs * (1 + curve.factor * (n - 1));
    case 'constant':
      return curve.delayMs;
    case 'fixed':
      return curve.intervalsMs[Math.min(n, curve.intervalsMs.length) - 1] ?? 0;
    case 'decorrelated-jitter':
      return decorrelatedJitter(curve.medianFirstRetryDelayMs, n - 1, afterFast, seed);
    case 'aws-jitter':
      return awsJitter(curve.minMs, curve.maxMs, n, seed);
  }
}

/**
 * Milliseconds to wait before retry `retry` (1-based: retry 1 follows the first attempt's
 * failure). A pure function of (schedule, retry, seed): the one backoff computation shared by
 * `retry()`, the engine and the simulator.
 *
 * Order: fastFirst → curve → proportional jitter → cap → whole ms (rounded down). With
 * fastFirst, retry 1 is 0 and retry n uses the curve's step n−1, as Polly does; Polly's
 * decorrelated formula instead keeps its index (retry n uses t = n−1 + rand) and only forgets
 * the zero slot.
 * @param seed a 32-bit seed (see `foldSeed`); ignored by curves without randomness.
 */
export function backoffDelay(schedule: BackoffSchedule, retry: number, seed: number): number {
  let ms: number;
  if (schedule.fastFirst) {
    if (retry <= 1) return 0;
    ms = schedule.curve.kind === 'decorrelated-jitter'
      ? curveDelay(schedule.curve, retry, seed, retry === 2)
      : curveDelay(schedule.curve, retry - 1, seed);
  } else {
    ms = curveDelay(schedule.curve, retry, seed);
  }
  if (ms > schedule.capMs) ms = schedule.capMs;
  if (schedule.jitter > 0) {
    ms *= 1 + schedule.jitter * (2 * unitRandom(seed, retry, STREAM.jitter) - 1);
    if (ms > schedule.capMs) ms = schedule.capMs;
  }
  if (!(ms >= 0)) return ms !== ms ? MAX_DELAY_MS : 0;
  return ms >= MAX_DELAY_MS ? MAX_DELAY_MS : Math.floor(ms);
}

/** True when the schedule draws random numbers, so its delays depend on the seed. */
export function isRandomized(schedule: BackoffSchedule): boolean {
  return schedule.jitter > 0 || schedule.curve.kind === 'decorrelated-jitter' || schedule.curve.kind === 'aws-jitter';
}

/**
 * The delays of the first `count` retries (all of them when the schedule is finite and `count`
 * is omitted). The simulator's table; the same values `retry()` waits.
 */
export function backoffDelays(schedule: BackoffSchedule, seed: number, count?: number): number[] {
  const n = Math.min(count ?? schedule.maxRetries, schedule.maxRetries);
  if (!Number.isFinite(n)) throw new RangeError('backoffDelays needs a count for an unlimited schedule');
  const out = new Array<number>(n);
  for (let r = 1; r <= n; r++) out[r - 1] = backoffDelay(schedule, r, seed);
  return out;
}
