import { ValidationError } from '../errors/index.ts';
import type { BackoffSchedule } from './backoff.ts';
import { requireErrorCodes } from './error-codes.ts';
import { MAX_ATTEMPTS } from './temporal.ts';

/** Schedules made by this package's builders, already validated. */
/** The rule a finite retry count over MAX_ATTEMPTS − 1 breaks: its attempts must fit Temporal's 32-bit limit. */
export const MAX_RETRIES_RULE = "must be at most 2147483646 (the attempts, retries + 1, must fit Temporal's 32-bit limit)";

const built = new WeakSet<object>();

/** Freezes a schedule made by a builder and marks it as validated. */
export function seal(schedule: BackoffSchedule): BackoffSchedule {
  Object.freeze(schedule.curve);
  built.add(Object.freeze(schedule));
  return schedule;
}

/** A finite number of milliseconds >= 0 (for already-resolved values). */
function nonNegative(field: string, value: unknown): void {
  if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) {
    throw new ValidationError(field, 'must be a finite number >= 0', value);
  }
}

/**
 * Checks a schedule written by hand (builders' schedules pass at once). The executor and the
 * simulator call this so that a hand-made schedule obeys the same rules as a built one.
 */
export function checkSchedule(schedule: BackoffSchedule, field = 'policy'): BackoffSchedule {
  if (built.has(schedule)) return schedule;
  const c = schedule.curve;
  switch (c?.kind) {
    case 'exponential':
      nonNegative(`${field}.curve.initialMs`, c.initialMs);
      if (typeof c.factor !== 'number' || !(c.factor >= 1)) throw new ValidationError(`${field}.curve.factor`, 'must be >= 1', c.factor);
      break;
    case 'linear':
      nonNegative(`${field}.curve.initialMs`, c.initialMs);
      nonNegative(`${field}.curve.factor`, c.factor);
      break;
    case 'constant':
      nonNegative(`${field}.curve.delayMs`, c.delayMs);
      break;
    case 'fixed':
      if (!Array.isArray(c.intervalsMs)) throw new ValidationError(`${field}.curve.intervalsMs`, 'must be an array', c.intervalsMs);
      c.intervalsMs.forEach((v, i) => nonNegative(`${field}.curve.intervalsMs[${i}]`, v));
      break;
    case 'decorrelated-jitter':
      nonNegative(`${field}.curve.medianFirstRetryDelayMs`, c.medianFirstRetryDelayMs);
      break;
    case 'aws-jitter':
      nonNegative(`${field}.curve.minMs`, c.minMs);
      nonNegative(`${field}.curve.maxMs`, c.maxMs);
      if (c.maxMs < c.minMs) throw new ValidationError(`${field}.curve.maxMs`, `must be >= minMs (${c.minMs})`, c.maxMs);
      break;
    default:
      throw new ValidationError(`${field}.curve.kind`, 'must be one of exponential, linear, constant, fixed, decorrelated-jitter, aws-jitter', (c as { kind?: unknown } | undefined)?.kind);
  }
  const r = schedule.maxRetries;
  if (typeof r !== 'number' || !(r >= 0) || (Number.isFinite(r) && !Number.isInteger(r))) {
    throw new ValidationError(`${field}.maxRetries`, 'must be an integer >= 0 or Infinity', r);
  }
  if (Number.isFinite(r) && r > MAX_ATTEMPTS - 1) throw new ValidationError(`${field}.maxRetries`, MAX_RETRIES_RULE, r);
  if (typeof schedule.jitter !== 'number' || !(schedule.jitter >= 0 && schedule.jitter <= 1)) {
    throw new ValidationError(`${field}.jitter`, 'must be a fraction between 0 and 1', schedule.jitter);
  }
  if (typeof schedule.capMs !== 'number' || !(schedule.capMs >= 0)) {
    throw new ValidationError(`${field}.capMs`, 'must be a number of milliseconds >= 0 (Infinity for none)', schedule.capMs);
  }
  if (schedule.seed !== undefined && !Number.isSafeInteger(schedule.seed)) {
    throw new ValidationError(`${field}.seed`, 'must be an integer', schedule.seed);
  }
  if (schedule.autoRetryFor !== undefined) requireErrorCodes(`${field}.autoRetryFor`, schedule.autoRetryFor);
  return schedule;
}

/** Reads an optional jitter option: `true` = the default fraction, `false`/0 = none. */
export function jitterOption(field: string, value: unknown, whenOn: number, byDefault: boolean): number {
  if (value === undefined || value === null) return byDefault ? whenOn : 0;
  if (value === true) return whenOn;
  if (value === false) return 0;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new ValidationError(field, 'must be true, false or a fraction between 0 and 1', value);
  }
  return value;
}

/** Reads an optional integer seed. */
export function seedOption(field: string, value: unknown): { seed?: number } {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new ValidationError(field, 'must be an integer', value);
  return { seed: value };
}
