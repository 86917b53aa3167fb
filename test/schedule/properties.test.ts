import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileScheduleSpec, parseCronSchedule, type CronSchedule } from '../../src/schedule/index.ts';

/**
 * Properties of next-fire computation, checked against a matcher written here from the field
 * sets the generator chose and local times read from Intl directly.
 */

const ZONES = ['UTC', 'America/New_York', 'America/Santiago', 'Europe/London', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham'];
/** Instants near daylight-saving changes (New York, Santiago, London, Lord Howe's half-hour shift), and plain ones. */
const BASES = ['2024-03-10T06:00:00Z', '2024-11-03T05:00:00Z', '2024-09-08T03:00:00Z', '2025-04-06T02:00:00Z',
  '2024-03-31T00:30:00Z', '2024-10-27T00:30:00Z', '2024-04-06T14:30:00Z', '2024-10-05T15:30:00Z', '2001-06-15T12:00:00Z', '2087-12-31T23:00:00Z']
  .map((s) => Date.parse(s));

const formats = new Map<string, Intl.DateTimeFormat>();
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
function local(zone: string, t: number): Record<string, number> {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short' });
    formats.set(zone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(t)) out[p.type] = p.type === 'weekday' ? DAYS.indexOf(p.value) : Number(p.value);
  return out;
}

/** A field expression with the set of values it means and whether it has robfig's star. */
interface Field { text: string; set: Set<number>; star: boolean }

function field(min: number, max: number): fc.Arbitrary<Field> {
  const part = fc.oneof(
    fc.constant({ text: '*', values: range(min, max, 1), star: true }),
    fc.integer({ min: 2, max: Math.max(2, max - min) }).map((s) => ({ text: `*/${s}`, values: range(min, max, s), star: false })),
    fc.integer({ min, max }).map((v) => ({ text: String(v), values: [v], star: false })),
    fc.tuple(fc.integer({ min, max }), fc.integer({ min, max }), fc.integer({ min: 1, max: 5 })).map(([a, b, s]) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      return { text: s === 1 ? `${lo}-${hi}` : `${lo}-${hi}/${s}`, values: range(lo, hi, s), star: false };
    }),
  );
  return fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => ({
    text: parts.map((p) => p.text).join(','), set: new Set(parts.flatMap((p) => p.values)), star: parts.some((p) => p.star),
  }));
}
function range(a: number, b: number, step: number): number[] {
  const out: number[] = [];
  for (let v = a; v <= b; v += step) out.push(v);
  return out;
}

const cronSpec = fc.record({
  minute: field(0, 59), hour: field(0, 23), dayOfMonth: field(1, 31), month: field(1, 12), dayOfWeek: field(0, 6),
  zone: fc.constantFrom(...ZONES),
});
const instant = fc.tuple(fc.constantFrom(...BASES), fc.integer({ min: -2 * 86_400_000, max: 2 * 86_400_000 })).map(([b, d]) => b + d);

interface CronCase { minute: Field; hour: Field; dayOfMonth: Field; month: Field; dayOfWeek: Field; zone: string }
function cronMatches(c: CronCase, t: number): boolean {
  const l = local(c.zone, t);
  const dom = c.dayOfMonth.set.has(l.day!);
  const dow = c.dayOfWeek.set.has(l.weekday!);
  const day = c.dayOfMonth.star || c.dayOfWeek.star ? dom && dow : dom || dow;
  return l.second === 0 && c.minute.set.has(l.minute!) && c.hour.set.has(l.hour!) && c.month.set.has(l.month!) && day;
}
function cronText(c: CronCase): string {
  return `CRON_TZ=${c.zone} ${c.minute.text} ${c.hour.text} ${c.dayOfMonth.text} ${c.month.text} ${c.dayOfWeek.text}`;
}

const MONTH_MAX = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Whether some month of the spec has one of its days of the month (February: 29). */
function dayExists(c: { dayOfMonth: Field; month: Field }): boolean {
  return [...c.month.set].some((m) => [...c.dayOfMonth.set].some((d) => d <= MONTH_MAX[m]!));
}
/** Parses the case's cron spec; a spec no day can match (both day fields ANDed) must be refused. */
function parseCase(c: CronCase): CronSchedule | undefined {
  if ((c.dayOfMonth.star || c.dayOfWeek.star) && !dayExists(c)) {
    assert.throws(() => parseCronSchedule(cronText(c)), /a day of the month that some month of the spec has/);
    return undefined;
  }
  return parseCronSchedule(cronText(c));
}

describe('cron schedule properties', () => {
  test('next(t) is after t, on a whole minute, and matches the spec in its zone', () => {
    fc.assert(fc.property(cronSpec, instant, (c, t) => {
      const n = parseCase(c)?.next(t);
      if (n === null || n === undefined) return;
      assert.ok(n > t, `${new Date(n).toISOString()} after ${new Date(t).toISOString()}`);
      assert.equal(n % 60_000, 0);
      assert.ok(cronMatches(c, n), `${new Date(n).toISOString()} matches ${cronText(c)}`);
    }), { numRuns: 400 });
  });

  test('no matching minute lies between t and next(t) (scanned minute by minute when under two days)', () => {
    fc.assert(fc.property(cronSpec, instant, (c, t) => {
      const cron = parseCase(c);
      if (!cron) return;
      const n = cron.next(t);
      const end = n ?? t + 2 * 86_400_000;
      if (end - t > 2 * 86_400_000) return;
      for (let m = Math.floor(t / 60_000) * 60_000 + 60_000; m < end; m += 60_000) {
        assert.ok(!cronMatches(c, m), `${new Date(m).toISOString()} matches ${cronText(c)} but next(${new Date(t).toISOString()}) = ${n && new Date(n).toISOString()}`);
      }
    }), { numRuns: 150 });
  });

  test('next is monotone', () => {
    fc.assert(fc.property(cronSpec, instant, fc.integer({ min: 0, max: 86_400_000 }), (c, t, d) => {
      const cron = parseCase(c);
      if (!cron) return;
      const a = cron.next(t);
      const b = cron.next(t + d);
      if (a !== null && b !== null) assert.ok(a <= b);
      if (a === null) assert.equal(b, null);
    }), { numRuns: 300 });
  });
});

const calendarCase = fc.record({
  second: fc.constantFrom({ text: '0', set: new Set([0]), star: false }, { text: '0,30', set: new Set([0, 30]), star: false }),
  minute: field(0, 59), hour: field(0, 23), dayOfMonth: field(1, 31), month: field(1, 12), dayOfWeek: field(0, 6),
  zone: fc.constantFrom(...ZONES), jitter: fc.integer({ min: 0, max: 3_600_000 }),
});

describe('schedule spec properties', () => {
  test('action times increase, match every field of the calendar (AND), and jitter stays before the next nominal time', () => {
    fc.assert(fc.property(calendarCase, instant, (c, t) => {
      if (!dayExists(c)) return;
      const spec = compileScheduleSpec({
        calendars: [{ second: c.second.text, minute: c.minute.text, hour: c.hour.text, dayOfMonth: c.dayOfMonth.text, month: c.month.text, dayOfWeek: c.dayOfWeek.text }],
        timezone: c.zone, jitter: c.jitter,
      });
      const actions = spec.upcoming(t, 5, 'prop');
      let last = t;
      for (const [i, a] of actions.entries()) {
        assert.ok(a.nominal > last);
        last = a.nominal;
        const l = local(c.zone, a.nominal);
        assert.ok(c.second.set.has(l.second!) && c.minute.set.has(l.minute!) && c.hour.set.has(l.hour!) && c.month.set.has(l.month!) &&
          c.dayOfMonth.set.has(l.day!) && c.dayOfWeek.set.has(l.weekday!), `${new Date(a.nominal).toISOString()} matches`);
        assert.ok(a.actual >= a.nominal && a.actual - a.nominal < Math.max(c.jitter, 1));
        const following = actions[i + 1];
        if (following) assert.ok(a.actual < following.nominal);
      }
    }), { numRuns: 300 });
  });

  test('with exclusions of whole hours or days: the next time is not excluded and no allowed minute before it is skipped', () => {
    const skipCase = fc.record({
      minute: field(0, 59), hour: field(0, 23), zone: fc.constantFrom(...ZONES),
      skipHour: field(0, 23), skipDay: field(0, 6), byDay: fc.boolean(),
    });
    fc.assert(fc.property(skipCase, instant, (c, t) => {
      const skip = c.byDay ? { dayOfWeek: c.skipDay.text, hour: '*', minute: '*', second: '*' } : { hour: c.skipHour.text, minute: '*', second: '*' };
      const spec = compileScheduleSpec({ calendars: [{ hour: c.hour.text, minute: c.minute.text }], skip: [skip], timezone: c.zone });
      const allowed = (at: number) => {
        const l = local(c.zone, at);
        const excluded = c.byDay ? c.skipDay.set.has(l.weekday!) : c.skipHour.set.has(l.hour!);
        return l.second === 0 && c.minute.set.has(l.minute!) && c.hour.set.has(l.hour!) && !excluded;
      };
      const n = spec.nextNominal(t);
      if (n !== null) assert.ok(n > t && allowed(n), `${new Date(n).toISOString()} is allowed`);
      const end = n ?? t + 2 * 86_400_000;
      if (end - t > 2 * 86_400_000) return;
      for (let m = Math.floor(t / 60_000) * 60_000 + 60_000; m < end; m += 60_000) {
        assert.ok(!allowed(m), `${new Date(m).toISOString()} is allowed but next(${new Date(t).toISOString()}) = ${n && new Date(n).toISOString()}`);
      }
    }), { numRuns: 60 });
  });

  test('the canonical form compiles to the same canonical form and the same times', () => {
    fc.assert(fc.property(calendarCase, instant, fc.integer({ min: 1, max: 86_400 }), (c, t, every) => {
      if (!dayExists(c)) return;
      const spec = compileScheduleSpec({
        calendars: [{ minute: c.minute.text, hour: c.hour.text, dayOfMonth: c.dayOfMonth.text, month: c.month.text, dayOfWeek: c.dayOfWeek.text }],
        intervals: [{ every: every * 1000, offset: Math.floor(every / 2) * 1000 }], timezone: c.zone,
      });
      const again = compileScheduleSpec(spec.canonical());
      assert.deepEqual(again.canonical(), spec.canonical());
      assert.deepEqual(again.upcoming(t, 5, 'x'), spec.upcoming(t, 5, 'x'));
    }), { numRuns: 200 });
  });
});
