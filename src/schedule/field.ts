/**
 * One field of a cron or calendar spec (`second` … `year`): its bounds and names, and the parser
 * of its expressions (comma lists of `*`, values and ranges, each with an optional `/step`).
 */

/** Earliest year a calendar `year` field may name. */
export const MIN_YEAR = 1970;
/** Latest year a calendar `year` field may name, and the horizon of every search: no time after this year is produced. */
export const MAX_YEAR = 2100;

/** The fields of a calendar, finest first. */
export const CALENDAR_FIELDS = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'] as const;
/** The name of one calendar field. */
export type CalendarFieldName = (typeof CALENDAR_FIELDS)[number];

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * Which grammar a field is read with. `robfig`: robfig/cron's standard parser (`?` as `*`,
 * three-letter names only, day of week 0-6). `calendar`: Temporal's calendar specs (names by any
 * prefix of three letters for months and two for days, day of week 0-7 with 7 = Sunday).
 */
export type Dialect = 'robfig' | 'calendar';

/** Bounds and wording of one field. */
interface FieldDef {
  readonly name: CalendarFieldName;
  /** How the value is named in messages, with its article: `an hour`. */
  readonly label: string;
  readonly min: number;
  readonly max: number;
}

/** The definitions of the seven fields. */
export const FIELD_DEFS: Record<CalendarFieldName, FieldDef> = {
  second: { name: 'second', label: 'a second', min: 0, max: 59 },
  minute: { name: 'minute', label: 'a minute', min: 0, max: 59 },
  hour: { name: 'hour', label: 'an hour', min: 0, max: 23 },
  dayOfMonth: { name: 'dayOfMonth', label: 'a day of the month', min: 1, max: 31 },
  month: { name: 'month', label: 'a month', min: 1, max: 12 },
  dayOfWeek: { name: 'dayOfWeek', label: 'a day of the week', min: 0, max: 6 },
  year: { name: 'year', label: 'a year', min: MIN_YEAR, max: MAX_YEAR },
};

/** The values a field matches. */
export interface FieldSet {
  /** `has[v] === 1` when value v matches (indexed by the value itself). */
  readonly has: Uint8Array;
  /** Matching values, ascending. */
  readonly values: readonly number[];
  /**
   * robfig's "star" flag: some part of the field was `*` or `?` without a step above 1. The cron
   * day rule (day of month OR day of week) applies only when neither day field has it.
   */
  readonly star: boolean;
}

/** A field expression that does not parse: where (0-based, in the field's text) and what was expected. */
export class FieldProblem {
  constructor(
    readonly index: number,
    /** For cron text: what belongs at the index, e.g. `an hour 0-23`. */
    readonly expected: string,
    readonly got: string,
    /** For a named field: the rule broken, e.g. `must be 0-23`. */
    readonly rule: string,
  ) {}
}

/** The values a field accepts, for messages: `0-23`, `1-12 or a name (Jan-Dec)`. */
function bounds(def: FieldDef, dialect: Dialect): string {
  const max = def.name === 'dayOfWeek' && dialect === 'calendar' ? 7 : def.max;
  const names = def.name === 'month' ? ' or a name (Jan-Dec)' : def.name === 'dayOfWeek' ? ' or a name (Sun-Sat)' : '';
  return `${def.min}-${max}${names}`;
}

function badValue(index: number, def: FieldDef, dialect: Dialect, got: string): FieldProblem {
  const range = bounds(def, dialect);
  if (got === '') return new FieldProblem(index, `${def.label} ${range}, a range or *`, got, `must be a value ${range}, a range or *`);
  return new FieldProblem(index, `${def.label} ${range}`, got, `must be ${range}`);
}

function nameValue(text: string, def: FieldDef, dialect: Dialect): number | undefined {
  const lower = text.toLowerCase();
  const list = def.name === 'month' ? MONTH_NAMES : def.name === 'dayOfWeek' ? DAY_NAMES : undefined;
  if (!list || !/^[a-z]+$/.test(lower)) return undefined;
  const base = def.name === 'month' ? 1 : 0;
  if (dialect === 'robfig') {
    const i = list.findIndex((n) => n.slice(0, 3) === lower);
    return i < 0 ? undefined : i + base;
  }
  const shortest = def.name === 'month' ? 3 : 2;
  if (lower.length < shortest) return undefined;
  const i = list.findIndex((n) => n.startsWith(lower));
  return i < 0 ? undefined : i + base;
}

/** Reads one value (number or name) of a field; undefined when the text is neither or out of bounds. */
export function readValue(text: string, def: FieldDef, dialect: Dialect): number | undefined {
  const named = nameValue(text, def, dialect);
  if (named !== undefined) return named;
  if (!/^\d{1,4}$/.test(text)) return undefined;
  const n = Number(text);
  const max = def.name === 'dayOfWeek' && dialect === 'calendar' ? 7 : def.max;
  return n >= def.min && n <= max ? n : undefined;
}

/** Builds a FieldSet from a list of [start, end, step] ranges (already checked). */
export function fieldSetOf(def: FieldDef, ranges: ReadonlyArray<readonly [number, number, number]>, star: boolean): FieldSet {
  const has = new Uint8Array(def.max + 2);
  for (const [start, end, step] of ranges) {
    for (let v = start; v <= end; v += step) has[def.name === 'dayOfWeek' && v === 7 ? 0 : v] = 1;
  }
  const values: number[] = [];
  for (let v = def.min; v <= def.max; v++) if (has[v]) values.push(v);
  return { has, values, star };
}

/**
 * Parses a field expression such as `*`, `5`, `1-5`, `*\/15`, `10/5`, `MON-FRI`, `1,15,20-25/2`.
 * `a/step` means from a to the field's maximum (Saturday for days of the week). Throws a {@link FieldProblem} pointing into `text`.
 */
export function parseField(text: string, def: FieldDef, dialect: Dialect): FieldSet {
  const ranges: Array<[number, number, number]> = [];
  let star = false;
  let offset = 0;
  for (const part of text.split(',')) {
    const slash = part.indexOf('/');
    const base = slash < 0 ? part : part.slice(0, slash);
    let start: number;
    let end: number;
    let step = 1;
    if (slash >= 0) {
      const stepText = part.slice(slash + 1);
      step = /^\d{1,4}$/.test(stepText) ? Number(stepText) : 0;
      if (step < 1) throw new FieldProblem(offset + slash + 1, 'a step of 1 or more', stepText, 'must have a step of 1 or more');
    }
    const isStar = base === '*' || (dialect === 'robfig' && base === '?');
    if (isStar) {
      [start, end] = [def.min, def.max];
      if (step <= 1) star = true;
    } else {
      const dash = base.indexOf('-');
      const first = dash < 0 ? base : base.slice(0, dash);
      const a = readValue(first, def, dialect);
      if (a === undefined) throw badValue(offset, def, dialect, first);
      start = a;
      end = slash >= 0 ? def.max : a;
      if (dash >= 0) {
        const secondText = base.slice(dash + 1);
        const b = readValue(secondText, def, dialect);
        if (b === undefined) throw badValue(offset + dash + 1, def, dialect, secondText);
        if (b < a) {
          throw new FieldProblem(offset + dash + 1, `the end of a range no earlier than its start (${a})`, secondText,
            `must have ranges that end no earlier than they start (${base})`);
        }
        end = b;
      }
    }
    ranges.push([start, end, step]);
    offset += part.length + 1;
  }
  return fieldSetOf(def, ranges, star);
}
