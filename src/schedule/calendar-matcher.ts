import { daysInMonth, weekday, type WallFields } from './civil.ts';
import { MAX_YEAR, MIN_YEAR, type CalendarFieldName, type FieldSet } from './field.ts';
import type { TimeZone } from './time-zone.ts';

/** The seven field sets of one calendar. */
export type CalendarFields = Record<CalendarFieldName, FieldSet>;

/**
 * How the two day fields combine. `all`: both must match (Temporal's calendar specs). `cron`:
 * robfig/cron's rule, either one is enough when both are restricted (neither has a `*`).
 */
type DayRule = 'all' | 'cron';

/**
 * True when some month of the calendar has one of its days of the month (February counted with
 * 29 days). When false, and both day fields must match, the calendar never fires.
 */
export function dayExists(fields: CalendarFields): boolean {
  return fields.month.values.some((m) => fields.dayOfMonth.values.some((d) => d <= daysInMonth(2000, m)));
}

const SEARCH_START = Date.UTC(MIN_YEAR - 1, 11, 30);
const SEARCH_END = Date.UTC(MAX_YEAR + 1, 0, 2);

/** For each value v from `min`, the smallest matching value >= v, or -1 (below `min`: -1 too). */
function nextTable(set: FieldSet, min: number, max: number): Int16Array {
  const table = new Int16Array(max + 2).fill(-1);
  let next = -1;
  for (let v = max; v >= min; v--) {
    if (set.has[v]) next = v;
    table[v] = next;
  }
  return table;
}

/**
 * A compiled calendar: answers "does this wall-clock time match" and "what is the first
 * matching wall-clock time at or after this one", to the second, with no allocation per step.
 */
export class CalendarMatcher {
  private readonly second: Int16Array;
  private readonly minute: Int16Array;
  private readonly hour: Int16Array;
  private readonly month: Int16Array;
  private readonly year: Int16Array;
  private readonly dom: Uint8Array;
  private readonly dow: Uint8Array;
  private readonly eitherDay: boolean;

  constructor(readonly fields: CalendarFields, rule: DayRule) {
    this.second = nextTable(fields.second, 0, 59);
    this.minute = nextTable(fields.minute, 0, 59);
    this.hour = nextTable(fields.hour, 0, 23);
    this.month = nextTable(fields.month, 1, 12);
    this.year = nextTable(fields.year, MIN_YEAR, MAX_YEAR);
    this.dom = fields.dayOfMonth.has;
    this.dow = fields.dayOfWeek.has;
    this.eitherDay = rule === 'cron' && !fields.dayOfMonth.star && !fields.dayOfWeek.star;
  }

  private dayMatches(year: number, month: number, day: number): boolean {
    const domOk = this.dom[day] === 1;
    if (this.eitherDay && domOk) return true;
    if (!this.eitherDay && !domOk) return false;
    return this.dow[weekday(year, month, day)] === 1;
  }

  /** True when every field matches the given wall-clock fields. */
  matches(f: WallFields): boolean {
    return this.year[f.year] === f.year && this.month[f.month] === f.month && this.hour[f.hour] === f.hour &&
      this.minute[f.minute] === f.minute && this.second[f.second] === f.second && this.dayMatches(f.year, f.month, f.day);
  }

  /**
   * The first matching wall-clock time at or after `wallMs` (milliseconds of a clock that reads
   * like UTC, rounded up to the second), or null when none comes before the end of {@link MAX_YEAR}.
   */
  nextWall(wallMs: number): number | null {
    const d = new Date(Math.ceil(wallMs / 1000) * 1000);
    let y = d.getUTCFullYear();
    let mo = d.getUTCMonth() + 1;
    let day = d.getUTCDate();
    let h = d.getUTCHours();
    let mi = d.getUTCMinutes();
    let s = d.getUTCSeconds();
    if (y < MIN_YEAR) [y, mo, day, h, mi, s] = [MIN_YEAR, 1, 1, 0, 0, 0];
    for (;;) {
      if (s > 59) { mi++; s = 0; }
      if (mi > 59) { h++; mi = 0; }
      if (h > 23) { day++; h = 0; }
      if (day > daysInMonth(y, mo)) { mo++; day = 1; }
      if (mo > 12) { y++; mo = 1; }
      if (y > MAX_YEAR) return null;
      const ny = this.year[y]!;
      if (ny !== y) {
        if (ny < 0) return null;
        [y, mo, day, h, mi, s] = [ny, 1, 1, 0, 0, 0];
        continue;
      }
      const nmo = this.month[mo]!;
      if (nmo !== mo) {
        if (nmo < 0) [y, mo] = [y + 1, 1];
        else mo = nmo;
        [day, h, mi, s] = [1, 0, 0, 0];
        continue;
      }
      if (!this.dayMatches(y, mo, day)) {
        [day, h, mi, s] = [day + 1, 0, 0, 0];
        continue;
      }
      const nh = this.hour[h]!;
      if (nh !== h) {
        if (nh < 0) [day, h] = [day + 1, 0];
        else h = nh;
        [mi, s] = [0, 0];
        continue;
      }
      const nmi = this.minute[mi]!;
      if (nmi !== mi) {
        if (nmi < 0) [h, mi] = [h + 1, 0];
        else mi = nmi;
        s = 0;
        continue;
      }
      const ns = this.second[s]!;
      if (ns < 0) {
        [mi, s] = [mi + 1, 0];
        continue;
      }
      return Date.UTC(y, mo - 1, day, h, mi, ns);
    }
  }

  /**
   * The first instant strictly after `after` (ms since the epoch) whose local time in `zone`
   * matches, or null. Every instant whose wall clock matches is a fire time: a wall time skipped
   * by a daylight-saving jump never fires, and one the clock shows twice fires twice.
   */
  nextAfter(after: number, zone: TimeZone): number | null {
    // No zone is more than a day from UTC, so nothing matches before SEARCH_START or after SEARCH_END;
    // clamping also keeps far-off arguments from making the zone compute every year in between.
    let t = Math.max(Math.floor(after / 1000) * 1000 + 1000, SEARCH_START);
    if (t > SEARCH_END) return null;
    for (;;) {
      const seg = zone.segmentAt(t);
      const wall = this.nextWall(t + seg.offset);
      if (wall === null) return null;
      const instant = wall - seg.offset;
      if (instant < seg.end) return instant;
      t = seg.end;
    }
  }
}
