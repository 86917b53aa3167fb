import { CronSyntaxError } from './errors.ts';
import { FIELD_DEFS, FieldProblem, fieldSetOf, parseField, type CalendarFieldName, type Dialect, type FieldSet } from './field.ts';
import { TimeZone } from './time-zone.ts';

/**
 * Reading cron text: the `CRON_TZ=`/`TZ=` prefix, words with their columns, predefined names,
 * and the positional fields. Shared by workflow cron schedules (robfig/cron's grammar) and the
 * cron strings of schedule specs (Temporal's grammar).
 */

/** A word of the spec and its 1-based column. */
export interface Word {
  readonly text: string;
  readonly column: number;
}

/** Splits text into words separated by whitespace, remembering where each starts. */
export function words(text: string, from = 0): Word[] {
  const out: Word[] = [];
  const re = /\S+/g;
  re.lastIndex = from;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ text: m[0], column: m.index + 1 });
  return out;
}

/** The predefined schedules of robfig/cron, as five classic fields. */
export const PREDEFINED: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** A spec with its time-zone prefix taken off. */
interface ZonedText {
  readonly zone?: TimeZone;
  /** Index in the spec where the schedule itself starts. */
  readonly rest: number;
}

/** Reads an optional `CRON_TZ=<zone> ` or `TZ=<zone> ` prefix. */
export function readZonePrefix(spec: string, field: string): ZonedText {
  const m = /^\s*(CRON_TZ|TZ)=(\S*)/.exec(spec);
  if (!m) return { rest: 0 };
  const column = m.index + m[0].length - m[2]!.length + 1;
  let zone: TimeZone;
  try {
    zone = TimeZone.get(m[2], field);
  } catch {
    throw new CronSyntaxError(field, spec, column, 'an IANA time zone name such as America/New_York', m[2]!);
  }
  return { zone, rest: m[0].length };
}

/** Parses one positional field word, turning a field problem into a column-pointing error. */
export function readFieldWord(spec: string, field: string, word: Word, name: CalendarFieldName, dialect: Dialect): FieldSet {
  try {
    return parseField(word.text, FIELD_DEFS[name], dialect);
  } catch (err) {
    if (!(err instanceof FieldProblem)) throw err;
    throw new CronSyntaxError(field, spec, word.column + err.index, err.expected, err.got);
  }
}

const EVERY = new Map<CalendarFieldName, FieldSet>();

/** The set of every value of a field (`*`); shared, as field sets are never changed. */
export function everyValue(name: CalendarFieldName): FieldSet {
  let set = EVERY.get(name);
  if (!set) {
    const def = FIELD_DEFS[name];
    set = fieldSetOf(def, [[def.min, def.max, 1]], true);
    EVERY.set(name, set);
  }
  return set;
}

/** The set of one value. */
export function oneValue(name: CalendarFieldName, value: number): FieldSet {
  return fieldSetOf(FIELD_DEFS[name], [[value, value, 1]], false);
}

/** Names the position of a field for "expected …" messages. */
export const FIELD_WORDS: Record<CalendarFieldName, string> = {
  second: 'the second field', minute: 'the minute field', hour: 'the hour field',
  dayOfMonth: 'the day-of-month field', month: 'the month field', dayOfWeek: 'the day-of-week field',
  year: 'the year field',
};
