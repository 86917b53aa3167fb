import { ValidationError } from '../errors/index.ts';
import { formatMs, toMs, type Duration } from '../retry/duration.ts';
import { checkMaxDuration } from './max-duration.ts';

/**
 * Small, named checks for public entry points. Each throws a ValidationError whose message
 * names the field, the rule and the value: `taskQueue must be a non-empty string, got ""`.
 */
export function requireString(field: string, value: unknown, maxLength = 1000): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ValidationError(field, 'must be a non-empty string', value);
  }
  if (value.length > maxLength) {
    throw new ValidationError(field, `must be at most ${maxLength} characters`, `${value.slice(0, 20)}... (${value.length} characters)`);
  }
  return value;
}

export function optionalString(field: string, value: unknown, maxLength = 1000): string | undefined {
  return value === undefined || value === null ? undefined : requireString(field, value, maxLength);
}

export function requireInt(field: string, value: unknown, min = -Infinity, max = Infinity): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new ValidationError(field, 'must be an integer', value);
  }
  if (value < min) throw new ValidationError(field, `must be >= ${min}`, value);
  if (value > max) throw new ValidationError(field, `must be <= ${max}`, value);
  return value;
}

export function optionalInt(field: string, value: unknown, min = -Infinity, max = Infinity): number | undefined {
  return value === undefined || value === null ? undefined : requireInt(field, value, min, max);
}

export function requireOneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new ValidationError(field, `must be one of ${allowed.join(', ')}`, value);
  }
  return value as T;
}

/**
 * A duration in whole milliseconds, at most MAX_DURATION_MS (100 years), or undefined. A
 * fractional number of milliseconds is accepted, as Temporal's SDK accepts it, and rounded up to
 * the next whole millisecond: the wire carries integers, and rounding up never turns a positive
 * timeout into 0.
 */
export function optionalDuration(field: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  return checkMaxDuration(field, Math.ceil(toMs(value as Duration, field)), value);
}

/** A positive duration (> 0 ms, at most MAX_DURATION_MS), or undefined. */
export function optionalPositiveDuration(field: string, value: unknown): number | undefined {
  const ms = optionalDuration(field, value);
  if (ms !== undefined && ms <= 0) throw new ValidationError(field, 'must be greater than 0', value);
  return ms;
}

/**
 * A duration of at least `minMs` (and at most MAX_DURATION_MS), or undefined. A negative value is
 * refused with this rule too, not with the `>= 0` of every duration, so the message states the
 * rule that holds (`policies.catchupWindow must be >= 1s (1000 ms), got "-1s"`).
 */
export function optionalDurationAtLeast(field: string, value: unknown, minMs: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  const rule = `must be >= ${formatMs(minMs)} (${minMs} ms)`;
  const negative = (typeof value === 'number' && value < 0) || (typeof value === 'string' && value.trim().startsWith('-'));
  if (negative) throw new ValidationError(field, rule, value);
  const ms = optionalDuration(field, value)!;
  if (ms < minMs) throw new ValidationError(field, rule, value);
  return ms;
}

export function requireArray(field: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new ValidationError(field, 'must be an array', value);
  return value;
}

/** An array that may be left out: `[]` when undefined. */
export function optionalArray(field: string, value: unknown): unknown[] {
  return value === undefined ? [] : requireArray(field, value);
}

export function optionalRecord(field: string, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ValidationError(field, 'must be an object', value);
  }
  return value as Record<string, unknown>;
}

export function optionalBoolean(field: string, value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ValidationError(field, 'must be true or false', value);
  return value;
}
