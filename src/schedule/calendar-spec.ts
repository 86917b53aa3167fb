import { ValidationError } from '../errors/index.ts';
import { dayExists, type CalendarFields } from './calendar-matcher.ts';
import { CALENDAR_FIELDS, FIELD_DEFS, FieldProblem, parseField, readValue, fieldSetOf, type CalendarFieldName, type FieldSet } from './field.ts';

/** One value of a calendar field: a number, or a month or weekday name (`"Jan"`, `"MONDAY"`). */
export type CalendarValue = number | string;

/** A range of a calendar field, as the Temporal TypeScript SDK writes it. @default end = start, step = 1 */
export interface CalendarRange {
  readonly start: CalendarValue;
  readonly end?: CalendarValue;
  readonly step?: number;
}

/**
 * A calendar field: a string such as `"1,15"`, `"9-17"`, `"*\/15"`, `"Mon-Fri"`, a number, a
 * {@link CalendarRange}, or an array of values and ranges (any of which match).
 */
export type CalendarField = CalendarValue | CalendarRange | ReadonlyArray<CalendarValue | CalendarRange>;

/**
 * A calendar-based spec: a time matches when every field matches (unlike cron's day rule).
 * `second`, `minute` and `hour` default to `0`, the others to `*`.
 */
export interface CalendarSpec {
  /** 0-59. @default 0 */
  readonly second?: CalendarField;
  /** 0-59. @default 0 */
  readonly minute?: CalendarField;
  /** 0-23. @default 0 */
  readonly hour?: CalendarField;
  /** 1-31. @default "*" */
  readonly dayOfMonth?: CalendarField;
  /** 1-12 or names (case-insensitive, at least three letters). @default "*" */
  readonly month?: CalendarField;
  /** 0-6 (7 is Sunday too) or names (case-insensitive, at least two letters). @default "*" */
  readonly dayOfWeek?: CalendarField;
  /** 1970-2100. @default "*" */
  readonly year?: CalendarField;
  /** Free text describing the intent; kept in the canonical form. */
  readonly comment?: string;
}

/** A compiled calendar spec. */
export interface CompiledCalendar {
  readonly fields: CalendarFields;
  readonly comment?: string;
}

const DEFAULTS: Record<CalendarFieldName, string> = {
  second: '0', minute: '0', hour: '0', dayOfMonth: '*', month: '*', dayOfWeek: '*', year: '*',
};

function got(text: string): string | number {
  return /^\d+$/.test(text) ? Number(text) : text;
}

function fromText(text: string, name: CalendarFieldName, field: string): FieldSet {
  try {
    return parseField(text.trim() === '' ? DEFAULTS[name] : text.trim(), FIELD_DEFS[name], 'calendar');
  } catch (err) {
    if (!(err instanceof FieldProblem)) throw err;
    throw new ValidationError(field, err.rule, got(err.got));
  }
}

function valueOf(value: unknown, name: CalendarFieldName, field: string): number {
  const def = FIELD_DEFS[name];
  const max = name === 'dayOfWeek' ? 7 : def.max;
  const text = typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  const v = text === undefined ? undefined : readValue(text, def, 'calendar');
  if (v === undefined) {
    const names = name === 'month' ? ' or a month name' : name === 'dayOfWeek' ? ' or a day name' : '';
    throw new ValidationError(field, `must be ${def.min}-${max}${names}`, value);
  }
  return v;
}

/** A number, a name or a range object as one [start, end, step] range. */
function rangeOf(item: unknown, name: CalendarFieldName, field: string): readonly [number, number, number] {
  if (typeof item !== 'object' || item === null) {
    const v = valueOf(item, name, field);
    return [v, v, 1];
  }
  const r = item as Record<string, unknown>;
  const start = valueOf(r.start, name, `${field}.start`);
  const end = r.end === undefined ? start : valueOf(r.end, name, `${field}.end`);
  if (end < start) throw new ValidationError(`${field}.end`, `must not be before start (${start})`, r.end);
  const step = r.step ?? 1;
  if (typeof step !== 'number' || !Number.isInteger(step) || step < 1) {
    throw new ValidationError(`${field}.step`, 'must be an integer >= 1', step);
  }
  return [start, end, step];
}

function fieldOf(value: unknown, name: CalendarFieldName, field: string): FieldSet {
  if (value === undefined || value === null) return fromText(DEFAULTS[name], name, field);
  if (typeof value === 'string') return fromText(value, name, field);
  if (Array.isArray(value)) {
    if (value.length === 0) throw new ValidationError(field, 'must list at least one value or range', value);
    const ranges = value.flatMap((item, i) => typeof item === 'string'
      ? fromText(item, name, `${field}[${i}]`).values.map((v) => [v, v, 1] as const)
      : [rangeOf(item, name, `${field}[${i}]`)]);
    return fieldSetOf(FIELD_DEFS[name], ranges, false);
  }
  if (typeof value === 'number' || typeof value === 'object') return fieldSetOf(FIELD_DEFS[name], [rangeOf(value, name, field)], false);
  throw new ValidationError(field, 'must be a string such as "1,15" or "9-17", a number, a range { start, end, step } or an array of them', value);
}

/**
 * Validates and compiles one calendar spec.
 * @param field its path in error messages, e.g. `calendars[0]`.
 */
export function compileCalendarSpec(spec: unknown, field: string): CompiledCalendar {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new ValidationError(field, 'must be an object with calendar fields (second, minute, hour, dayOfMonth, month, dayOfWeek, year)', spec);
  }
  const record = spec as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'comment' && !(CALENDAR_FIELDS as readonly string[]).includes(key)) {
      throw new ValidationError(`${field}.${key}`, `is not a calendar field (use ${CALENDAR_FIELDS.join(', ')} or comment)`, record[key]);
    }
  }
  const fields = {} as CalendarFields;
  for (const name of CALENDAR_FIELDS) fields[name] = fieldOf(record[name], name, `${field}.${name}`);
  if (!dayExists(fields)) {
    throw new ValidationError(`${field}.dayOfMonth`, 'must name a day that some month of the calendar has', record.dayOfMonth);
  }
  const comment = record.comment;
  if (comment !== undefined && typeof comment !== 'string') throw new ValidationError(`${field}.comment`, 'must be a string', comment);
  return comment ? { fields, comment } : { fields };
}
