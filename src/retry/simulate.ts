import { ValidationError } from '../errors/index.ts';
import { backoffDelay, isRandomized, type BackoffSchedule } from './backoff.ts';
import { foldSeed } from './random.ts';

/** One row of a simulated timeline, assuming every attempt fails at once. */
export interface TimelineRow {
  /** 1-based attempt number. */
  attempt: number;
  /** Wait before this attempt, ms (0 for the first). */
  delayMs: number;
  /** Time from the first attempt's start to this attempt's start, ms. */
  sinceFirstMs: number;
}

/**
 * The attempt timeline of a schedule: attempt 1 at 0, then each retry after its delay, computed
 * by {@link backoffDelay} exactly as `retry()` and the engine compute it.
 * @param retries how many retries to show; capped by the schedule's own limit.
 * @param seed the run's seed (any integer; folded as `retry()` folds it).
 */
export function simulateTimeline(schedule: BackoffSchedule, retries: number, seed: number): TimelineRow[] {
  const n = Math.min(retries, schedule.maxRetries);
  const folded = foldSeed(seed);
  const rows: TimelineRow[] = [{ attempt: 1, delayMs: 0, sinceFirstMs: 0 }];
  let since = 0;
  for (let r = 1; r <= n; r++) {
    const delayMs = backoffDelay(schedule, r, folded);
    since += delayMs;
    rows.push({ attempt: r + 1, delayMs, sinceFirstMs: since });
  }
  return rows;
}

/** Spread of one retry's delay over many seeds. */
export interface DelayPercentiles {
  /** 1-based retry number (the attempt is retry + 1). */
  retry: number;
  p5: number;
  p50: number;
  p95: number;
}

function pick(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/**
 * p5/p50/p95 of each retry's delay over `samples` runs with seeds `seed`, `seed + 1`, ...
 * (for a schedule without randomness every percentile equals the delay).
 */
export function delayPercentiles(schedule: BackoffSchedule, retries: number, samples: number, seed: number): DelayPercentiles[] {
  if (!Number.isInteger(samples) || samples < 1 || samples > 1_000_000) {
    throw new ValidationError('samples', 'must be an integer from 1 to 1000000', samples);
  }
  const n = Math.min(retries, schedule.maxRetries);
  const runs = isRandomized(schedule) ? samples : 1;
  const columns = Array.from({ length: n }, () => new Float64Array(runs));
  for (let i = 0; i < runs; i++) {
    const folded = foldSeed(seed + i);
    for (let r = 1; r <= n; r++) columns[r - 1]![i] = backoffDelay(schedule, r, folded);
  }
  return columns.map((column, i) => {
    column.sort();
    return { retry: i + 1, p5: pick(column, 0.05), p50: pick(column, 0.5), p95: pick(column, 0.95) };
  });
}
