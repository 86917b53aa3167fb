import { ValidationError } from './errors.ts';

/**
 * A length of time: milliseconds as a number, or a string with a unit such as `"200ms"`,
 * `"1.5s"`, `"5m"`, `"1h"`, `"2d"`. Compound strings (`"1h30m"`) are accepted too.
 */
export type Duration = number | `${number}${DurationUnit}` | (string & {});
type DurationUnit = 'ms' | 's' | 'm' | 'h' | 'd';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h|d)/y;

/**
 * Converts a {@link Duration} to milliseconds.
 * @param field the name used in the error message when the value is malformed.
 * @throws ValidationError naming the field and the text when the value is not a duration.
 */
export function toMs(value: Duration, field = 'duration'): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) {
      throw new ValidationError(field, 'must be a finite number of milliseconds >= 0', value);
    }
    return value;
  }
  if (typeof value !== 'string') {
    throw new ValidationError(field, 'must be a number of milliseconds or a string such as "1.5s"', value);
  }
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  let total = 0;
  let index = 0;
  PART.lastIndex = 0;
  while (index < text.length) {
    PART.lastIndex = index;
    const m = PART.exec(text);
    if (!m) break;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    index = PART.lastIndex;
    while (text[index] === ' ') index++;
  }
  if (text.length === 0 || index !== text.length) {
    throw new ValidationError(
      field,
      'must be a duration such as 200ms, 1.5s, 5m, 1h or 2d',
      value,
      `${field} is not a valid duration: "${value}" (use milliseconds or a number with ms, s, m, h or d, e.g. "1.5s")`,
    );
  }
  return total;
}

/** Like {@link toMs}, but `undefined` stays `undefined`. */
export function optionalMs(value: Duration | undefined | null, field: string): number | undefined {
  return value === undefined || value === null ? undefined : toMs(value, field);
}

/** Renders milliseconds the way a person reads them: `850ms`, `1.5s`, `5m`, `2h 30m`, `3d`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 1_000) return `${Math.round(ms * 100) / 100}ms`;
  if (ms < 60_000) return `${Math.round(ms / 10) / 100}s`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, size] of [['d', 86_400], ['h', 3_600], ['m', 60], ['s', 1]] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.slice(0, 2).join(' ');
}
