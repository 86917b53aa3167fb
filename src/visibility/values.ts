/**
 * Conversions shared by the query checker and the start/upsert validator: RFC 3339 datetimes
 * to epoch milliseconds, durations to milliseconds, and Text values to the word form that
 * Text filters match against.
 */

import { goDurationMs } from '../retry/duration.ts';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Parses an RFC 3339 date-time (`2026-11-01T00:00:00Z`, `2026-11-01T01:00:00.5+01:00`) to
 * epoch milliseconds, fractional when the text has digits finer than a millisecond.
 * @returns undefined when the text is not an RFC 3339 date-time or names an impossible date.
 */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const base = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(base).getUTCDate() !== day) return undefined;
  const offsetMinutes = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (Number(m[11] ?? 0) > 59) return undefined;
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  return base - offsetMinutes * 60_000 + nanos / 1e6;
}

/**
 * Parses an ExecutionDuration literal to milliseconds: a duration with units, Go style
 * (`1h30m`, `1.5s`, `250ms`, `10us`, `2d`), or an integer number of nanoseconds as Temporal
 * stores it (`3600000000000`, quoted or not).
 * @returns undefined when the literal is neither.
 */
export function parseDurationLiteral(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value / 1e6 : undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return parseDurationLiteral(Number(text));
  return goDurationMs(text, { days: true });
}

/**
 * The words of a Text value or of a Text filter: NFKC-normalized, lower-cased, split on
 * every character that is not a letter or a digit.
 */
export function textWords(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}

/**
 * The form a Text attribute is stored in for filtering: its words separated and surrounded
 * by single spaces (`' hello world '`), so that a word matches as the substring `' word '`
 * in SQLite and PostgreSQL alike.
 */
export function storedTextForm(text: string): string {
  const words = textWords(text);
  return words.length === 0 ? ' ' : ` ${words.join(' ')} `;
}
