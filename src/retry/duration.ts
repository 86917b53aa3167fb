import ms from 'ms';
import { ValidationError } from '../errors/index.ts';

/**
 * A duration string in the `ms` package's grammar, the one Temporal's SDK accepts: a number
 * (decimals allowed) and an optional unit — ms, s, m, h, d, w, y in their short and long forms
 * (`"1.5s"`, `"200ms"`, `"30 seconds"`, `"1 minute"`, `"2 hours"`, `"1 day"`, `"1w"`), with or
 * without a space; a bare number is milliseconds. A malformed literal fails to compile.
 */
export type DurationString = ms.StringValue;

/**
 * A length of time: milliseconds as a number, or a {@link DurationString} such as `"200ms"`,
 * `"1.5s"`, `"1 minute"`, `"2 hours"`, `"1w"`. Compound strings (`"1h30m"`) are not durations,
 * as in Temporal: write `"90m"` or `"1.5h"`.
 */
export type Duration = number | DurationString;

/* The grammar is the `ms` package's (its parser is used below), so a duration valid in a
 * Temporal project means the same here. Two of its answers are refused: negative values
 * (`"-1s"`), and a missing answer for text it does not parse. */
const COMPOUND = /^\s*\d*\.?\d+\s*[a-z]+\s*\d/i;

function malformed(field: string, value: string): ValidationError {
  const hint = COMPOUND.test(value)
    ? 'compound durations are not accepted: write one number and one unit, e.g. "90m" or "1.5h"'
    : 'use milliseconds or a number with a unit: ms, s, m, h, d, w, y, e.g. "1.5s", "30 seconds", "1 minute"';
  return new ValidationError(
    field,
    'must be a duration such as 200ms, 1.5s, 30 seconds, 1 minute, 2 hours or 1 day',
    value,
    `${field} is not a valid duration: ${JSON.stringify(value)} (${hint})`,
  );
}

/**
 * Converts a {@link Duration} to milliseconds. Runs inside the workflow sandbox too.
 * @param field the name used in the error message when the value is malformed. @default 'duration'
 * @throws ValidationError naming the field and the text when the value is not a duration or is negative.
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
  const parsed = value.length > 0 ? (ms(value) as number | undefined) : undefined;
  if (parsed === undefined || !Number.isFinite(parsed)) throw malformed(field, value);
  if (parsed < 0) throw new ValidationError(field, 'must be >= 0', value);
  return parsed === 0 ? 0 : parsed;
}

const GO_UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const GO_DURATION = /^(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h|d))+$/;
const GO_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h|d)/g;

/**
 * Milliseconds of a duration in Go's `time.ParseDuration` grammar (`1h30m`, `1.5s`, `250ms`,
 * `10us`; `0` alone), the form robfig/cron's `@every` and Temporal's visibility queries read;
 * `d` (24 h) is accepted only when `days` is set, as Go has no day unit.
 * @returns undefined when the text is not such a duration.
 */
export function goDurationMs(text: string, options: { days?: boolean } = {}): number | undefined {
  if (text === '0') return 0;
  if (!GO_DURATION.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(GO_PART)) {
    if (unit === 'd' && !options.days) return undefined;
    total += Number(amount) * GO_UNIT_MS[unit!]!;
  }
  return total;
}

/** Like {@link toMs}, but `undefined` and `null` stay `undefined`. */
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
