import {
  Backoff, RetryPolicy, resolveRetryPolicy, temporalSchedule, type BackoffSchedule, type Duration, type HorsiesInterval,
} from '../retry/index.ts';

/** Every strategy the simulator offers, with the fields it reads and their defaults. */
export const STRATEGIES = {
  temporal: { title: 'Temporal / Cadence', fields: { initialInterval: '1s', backoffCoefficient: '2', maximumInterval: '', maximumAttempts: '10', jitter: '0' } },
  fixed: { title: 'horsies RetryPolicy.fixed', fields: { intervals: '60,300,900', jitter: '0.25' } },
  'horsies-exponential': { title: 'horsies RetryPolicy.exponential', fields: { base: '30', maxRetries: '5', jitter: '0.25' } },
  constant: { title: 'Polly constant', fields: { delay: '200ms', retryCount: '5', fastFirst: 'false', ceiling: '', jitter: '0' } },
  linear: { title: 'Polly linear', fields: { initialDelay: '100ms', factor: '1', retryCount: '5', fastFirst: 'false', ceiling: '', jitter: '0' } },
  exponential: { title: 'Polly exponential', fields: { initialDelay: '100ms', factor: '2', retryCount: '5', fastFirst: 'false', ceiling: '', jitter: '0' } },
  'decorrelated-jitter': { title: 'Polly decorrelated jitter V2', fields: { medianFirstRetryDelay: '1s', retryCount: '5', fastFirst: 'false', ceiling: '' } },
  'aws-jitter': { title: 'Polly AWS decorrelated jitter', fields: { minDelay: '10ms', maxDelay: '1s', retryCount: '5', fastFirst: 'false', ceiling: '' } },
} as const satisfies Record<string, { title: string; fields: Record<string, string> }>;

/** A strategy's name. */
export type Strategy = keyof typeof STRATEGIES;

/** Reads a field as a number, naming it when it is not one. */
function num(fields: Record<string, string>, name: string): number {
  const text = fields[name] ?? '';
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new Error(`${name} must be a number, got "${text}"`);
  return n;
}

/** A duration field: milliseconds or a string with a unit. */
function dur(text: string): Duration {
  return (/^\d*\.?\d+$/.test(text.trim()) ? Number(text) : text.trim()) as Duration;
}

/** horsies counts bare numbers in seconds. */
function horsies(text: string): HorsiesInterval {
  return /^\d*\.?\d+$/.test(text.trim()) ? Number(text) : text.trim() as HorsiesInterval;
}

/**
 * Builds the schedule of a strategy from the form's fields with the retry library's own
 * constructors, so their validation messages reach the user unchanged.
 */
export function buildSchedule(strategy: Strategy, f: Record<string, string>, seed: number): BackoffSchedule {
  const polly = () => ({
    fastFirst: f.fastFirst === 'true', seed, jitter: f.jitter === undefined ? 0 : num(f, 'jitter'),
    ...(f.ceiling?.trim() ? { ceiling: dur(f.ceiling) } : {}),
  });
  switch (strategy) {
    case 'temporal':
      return temporalSchedule(resolveRetryPolicy({
        initialInterval: dur(f.initialInterval ?? ''), backoffCoefficient: num(f, 'backoffCoefficient'),
        ...(f.maximumInterval?.trim() ? { maximumInterval: dur(f.maximumInterval) } : {}),
        maximumAttempts: num(f, 'maximumAttempts'), jitter: num(f, 'jitter'), seed,
      }, 'retry'));
    case 'fixed':
      return RetryPolicy.fixed((f.intervals ?? '').split(',').map(horsies), { jitter: num(f, 'jitter'), seed });
    case 'horsies-exponential':
      return RetryPolicy.exponential({ base: horsies(f.base ?? ''), maxRetries: num(f, 'maxRetries'), jitter: num(f, 'jitter'), seed });
    case 'constant':
      return Backoff.constant(dur(f.delay ?? ''), num(f, 'retryCount'), polly());
    case 'linear':
      return Backoff.linear(dur(f.initialDelay ?? ''), num(f, 'retryCount'), { ...polly(), factor: num(f, 'factor') });
    case 'exponential':
      return Backoff.exponential(dur(f.initialDelay ?? ''), num(f, 'retryCount'), { ...polly(), factor: num(f, 'factor') });
    case 'decorrelated-jitter':
      return Backoff.decorrelatedJitterV2(dur(f.medianFirstRetryDelay ?? ''), num(f, 'retryCount'), polly());
    case 'aws-jitter':
      return Backoff.awsDecorrelatedJitter(dur(f.minDelay ?? ''), dur(f.maxDelay ?? ''), num(f, 'retryCount'), polly());
  }
}

/** Retries shown for a schedule: all of them, or 10 when unlimited. */
export function retriesShown(schedule: BackoffSchedule): number {
  return Number.isFinite(schedule.maxRetries) ? schedule.maxRetries : 10;
}


/**
 * Which of the points at `xs` (ascending) get an axis label, so that no two labels are closer
 * than `minGap`: the first and the last always, the others left to right while they keep the gap
 * from the label before and from the last.
 */
export function labelledPoints(xs: readonly number[], minGap: number): Set<number> {
  const shown = new Set<number>();
  if (xs.length === 0) return shown;
  const last = xs.length - 1;
  shown.add(0);
  let prev = xs[0]!;
  for (let i = 1; i < last; i++) {
    if (xs[i]! - prev >= minGap && xs[last]! - xs[i]! >= minGap) {
      shown.add(i);
      prev = xs[i]!;
    }
  }
  if (last > 0 && (xs[last]! - xs[0]! >= minGap || !shown.has(0))) shown.add(last);
  else if (last > 0) {
    shown.delete(0);
    shown.add(last);
  }
  return shown;
}
