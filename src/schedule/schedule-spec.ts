import { ValidationError } from '../errors/index.ts';
import { toMs, type Duration } from '../retry/duration.ts';
import { CalendarMatcher } from './calendar-matcher.ts';
import { requireTime } from './check.ts';
import { wallFields } from './civil.ts';
import { compileCalendarSpec, type CalendarSpec, type CompiledCalendar } from './calendar-spec.ts';
import { renderCalendar, renderDuration, type CanonicalCalendar } from './canonical.ts';
import { parseCronString, type CompiledInterval } from './cron-string.ts';
import { TimeZone } from './time-zone.ts';
import { mixSeed, unitRandom } from '../retry/random.ts';
import { checkMaxDuration } from '../common/max-duration.ts';
import { checkTime } from '../common/time-range.ts';

/** Fire every `every` after the Unix epoch, shifted by `offset` (the phase): `{ every: '6h', offset: '5h' }` fires at 05:00, 11:00, 17:00, 23:00 UTC. */
export interface IntervalSpec {
  /** The period, whole seconds, at least 1s and at most 100 years. */
  readonly every: Duration;
  /** The phase, whole seconds, less than `every`. @default 0 */
  readonly offset?: Duration;
}

/** An instant: a Date, an ISO 8601 string, or milliseconds since the epoch. */
export type Instant = Date | string | number;

/**
 * When a schedule acts, in the shape of the Temporal TypeScript SDK's ScheduleSpec. The action
 * times are the union of every interval, calendar and cron expression, minus the times any
 * `skip` calendar matches, within [startAt, endAt].
 */
export interface ScheduleSpec {
  /** Fixed periods aligned to the Unix epoch. */
  readonly intervals?: readonly IntervalSpec[];
  /** Calendar-based times; every field of a calendar must match. */
  readonly calendars?: readonly CalendarSpec[];
  /** Cron strings: 5, 6 (… year) or 7 (second … year) fields, `@daily` and the like, `@every 6h/5h`, `CRON_TZ=`. */
  readonly cronExpressions?: readonly string[];
  /** Calendars of excluded times: a time is skipped when every field of one of them matches it, to the second. */
  readonly skip?: readonly CalendarSpec[];
  /** No action before this instant (inclusive bound); between 1970 and the end of 9999. */
  readonly startAt?: Instant;
  /** No action after this instant (inclusive bound); between 1970 and the end of 9999. */
  readonly endAt?: Instant;
  /** Each action is delayed by a random amount below this, and below the time to the next action; at most 100 years. @default 0 */
  readonly jitter?: Duration;
  /** IANA zone the calendars and cron expressions are read in. @default "UTC" */
  readonly timezone?: string;
}

/** A spec in canonical form, as describe shows it: same meaning, one way of writing it. */
export interface CanonicalScheduleSpec {
  readonly calendars: CanonicalCalendar[];
  readonly intervals: Array<{ every: string; offset: string }>;
  readonly skip: CanonicalCalendar[];
  readonly startAt?: string;
  readonly endAt?: string;
  readonly jitter: string;
  readonly timezone: string;
}

/** One action time: the nominal time the spec names, and the actual time with jitter added (ms since the epoch). */
export interface ActionTime {
  readonly nominal: number;
  readonly actual: number;
}

const KEYS = ['intervals', 'calendars', 'cronExpressions', 'skip', 'startAt', 'endAt', 'jitter', 'timezone'];
/**
 * Excluded candidates examined in a row before giving up on finding the next action. An
 * exclusion that covers whole minutes, hours or days is stepped over one such unit at a time.
 */
export const MAX_EXCLUDED_CANDIDATES = 100_000;
/** Stream of the seeded PRNG used for schedule jitter; retry's streams are 1-3. */
const JITTER_STREAM = 4;

/** The longest wall-clock unit an exclusion always covers whole: a day when its hour, minute and second are `*`, and so on. */
function excludedUnit(calendar: CompiledCalendar): number {
  const { second, minute, hour } = calendar.fields;
  if (second.values.length < 60) return 1000;
  if (minute.values.length < 60) return 60_000;
  if (hour.values.length < 24) return 3_600_000;
  return 86_400_000;
}

function list(spec: Record<string, unknown>, key: string, field: string): readonly unknown[] {
  const value = spec[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ValidationError(`${field}.${key}`, 'must be an array', value);
  return value;
}

function instant(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new ValidationError(field, 'must be a Date, an ISO 8601 time or milliseconds since the epoch', value);
  }
  return checkTime(field, ms, value);
}

function wholeSeconds(value: unknown, field: string, min: number): number {
  const ms = checkMaxDuration(field, toMs(value as Duration, field), value);
  if (ms % 1000 !== 0) throw new ValidationError(field, 'must be a whole number of seconds', value);
  if (ms < min) throw new ValidationError(field, `must be at least ${renderDuration(min)}`, value);
  return ms;
}

function compileInterval(value: unknown, field: string): CompiledInterval {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(field, 'must be an object { every, offset }', value);
  }
  const { every, offset, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra) throw new ValidationError(`${field}.${extra}`, 'is not an interval field (use every, offset)', rest[extra]);
  const everyMs = wholeSeconds(every, `${field}.every`, 1000);
  const offsetMs = offset === undefined ? 0 : wholeSeconds(offset, `${field}.offset`, 0);
  if (offsetMs >= everyMs) throw new ValidationError(`${field}.offset`, `must be less than every (${renderDuration(everyMs)})`, offset);
  return { everyMs, offsetMs };
}

/**
 * Validates a schedule spec and compiles it for fast next-time computation.
 * @param field the spec's name in error messages, e.g. `spec` gives `spec.calendars[0].hour must be 0-23, got 24`.
 * @throws ValidationError (CronSyntaxError for cron strings) naming the field, the rule and the value.
 */
export function compileScheduleSpec(spec: unknown, field = 'spec'): CompiledScheduleSpec {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new ValidationError(field, 'must be an object (intervals, calendars, cronExpressions, skip, startAt, endAt, jitter, timezone)', spec);
  }
  const record = spec as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!KEYS.includes(key)) throw new ValidationError(`${field}.${key}`, `is not a schedule spec field (use ${KEYS.join(', ')})`, record[key]);
  }
  const intervals = list(record, 'intervals', field).map((v, i) => compileInterval(v, `${field}.intervals[${i}]`));
  const calendars = list(record, 'calendars', field).map((v, i) => compileCalendarSpec(v, `${field}.calendars[${i}]`));
  const skip = list(record, 'skip', field).map((v, i) => compileCalendarSpec(v, `${field}.skip[${i}]`));
  let cronZone: { zone: string | undefined; field: string } | undefined;
  list(record, 'cronExpressions', field).forEach((text, i) => {
    const at = `${field}.cronExpressions[${i}]`;
    if (typeof text !== 'string' || text.trim() === '') throw new ValidationError(at, 'must be a cron string such as "0 12 * * Mon-Fri"', text);
    const compiled = parseCronString(text, at);
    const zone = compiled.zone?.name;
    if (cronZone && cronZone.zone !== zone) {
      throw new ValidationError(at, `must name the same time zone as ${cronZone.field} (${cronZone.zone ?? 'none'})`, text);
    }
    cronZone = { zone, field: at };
    if (compiled.calendar) calendars.push(compiled.calendar);
    if (compiled.interval) intervals.push(compiled.interval);
  });
  let zoneName = record.timezone === undefined || record.timezone === null ? undefined : TimeZone.get(record.timezone, `${field}.timezone`).name;
  if (cronZone?.zone) {
    if (zoneName !== undefined && zoneName !== cronZone.zone) {
      throw new ValidationError(`${field}.timezone`, `must match the CRON_TZ of ${cronZone.field} (${cronZone.zone})`, record.timezone);
    }
    zoneName = cronZone.zone;
  }
  const startAt = instant(record.startAt, `${field}.startAt`);
  const endAt = instant(record.endAt, `${field}.endAt`);
  if (startAt !== undefined && endAt !== undefined && endAt < startAt) {
    throw new ValidationError(`${field}.endAt`, `must not be before startAt (${new Date(startAt).toISOString()})`, record.endAt);
  }
  const jitterMs = record.jitter === undefined || record.jitter === null
    ? 0 : checkMaxDuration(`${field}.jitter`, toMs(record.jitter as Duration, `${field}.jitter`), record.jitter);
  return new CompiledScheduleSpec({ intervals, calendars, skip, startAt, endAt, jitterMs, zone: TimeZone.get(zoneName ?? 'UTC', `${field}.timezone`) });
}

interface SpecParts {
  readonly intervals: readonly CompiledInterval[];
  readonly calendars: readonly CompiledCalendar[];
  readonly skip: readonly CompiledCalendar[];
  readonly startAt: number | undefined;
  readonly endAt: number | undefined;
  readonly jitterMs: number;
  readonly zone: TimeZone;
}

/** A validated schedule spec: next action times, and the canonical form. Build one with {@link compileScheduleSpec}. */
export class CompiledScheduleSpec {
  private readonly matchers: CalendarMatcher[];
  private readonly excluded: Array<{ matcher: CalendarMatcher; unitMs: number }>;

  constructor(private readonly parts: SpecParts) {
    this.matchers = parts.calendars.map((c) => new CalendarMatcher(c.fields, 'all'));
    this.excluded = parts.skip.map((c) => ({ matcher: new CalendarMatcher(c.fields, 'all'), unitMs: excludedUnit(c) }));
  }

  /** The zone calendars and cron expressions are read in. */
  get timezone(): string {
    return this.parts.zone.name;
  }

  /** The spec in canonical form. */
  canonical(): CanonicalScheduleSpec {
    const p = this.parts;
    return {
      calendars: p.calendars.map(renderCalendar),
      intervals: p.intervals.map((i) => ({ every: renderDuration(i.everyMs), offset: renderDuration(i.offsetMs) })),
      skip: p.skip.map(renderCalendar),
      ...(p.startAt !== undefined ? { startAt: new Date(p.startAt).toISOString() } : {}),
      ...(p.endAt !== undefined ? { endAt: new Date(p.endAt).toISOString() } : {}),
      jitter: renderDuration(p.jitterMs),
      timezone: p.zone.name,
    };
  }

  /** The earliest time strictly after `after` that some interval, calendar or cron expression names, before exclusions and bounds. */
  private rawNext(after: number): number | null {
    let best = Infinity;
    for (const m of this.matchers) {
      const t = m.nextAfter(after, this.parts.zone);
      if (t !== null && t < best) best = t;
    }
    const afterSecond = Math.floor(after / 1000) * 1000;
    for (const { everyMs, offsetMs } of this.parts.intervals) {
      const t = (Math.floor((afterSecond - offsetMs) / everyMs) + 1) * everyMs + offsetMs;
      if (t < best) best = t;
    }
    return best === Infinity ? null : best;
  }

  /**
   * When `t` is excluded, an instant up to which every time is excluded too (at least t + 1s):
   * the end of the wall-clock second, minute, hour or day that a matching exclusion covers
   * whole, but no further than the next offset change. Otherwise undefined.
   */
  private excludedUntil(t: number): number | undefined {
    if (this.excluded.length === 0) return undefined;
    const seg = this.parts.zone.segmentAt(t);
    const wall = t + seg.offset;
    const fields = wallFields(wall);
    let until: number | undefined;
    for (const { matcher, unitMs } of this.excluded) {
      if (!matcher.matches(fields)) continue;
      const end = Math.min(t + (Math.floor(wall / unitMs) + 1) * unitMs - wall, seg.end);
      until = Math.max(until ?? 0, end, t + 1000);
    }
    return until;
  }

  /**
   * The first nominal action time strictly after `after` (ms since the epoch): not excluded, not
   * before startAt nor after endAt. Null when there is none (or when more than
   * {@link MAX_EXCLUDED_CANDIDATES} candidates in a row are excluded).
   */
  nextNominal(after: number): number | null {
    requireTime(after, 'after');
    const { startAt, endAt } = this.parts;
    let from = startAt !== undefined && after < startAt ? startAt - 1 : after;
    for (let i = 0; i < MAX_EXCLUDED_CANDIDATES; i++) {
      const t = this.rawNext(from);
      if (t === null || (endAt !== undefined && t > endAt)) return null;
      const until = this.excludedUntil(t);
      if (until === undefined) return t;
      from = until - 1;
    }
    return null;
  }

  /**
   * The next action after `after`: its nominal time and its actual time, the nominal time plus a
   * jitter drawn from the seeded PRNG keyed by (scheduleId, nominal time), so every server
   * computes the same one. The jitter is below the spec's jitter and below the time to the
   * following nominal time.
   */
  nextAction(after: number, scheduleId: string): ActionTime | null {
    if (typeof scheduleId !== 'string') throw new ValidationError('scheduleId', 'must be a string', scheduleId);
    const nominal = this.nextNominal(after);
    if (nominal === null) return null;
    return { nominal, actual: nominal + this.jitterAt(nominal, scheduleId) };
  }

  /** The jitter of the action at `nominal`, in ms: uniform in [0, min(jitter, next nominal - nominal)). */
  jitterAt(nominal: number, scheduleId: string): number {
    if (this.parts.jitterMs <= 0) return 0;
    const following = this.nextNominal(nominal);
    const bound = following === null ? this.parts.jitterMs : Math.min(this.parts.jitterMs, following - nominal);
    return Math.floor(unitRandom(mixSeed(nominal, scheduleId), 0, JITTER_STREAM) * bound);
  }

  /** The next `count` actions after `after` (describe shows 10). */
  upcoming(after: number, count: number, scheduleId: string): ActionTime[] {
    if (!Number.isInteger(count) || count < 0) throw new ValidationError('count', 'must be an integer >= 0', count);
    const out: ActionTime[] = [];
    let from = after;
    while (out.length < count) {
      const next = this.nextAction(from, scheduleId);
      if (!next) break;
      out.push(next);
      from = next.nominal;
    }
    return out;
  }
}
