import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileScheduleSpec, type ScheduleSpec } from '../../src/schedule/index.ts';
import { chain } from './helpers.ts';

/**
 * Schedule specs (Temporal's semantics). Expected times worked out by hand: 2024-01-01 was a
 * Monday, the Unix epoch a Thursday, 2024-01-01T00:00:00Z is 1,704,067,200 s (a multiple of
 * 2,700 s = 45 min); the DST dates are those of cron.test.ts.
 */
/** `end`: the list is complete, nothing comes after it. */
const TABLE: Array<{ name: string; spec: ScheduleSpec; from: string; next: string[]; end?: true }> = [
  { name: 'the seed\'s calendar example, to its last time', from: '2022-01-01T00:00:00Z',
    spec: { calendars: [{ year: '2022', month: 'Jan,Apr,Jul,Oct', dayOfMonth: '1,15', hour: '11-14' }] },
    next: ['2022-01-01T11:00:00Z', '2022-01-01T12:00:00Z', '2022-01-01T13:00:00Z', '2022-01-01T14:00:00Z', '2022-01-15T11:00:00Z'] },
  { name: 'the seed\'s example ends with 2022', from: '2022-10-15T13:30:00Z',
    spec: { calendars: [{ year: '2022', month: 'Jan,Apr,Jul,Oct', dayOfMonth: '1,15', hour: '11-14' }] }, next: ['2022-10-15T14:00:00Z'], end: true },
  { name: 'hour, minute and second default to 0, the rest to *', spec: { calendars: [{}] }, from: '2024-05-10T00:00:00Z',
    next: ['2024-05-11T00:00:00Z', '2024-05-12T00:00:00Z'] },
  { name: 'weekday names: any case, prefixes of two letters or more', spec: { calendars: [{ dayOfWeek: 'tu,THURS', hour: 9 }] },
    from: '2024-05-10T10:00:00Z', next: ['2024-05-14T09:00:00Z', '2024-05-16T09:00:00Z', '2024-05-21T09:00:00Z'] },
  { name: 'a range of weekday names (Friday to Monday is no range; mon-FRIDAY is)', spec: { calendars: [{ dayOfWeek: 'mon-FRIDAY', hour: 9 }] },
    from: '2024-05-10T10:00:00Z', next: ['2024-05-13T09:00:00Z', '2024-05-14T09:00:00Z'] },
  { name: 'month names of three letters or more', spec: { calendars: [{ month: 'june,DECEM', dayOfMonth: 1 }] },
    from: '2024-05-10T00:00:00Z', next: ['2024-06-01T00:00:00Z', '2024-12-01T00:00:00Z', '2025-06-01T00:00:00Z'] },
  { name: 'day of week 7 is Sunday', spec: { calendars: [{ dayOfWeek: 7 }] }, from: '2024-05-10T00:00:00Z',
    next: ['2024-05-12T00:00:00Z', '2024-05-19T00:00:00Z'] },
  { name: '*/step minutes with a fixed second', spec: { calendars: [{ hour: '*', minute: '*/20', second: '30' }] }, from: '2024-05-10T10:50:00Z',
    next: ['2024-05-10T11:00:30Z', '2024-05-10T11:20:30Z', '2024-05-10T11:40:30Z', '2024-05-10T12:00:30Z'] },
  { name: '*/10 days of the month reach the 31st', spec: { calendars: [{ dayOfMonth: '*/10' }] }, from: '2024-02-25T00:00:00Z',
    next: ['2024-03-01T00:00:00Z', '2024-03-11T00:00:00Z', '2024-03-21T00:00:00Z', '2024-03-31T00:00:00Z', '2024-04-01T00:00:00Z'] },
  { name: 'the 31st skips short months', spec: { calendars: [{ dayOfMonth: 31 }] }, from: '2024-04-01T00:00:00Z',
    next: ['2024-05-31T00:00:00Z', '2024-07-31T00:00:00Z', '2024-08-31T00:00:00Z', '2024-10-31T00:00:00Z'] },
  { name: 'Feb 29 in leap years', spec: { calendars: [{ month: 'Feb', dayOfMonth: 29, hour: 12 }] }, from: '2024-03-01T00:00:00Z',
    next: ['2028-02-29T12:00:00Z', '2032-02-29T12:00:00Z'] },
  { name: 'both day fields must match: Friday the 13th', spec: { calendars: [{ dayOfMonth: 13, dayOfWeek: 'Fri' }] }, from: '2024-09-01T00:00:00Z',
    next: ['2024-09-13T00:00:00Z', '2024-12-13T00:00:00Z', '2025-06-13T00:00:00Z'] },
  { name: 'a cron string in a schedule has no DOM/DOW OR either', spec: { cronExpressions: ['0 0 13 * 5'] }, from: '2024-09-01T00:00:00Z',
    next: ['2024-09-13T00:00:00Z', '2024-12-13T00:00:00Z'] },
  { name: 'structured ranges as the TypeScript SDK writes them', from: '2024-05-10T10:00:00Z',
    spec: { calendars: [{ dayOfWeek: { start: 'MONDAY', end: 'WEDNESDAY' }, hour: [{ start: 8, end: 12, step: 4 }, 17] }] },
    next: ['2024-05-13T08:00:00Z', '2024-05-13T12:00:00Z', '2024-05-13T17:00:00Z', '2024-05-14T08:00:00Z'] },
  { name: '6-field cron: the last field is the year', spec: { cronExpressions: ['0 12 1 1 * 2030'] }, from: '2024-05-10T00:00:00Z',
    next: ['2030-01-01T12:00:00Z'], end: true },
  { name: '7-field cron: seconds first, year last', spec: { cronExpressions: ['*/15 30 9 * * Mon-Fri *'] }, from: '2024-05-10T09:29:00Z',
    next: ['2024-05-10T09:30:00Z', '2024-05-10T09:30:15Z', '2024-05-10T09:30:30Z', '2024-05-10T09:30:45Z', '2024-05-13T09:30:00Z'] },
  { name: '7-field cron with a list of years', spec: { cronExpressions: ['0 0 0 29 2 * 2028,2032'] }, from: '2024-05-10T00:00:00Z',
    next: ['2028-02-29T00:00:00Z', '2032-02-29T00:00:00Z'], end: true },
  { name: 'a predefined name and a comment', spec: { cronExpressions: ['@weekly # Sunday reports'] }, from: '2024-05-10T00:00:00Z',
    next: ['2024-05-12T00:00:00Z'] },
  { name: 'an interval with a phase: every 6h, 5h in', spec: { intervals: [{ every: '6h', offset: '5h' }] }, from: '2024-01-01T00:00:00Z',
    next: ['2024-01-01T05:00:00Z', '2024-01-01T11:00:00Z', '2024-01-01T17:00:00Z', '2024-01-01T23:00:00Z'] },
  { name: 'the same interval as tctl writes it', spec: { cronExpressions: ['@every 6h/5h'] }, from: '2024-01-01T00:00:00Z',
    next: ['2024-01-01T05:00:00Z', '2024-01-01T11:00:00Z'] },
  { name: 'every 45m is aligned to the epoch', spec: { intervals: [{ every: '45m' }] }, from: '2024-01-01T00:00:00Z',
    next: ['2024-01-01T00:45:00Z', '2024-01-01T01:30:00Z', '2024-01-01T02:15:00Z'] },
  { name: 'every 7d falls on Thursdays (the epoch\'s weekday)', spec: { intervals: [{ every: '7d' }] }, from: '2024-05-10T00:00:00Z',
    next: ['2024-05-16T00:00:00Z', '2024-05-23T00:00:00Z'] },
  { name: 'every 7d with a 4d phase falls on Mondays', spec: { intervals: [{ every: '7d', offset: '4d' }] }, from: '2024-05-10T00:00:00Z',
    next: ['2024-05-13T00:00:00Z'] },
  { name: 'intervals ignore the time zone', spec: { intervals: [{ every: '1h' }], timezone: 'Asia/Kolkata' }, from: '2024-05-10T00:10:00Z',
    next: ['2024-05-10T01:00:00Z'] },
  { name: 'several specs at once: the earliest wins, each time once', from: '2024-05-10T11:00:00Z',
    spec: { intervals: [{ every: '1h', offset: '30m' }], calendars: [{ hour: 12, minute: 15 }], cronExpressions: ['0 12 * * *', '30 12 * * *'] },
    next: ['2024-05-10T11:30:00Z', '2024-05-10T12:00:00Z', '2024-05-10T12:15:00Z', '2024-05-10T12:30:00Z', '2024-05-10T13:30:00Z'] },
  { name: 'exclusions: each Monday at noon except Christmas (2023-12-25 is a Monday)', from: '2023-12-20T00:00:00Z',
    spec: { calendars: [{ dayOfWeek: 'Mon', hour: 12 }], skip: [{ month: 'Dec', dayOfMonth: 25, hour: '*', minute: '*', second: '*' }] },
    next: ['2024-01-01T12:00:00Z', '2024-01-08T12:00:00Z'] },
  { name: 'an exclusion matches to the second: Dec 25 at 00:00:00 does not exclude noon', from: '2023-12-20T00:00:00Z',
    spec: { calendars: [{ dayOfWeek: 'Mon', hour: 12 }], skip: [{ month: 'Dec', dayOfMonth: 25 }] }, next: ['2023-12-25T12:00:00Z'] },
  { name: 'exclusions: every minute but weekends (2,880 excluded minutes in a row)', from: '2024-05-10T23:58:00Z',
    spec: { calendars: [{ hour: '*', minute: '*' }], skip: [{ dayOfWeek: 'Sat,Sun', hour: '*', minute: '*', second: '*' }] },
    next: ['2024-05-10T23:59:00Z', '2024-05-13T00:00:00Z', '2024-05-13T00:01:00Z'] },
  { name: 'exclusions: every second but all of June (2,592,000 excluded seconds in a row)', from: '2024-05-31T23:59:58Z',
    spec: { calendars: [{ hour: '*', minute: '*', second: '*' }], skip: [{ month: 'Jun', hour: '*', minute: '*', second: '*' }] },
    next: ['2024-05-31T23:59:59Z', '2024-07-01T00:00:00Z', '2024-07-01T00:00:01Z'] },
  { name: 'exclusions covering whole hours across a DST change: every 10 minutes but 01:00-02:59 New York time, 2024-11-03', from: '2024-11-03T04:45:00Z',
    spec: { calendars: [{ hour: '*', minute: '*/10' }], skip: [{ hour: '1-2', minute: '*', second: '*' }], timezone: 'America/New_York' },
    next: ['2024-11-03T04:50:00Z', '2024-11-03T08:00:00Z', '2024-11-03T08:10:00Z'] },
  { name: 'an excluded day with a DST jump in it ends at local midnight: Sundays off, New York, 2024-03-10 (23 hours long)', from: '2024-03-10T04:45:00Z',
    spec: { calendars: [{ hour: '*', minute: '*/10' }], skip: [{ dayOfWeek: 'Sun', hour: '*', minute: '*', second: '*' }], timezone: 'America/New_York' },
    next: ['2024-03-10T04:50:00Z', '2024-03-11T04:00:00Z', '2024-03-11T04:10:00Z'] },
  { name: 'startAt and endAt are inclusive', from: '2024-05-10T00:00:00Z',
    spec: { intervals: [{ every: '1h' }], startAt: '2024-05-10T03:00:00Z', endAt: new Date('2024-05-10T05:00:00Z') },
    next: ['2024-05-10T03:00:00Z', '2024-05-10T04:00:00Z', '2024-05-10T05:00:00Z'], end: true },
  { name: 'a startAt between two times', from: '2024-05-10T00:00:00Z',
    spec: { intervals: [{ every: '1h' }], startAt: Date.parse('2024-05-10T03:00:00.500Z') }, next: ['2024-05-10T04:00:00Z'] },
  { name: 'time zone: 02:30 New York is skipped in spring', spec: { calendars: [{ hour: 2, minute: 30 }], timezone: 'America/New_York' },
    from: '2024-03-08T12:00:00Z', next: ['2024-03-09T07:30:00Z', '2024-03-11T06:30:00Z'] },
  { name: 'time zone: 01:30 New York runs twice in fall', spec: { calendars: [{ hour: 1, minute: 30 }], timezone: 'America/New_York' },
    from: '2024-11-02T12:00:00Z', next: ['2024-11-03T05:30:00Z', '2024-11-03T06:30:00Z', '2024-11-04T06:30:00Z'] },
  { name: 'time zone: an exclusion in local time drops both 01:30s', from: '2024-11-02T12:00:00Z',
    spec: { calendars: [{ hour: 1, minute: 30 }], timezone: 'America/New_York', skip: [{ month: 11, dayOfMonth: 3, hour: 1, minute: 30 }] },
    next: ['2024-11-04T06:30:00Z'] },
  { name: 'time zone from CRON_TZ: Santiago\'s missing midnight', spec: { cronExpressions: ['CRON_TZ=America/Santiago 0 0 * * *'] },
    from: '2024-09-06T12:00:00Z', next: ['2024-09-07T04:00:00Z', '2024-09-09T03:00:00Z'] },
  { name: 'an empty spec never fires', spec: {}, from: '2024-05-10T00:00:00Z', next: [], end: true },
];

describe('schedule specs: next action times', () => {
  for (const row of TABLE) {
    test(row.name, () => {
      const compiled = compileScheduleSpec(row.spec);
      assert.deepEqual(chain((t) => compiled.nextNominal(t), row.from, row.next.length + (row.end ? 1 : 0)), row.next);
    });
  }

  test('upcoming lists the next N, and nothing past the end', () => {
    const spec = compileScheduleSpec({ calendars: [{ hour: '9-17/4' }], endAt: '2024-05-11T09:00:00Z' });
    const times = spec.upcoming(Date.parse('2024-05-10T00:00:00Z'), 10, 'any').map((a) => new Date(a.nominal).toISOString());
    assert.deepEqual(times, ['2024-05-10T09:00:00.000Z', '2024-05-10T13:00:00.000Z', '2024-05-10T17:00:00.000Z', '2024-05-11T09:00:00.000Z']);
  });
});

describe('schedule specs: jitter', () => {
  const from = Date.parse('2024-05-10T00:00:00Z');

  test('each action is delayed by less than the jitter, by a spread of amounts', () => {
    const spec = compileScheduleSpec({ intervals: [{ every: '1h' }], jitter: '10m' });
    const delays = spec.upcoming(from, 500, 'sched-a').map((a) => a.actual - a.nominal);
    for (const d of delays) assert.ok(Number.isInteger(d) && d >= 0 && d < 600_000, `jitter ${d}`);
    assert.ok(Math.min(...delays) < 60_000 && Math.max(...delays) > 540_000, 'jitter spreads over its range');
  });

  test('jitter is bounded by the time to the next action', () => {
    const spec = compileScheduleSpec({ calendars: [{ hour: '*', minute: '*/5' }], jitter: '1h' });
    const actions = spec.upcoming(from, 300, 'sched-b');
    for (let i = 0; i < actions.length; i++) {
      const a = actions[i]!;
      assert.ok(a.actual - a.nominal < 300_000, `jitter ${a.actual - a.nominal} under 5m`);
      if (i + 1 < actions.length) assert.ok(a.actual < actions[i + 1]!.nominal);
    }
  });

  test('jitter is the same for the same schedule id and nominal time on every server, and differs between schedules', () => {
    const one = compileScheduleSpec({ intervals: [{ every: '1h' }], jitter: '30m' });
    const two = compileScheduleSpec({ cronExpressions: ['0 * * * *'], jitter: '30m' });
    const a = one.upcoming(from, 20, 'orders').map((x) => x.actual);
    assert.deepEqual(two.upcoming(from, 20, 'orders').map((x) => x.actual), a);
    assert.notDeepEqual(one.upcoming(from, 20, 'invoices').map((x) => x.actual), a);
    assert.equal(one.nextAction(from + 3_600_000 - 1, 'orders')!.actual, a[0]);
  });

  test('jitter values are pinned: servers of two versions must agree on them, so a change to the PRNG or its key fails here', () => {
    const spec = compileScheduleSpec({ intervals: [{ every: '1h' }], jitter: '30m' });
    assert.deepEqual(spec.upcoming(from, 3, 'orders').map((a) => a.actual - a.nominal), [1_593_035, 111_772, 177_849]);
  });

  test('no jitter: actual is nominal', () => {
    const spec = compileScheduleSpec({ intervals: [{ every: '1h' }] });
    for (const a of spec.upcoming(from, 5, 'x')) assert.equal(a.actual, a.nominal);
  });
});
