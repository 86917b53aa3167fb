import { ValidationError } from '../errors/index.ts';
import { goDurationMs, toMs, type Duration } from '../retry/duration.ts';
import { MAX_DURATION_MS } from '../common/max-duration.ts';
import { CalendarMatcher, dayExists, type CalendarFields } from './calendar-matcher.ts';
import { requireTime } from './check.ts';
import { CronSyntaxError } from './errors.ts';
import { parseGoDuration } from './go-duration.ts';
import { CALENDAR_FIELDS, type CalendarFieldName } from './field.ts';
import { everyValue, FIELD_WORDS, oneValue, PREDEFINED, readFieldWord, readZonePrefix, words } from './cron-text.ts';
import { TimeZone } from './time-zone.ts';

/**
 * A workflow's `cronSchedule`, read as robfig/cron's standard parser reads it: five fields
 * (minute hour day-of-month month day-of-week), a predefined name (`@daily` …), or
 * `@every <duration>`, optionally after `CRON_TZ=<zone>` (or `TZ=`); UTC by default.
 */
export interface CronSchedule {
  /** The spec as given. */
  readonly spec: string;
  /** The zone the fields are read in (`UTC` unless the spec has a prefix). */
  readonly timeZone: string;
  /** For `@every`: the interval in ms (whole seconds, at least 1s); undefined for field specs. */
  readonly everyMs?: number;
  /** The first fire time strictly after `after` (ms since the epoch), or null if none comes before 2101. */
  next(after: number): number | null;
  /**
   * When a cron job's next run starts, computed as a run closes (the seed's rule): the first fire
   * time after the closing run's scheduled start `runStart`; if that time passed while the run
   * was open, `now` (the next run starts at once, and only one run is started for all the fire
   * times that passed). Null if no fire time comes before 2101.
   */
  nextRunAfter(runStart: number, now: number): number | null;
}

const ORDER: readonly CalendarFieldName[] = ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'];
const EVERY_EXPECTED = 'a duration of whole seconds, at least 1s and at most 100 years (e.g. 90s, 5m, 1h30m)';
const ROBFIG_EVERY_EXPECTED = 'a duration in Go\'s grammar such as 90s, 1h30m or 500ms (under 1s counts as 1s, fractions of a second are dropped)';
/** The longest `@every` Go's int64 nanoseconds hold, ms. */
const MAX_ROBFIG_EVERY_MS = Number((1n << 63n) - 1n) / 1e6;

class FieldCron implements CronSchedule {
  constructor(readonly spec: string, private readonly zone: TimeZone, private readonly matcher: CalendarMatcher) {}
  get timeZone(): string {
    return this.zone.name;
  }
  next(after: number): number | null {
    return this.matcher.nextAfter(requireTime(after, 'after'), this.zone);
  }
  nextRunAfter(runStart: number, now: number): number | null {
    const fire = this.next(requireTime(runStart, 'runStart'));
    return fire === null ? null : Math.max(fire, requireTime(now, 'now'));
  }
}

class EveryCron implements CronSchedule {
  constructor(readonly spec: string, readonly timeZone: string, readonly everyMs: number) {}
  /** As robfig/cron's ConstantDelaySchedule: the interval after `after`, counted from its whole second. */
  next(after: number): number {
    return Math.floor(requireTime(after, 'after') / 1000) * 1000 + this.everyMs;
  }
  nextRunAfter(runStart: number, now: number): number | null {
    return Math.max(this.next(requireTime(runStart, 'runStart')), requireTime(now, 'now'));
  }
}

/**
 * Reads a duration of a schedule's cron string (after `@every`), refusing what is not whole
 * seconds of at least `minMs` (1s unless told) and, for an interval, at most MAX_DURATION_MS.
 */
export function readEvery(spec: string, field: string, text: string, column: number, minMs = 1000): number {
  const expected = minMs > 0 ? EVERY_EXPECTED : 'a duration of whole seconds (e.g. 0s, 90s, 5m)';
  // An offset (minMs 0) needs no bound of its own: it must be shorter than its interval.
  const maxMs = minMs > 0 ? MAX_DURATION_MS : Infinity;
  let ms = goDurationMs(text);
  if (ms === undefined) {
    try {
      ms = toMs(text as Duration, field);
    } catch {
      throw new CronSyntaxError(field, spec, column, expected, text);
    }
  }
  if (ms < minMs || ms > maxMs || ms % 1000 !== 0) throw new CronSyntaxError(field, spec, column, expected, text);
  return ms;
}

/**
 * The interval of a `cronSchedule`'s `@every`, as robfig/cron computes it: the duration read by
 * Go's time.ParseDuration, then its `Every()`: under 1s becomes 1s (a negative or zero one too),
 * and what is below a whole second is dropped (`1.5s` fires every second). The Temporal SDK's
 * spellings with a unit (`90sec`, `2days`) are read too; a bare number is refused, as Go does.
 * @see https://github.com/robfig/cron/blob/master/constantdelay.go
 */
function readRobfigEvery(spec: string, field: string, text: string, column: number): number {
  const ns = parseGoDuration(text);
  let ms: number;
  if (ns !== undefined) {
    ms = ns < 1_000_000_000n ? 1000 : Number(ns / 1_000_000_000n) * 1000;
  } else {
    if (/^[\d.]+$/.test(text)) throw new CronSyntaxError(field, spec, column, ROBFIG_EVERY_EXPECTED, text);
    try {
      ms = toMs(text as Duration, field);
    } catch {
      throw new CronSyntaxError(field, spec, column, ROBFIG_EVERY_EXPECTED, text);
    }
    if (ms > MAX_ROBFIG_EVERY_MS) throw new CronSyntaxError(field, spec, column, ROBFIG_EVERY_EXPECTED, text);
    ms = ms < 1000 ? 1000 : Math.floor(ms / 1000) * 1000;
  }
  return ms;
}

/**
 * Parses a workflow cron schedule.
 * @param field the option's name in error messages.
 * @throws CronSyntaxError with the column and what was expected there.
 */
export function parseCronSchedule(spec: unknown, field = 'cronSchedule'): CronSchedule {
  if (typeof spec !== 'string' || spec.trim() === '') {
    throw new ValidationError(field, 'must be a cron spec such as "15 8 * * *", "@daily" or "@every 1h"', spec);
  }
  const { zone = TimeZone.get('UTC', field), rest } = readZonePrefix(spec, field);
  const list = words(spec, rest);
  const first = list[0];
  if (!first) throw new CronSyntaxError(field, spec, spec.length + 1, 'a schedule after the time zone', '');
  if (first.text.startsWith('@')) {
    if (first.text === '@every') {
      const amount = list[1];
      if (!amount) throw new CronSyntaxError(field, spec, spec.length + 1, ROBFIG_EVERY_EXPECTED, '');
      const extra = list[2];
      if (extra) throw new CronSyntaxError(field, spec, extra.column, 'the end of the spec', extra.text);
      return new EveryCron(spec, zone.name, readRobfigEvery(spec, field, amount.text, amount.column));
    }
    const fields = PREDEFINED[first.text];
    if (!fields) {
      throw new CronSyntaxError(field, spec, first.column,
        `@every <duration> or one of ${Object.keys(PREDEFINED).join(', ')}`, first.text);
    }
    const extra = list[1];
    if (extra) throw new CronSyntaxError(field, spec, extra.column, 'the end of the spec', extra.text);
    return new FieldCron(spec, zone, matcherOf(fields, field, fields));
  }
  return new FieldCron(spec, zone, matcherOf(spec, field, spec, rest));
}

function matcherOf(spec: string, field: string, text: string, from = 0): CalendarMatcher {
  const list = words(text, from);
  const fields = {} as CalendarFields;
  ORDER.forEach((name, i) => {
    const word = list[i];
    if (!word) throw new CronSyntaxError(field, spec, spec.trimEnd().length + 1, FIELD_WORDS[name], '');
    fields[name] = readFieldWord(spec, field, word, name, 'robfig');
  });
  const extra = list[ORDER.length];
  if (extra) {
    throw new CronSyntaxError(field, spec, extra.column,
      'the end of the spec (5 fields: minute hour day-of-month month day-of-week)', extra.text);
  }
  const eitherDay = !fields.dayOfWeek.star && !fields.dayOfMonth.star;
  if (!eitherDay && !dayExists(fields)) {
    throw new CronSyntaxError(field, spec, list[2]!.column, 'a day of the month that some month of the spec has', list[2]!.text);
  }
  for (const name of CALENDAR_FIELDS) if (!fields[name]) fields[name] = name === 'second' ? oneValue('second', 0) : everyValue(name);
  return new CalendarMatcher(fields, 'cron');
}
