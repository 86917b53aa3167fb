import { ValidationError } from '../errors/index.ts';
import { DAY_MS, type WallFields } from './civil.ts';

/**
 * An IANA time zone as a list of segments of constant UTC offset, read from Node's Intl (the
 * IANA database Node ships with). Segments are computed once per zone and UTC year and cached:
 * after that, finding the offset at an instant is a binary search, no Intl call.
 */

/** A stretch of time [start, end) in which the zone's offset is constant: local = UTC + offset. */
interface Segment {
  readonly start: number;
  readonly end: number;
  readonly offset: number;
}

const zones = new Map<string, TimeZone>();
/** Names (canonical ones and other spellings) kept in the zone cache; the IANA database has about 600. */
const MAX_CACHED_NAMES = 2_000;

/** A named time zone with cached offset segments. Get one with {@link TimeZone.get}. */
export class TimeZone {
  private readonly format: Intl.DateTimeFormat | undefined;
  private readonly years = new Map<number, Segment[]>();

  private constructor(readonly name: string) {
    this.format = name === 'UTC' ? undefined : new Intl.DateTimeFormat('en-US', {
      timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short',
    });
  }

  /**
   * The zone of an IANA name (`America/New_York`, `UTC`), case as Intl canonicalizes it.
   * @throws ValidationError naming `field` when Intl does not know the zone.
   */
  static get(name: unknown, field: string): TimeZone {
    if (typeof name !== 'string' || name.trim() === '') {
      throw new ValidationError(field, 'must be an IANA time zone name such as "America/New_York" or "UTC"', name);
    }
    const cached = zones.get(name);
    if (cached) return cached;
    let canonical: string;
    try {
      canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    } catch {
      throw new ValidationError(field, 'must be an IANA time zone name such as "America/New_York" or "UTC"', name);
    }
    if (canonical === 'Etc/UTC' || canonical === 'Etc/GMT' || canonical === 'GMT') canonical = 'UTC';
    const zone = zones.get(canonical) ?? new TimeZone(canonical);
    zones.set(canonical, zone);
    // Other spellings ("america/new_york") are remembered only up to a bound: names come from users.
    if (zones.size < MAX_CACHED_NAMES) zones.set(name, zone);
    return zone;
  }

  /** The segment holding instant `t` (ms since the epoch). */
  segmentAt(t: number): Segment {
    if (!this.format) return UTC_SEGMENT;
    const year = new Date(t).getUTCFullYear();
    let list = this.years.get(year);
    if (!list) {
      list = this.computeYear(year);
      // Years far from any schedule's range (an interval asked about year 30000) are not kept.
      if (year >= 1900 && year <= 2200) this.years.set(year, list);
    }
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (list[mid]!.start <= t) lo = mid;
      else hi = mid - 1;
    }
    return list[lo]!;
  }

  /** Local wall-clock fields at instant `t`, read from Intl. */
  private fieldsAt(t: number): WallFields {
    const second = Math.floor(t / 1000) * 1000;
    if (!this.format) {
      const d = new Date(second);
      return {
        year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(),
        minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay(),
      };
    }
    const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, weekday: 0 };
    for (const part of this.format.formatToParts(second)) {
      if (part.type === 'weekday') out.weekday = WEEKDAYS.indexOf(part.value);
      else if (part.type in out) out[part.type as keyof typeof out] = Number(part.value);
    }
    return out;
  }

  /** UTC offset at instant `t`, in ms, from Intl. */
  private offsetAt(t: number): number {
    const f = this.fieldsAt(t);
    return Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second) - Math.floor(t / 1000) * 1000;
  }

  /**
   * Segments covering one UTC year. The offset is sampled once a day and each change is found to
   * the second by bisection; a change and its reversal within one day would be missed (no zone
   * in the IANA database has one).
   */
  private computeYear(year: number): Segment[] {
    const start = Date.UTC(year, 0, 1);
    const end = Date.UTC(year + 1, 0, 1);
    const segments: Segment[] = [];
    let segStart = start;
    let offset = this.offsetAt(start);
    for (let probe = start + DAY_MS; ; probe = Math.min(probe + DAY_MS, end - 1000)) {
      let probeOffset = this.offsetAt(probe);
      while (probeOffset !== offset) {
        let lo = Math.max(segStart, probe - DAY_MS);
        let hi = probe;
        while (hi - lo > 1000) {
          const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
          if (this.offsetAt(mid) === offset) lo = mid;
          else hi = mid;
        }
        segments.push({ start: segStart, end: hi, offset });
        segStart = hi;
        offset = this.offsetAt(hi);
        probeOffset = this.offsetAt(probe);
      }
      if (probe === end - 1000) break;
    }
    segments.push({ start: segStart, end, offset });
    return segments;
  }
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const UTC_SEGMENT: Segment = { start: -Infinity, end: Infinity, offset: 0 };
