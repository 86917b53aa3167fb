/** Calendar arithmetic on proleptic Gregorian dates, in whole seconds and days. */

/** Milliseconds in one day. */
export const DAY_MS = 86_400_000;

/** True for Gregorian leap years. */
function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const MONTH_DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month (1 = January) of a year. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month]!;
}

/** Day of the week, 0 = Sunday, of a date (month 1 = January). */
export function weekday(year: number, month: number, day: number): number {
  // 1970-01-01 was a Thursday (4).
  return (((Math.floor(Date.UTC(year, month - 1, day) / DAY_MS) + 4) % 7) + 7) % 7;
}

/** The wall-clock fields of a time given as milliseconds on a clock that reads like UTC. */
export interface WallFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

/** Splits milliseconds of a wall clock (local time written as if it were UTC) into fields. */
export function wallFields(wallMs: number): WallFields {
  const d = new Date(wallMs);
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
    hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay(),
  };
}
