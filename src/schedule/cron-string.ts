import type { CompiledCalendar } from './calendar-spec.ts';
import { readEvery } from './cron.ts';
import { CronSyntaxError } from './errors.ts';
import type { CalendarFieldName } from './field.ts';
import { everyValue, FIELD_WORDS, oneValue, PREDEFINED, readFieldWord, readZonePrefix, words, type Word } from './cron-text.ts';
import type { TimeZone } from './time-zone.ts';
import { dayExists, type CalendarFields } from './calendar-matcher.ts';

/** An interval: fire at every instant `k × everyMs + offsetMs` after the Unix epoch. */
export interface CompiledInterval {
  readonly everyMs: number;
  readonly offsetMs: number;
}

/** What a schedule's cron string compiles to: a calendar or an interval, and its zone if it named one. */
interface CompiledCronString {
  readonly calendar?: CompiledCalendar;
  readonly interval?: CompiledInterval;
  readonly zone?: TimeZone;
}

const LAYOUTS: Record<number, readonly CalendarFieldName[]> = {
  5: ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'],
  6: ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'],
  7: ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'],
};
const LAYOUT_WORDS = '5 fields (minute hour day-of-month month day-of-week), 6 (… year) or 7 (second … year)';

/**
 * Parses a cron string of a schedule spec as Temporal reads it: 5, 6 (with year) or 7 (second
 * first, year last) fields, every field must match (no day-of-month/day-of-week OR), a
 * predefined name, or `@every <interval>[/<offset>]` (an interval spec); an optional
 * `CRON_TZ=`/`TZ=` prefix and an optional trailing `# comment`.
 * @throws CronSyntaxError with the column and what was expected there.
 */
export function parseCronString(spec: string, field: string): CompiledCronString {
  const hash = spec.indexOf('#');
  const body = hash < 0 ? spec : spec.slice(0, hash);
  const comment = hash < 0 ? undefined : spec.slice(hash + 1).trim() || undefined;
  const { zone, rest } = readZonePrefix(body, field);
  const list = words(body, rest);
  const first = list[0];
  if (!first) throw new CronSyntaxError(field, spec, body.trimEnd().length + 1, 'a cron schedule', '');
  if (first.text === '@every') return { interval: readInterval(spec, field, list), ...(zone ? { zone } : {}) };
  let fieldWords: Word[] = list;
  if (first.text.startsWith('@')) {
    const expansion = PREDEFINED[first.text];
    if (!expansion) {
      throw new CronSyntaxError(field, spec, first.column,
        `@every <interval>[/<offset>] or one of ${Object.keys(PREDEFINED).join(', ')}`, first.text);
    }
    const extra = list[1];
    if (extra) throw new CronSyntaxError(field, spec, extra.column, 'the end of the spec or a # comment', extra.text);
    fieldWords = words(expansion).map((w) => ({ text: w.text, column: first.column }));
  }
  const layout = LAYOUTS[fieldWords.length];
  if (!layout) {
    const end = body.trimEnd().length + 1;
    if (fieldWords.length < 5) {
      throw new CronSyntaxError(field, spec, end, `${FIELD_WORDS[LAYOUTS[5]![fieldWords.length]!]} (${LAYOUT_WORDS})`, '');
    }
    const extra = fieldWords[7]!;
    throw new CronSyntaxError(field, spec, extra.column, `the end of the spec (${LAYOUT_WORDS})`, extra.text);
  }
  const fields = {} as CalendarFields;
  layout.forEach((name, i) => {
    fields[name] = readFieldWord(spec, field, fieldWords[i]!, name, 'calendar');
  });
  if (!dayExists(fields)) {
    const word = fieldWords[layout.indexOf('dayOfMonth')]!;
    throw new CronSyntaxError(field, spec, word.column, 'a day of the month that some month of the spec has', word.text);
  }
  if (!fields.second) fields.second = oneValue('second', 0);
  if (!fields.year) fields.year = everyValue('year');
  const calendar: CompiledCalendar = comment ? { fields, comment } : { fields };
  return { calendar, ...(zone ? { zone } : {}) };
}

function readInterval(spec: string, field: string, list: readonly Word[]): CompiledInterval {
  const amount = list[1];
  const expected = 'an interval such as 30m, or an interval and an offset such as 6h/5h';
  if (!amount) throw new CronSyntaxError(field, spec, spec.trimEnd().length + 1, expected, '');
  const extra = list[2];
  if (extra) throw new CronSyntaxError(field, spec, extra.column, 'the end of the spec or a # comment', extra.text);
  const slash = amount.text.indexOf('/');
  const everyText = slash < 0 ? amount.text : amount.text.slice(0, slash);
  const everyMs = readEvery(spec, field, everyText, amount.column);
  if (slash < 0) return { everyMs, offsetMs: 0 };
  const offsetText = amount.text.slice(slash + 1);
  const offsetColumn = amount.column + slash + 1;
  const offsetMs = readEvery(spec, field, offsetText, offsetColumn, 0);
  if (offsetMs >= everyMs) {
    throw new CronSyntaxError(field, spec, offsetColumn, `an offset shorter than the interval (${everyText})`, offsetText);
  }
  return { everyMs, offsetMs };
}
