import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCronSchedule } from '../../src/schedule/index.ts';
import { chain } from './helpers.ts';

/**
 * Workflow cron schedules (robfig/cron's standard parser). Every expected time was worked out by
 * hand from the calendar (2024-01-01 was a Monday) and the zones' rules: New York leaves EST
 * (UTC-5) for EDT (UTC-4) at 02:00 on 2024-03-10 and returns at 02:00 EDT on 2024-11-03; Chile
 * leaves UTC-4 for UTC-3 at 24:00 on Saturday 2024-09-07 and returns at 24:00 on Saturday 2025-04-05.
 */
/** `end`: the list is complete, nothing comes after it. */
const TABLE: Array<{ name: string; spec: string; from: string; next: string[]; end?: true }> = [
  { name: 'the seed\'s daily 8:15 UTC, strictly after a fire time', spec: '15 8 * * *', from: '2024-05-10T08:15:00Z',
    next: ['2024-05-11T08:15:00Z', '2024-05-12T08:15:00Z'] },
  { name: '*/15 minutes', spec: '*/15 * * * *', from: '2024-05-10T10:07:30Z',
    next: ['2024-05-10T10:15:00Z', '2024-05-10T10:30:00Z', '2024-05-10T10:45:00Z', '2024-05-10T11:00:00Z'] },
  { name: 'N/step runs from N to the maximum', spec: '5/20 * * * *', from: '2024-05-10T10:50:00Z',
    next: ['2024-05-10T11:05:00Z', '2024-05-10T11:25:00Z', '2024-05-10T11:45:00Z', '2024-05-10T12:05:00Z'] },
  { name: 'a stepped range of hours', spec: '0 9-17/4 * * *', from: '2024-05-10T10:00:00Z',
    next: ['2024-05-10T13:00:00Z', '2024-05-10T17:00:00Z', '2024-05-11T09:00:00Z'] },
  { name: 'the 31st skips the months without one', spec: '0 0 31 * *', from: '2024-01-31T00:00:00Z',
    next: ['2024-03-31T00:00:00Z', '2024-05-31T00:00:00Z', '2024-07-31T00:00:00Z', '2024-08-31T00:00:00Z', '2024-10-31T00:00:00Z', '2024-12-31T00:00:00Z'] },
  { name: 'Feb 29 fires in leap years only', spec: '0 12 29 2 *', from: '2023-06-01T00:00:00Z',
    next: ['2024-02-29T12:00:00Z', '2028-02-29T12:00:00Z', '2032-02-29T12:00:00Z'] },
  { name: 'Feb 29: 2100 is no leap year and 2104 is past the horizon', spec: '0 12 29 2 *', from: '2096-03-01T00:00:00Z', next: [], end: true },
  { name: 'month and weekday names, any case', spec: '0 6 * JAN,jul MON-fri', from: '2024-06-28T00:00:00Z',
    next: ['2024-07-01T06:00:00Z', '2024-07-02T06:00:00Z', '2024-07-03T06:00:00Z', '2024-07-04T06:00:00Z', '2024-07-05T06:00:00Z', '2024-07-08T06:00:00Z'] },
  { name: 'a range of month names', spec: '0 0 1 FEB-APR *', from: '2024-01-15T00:00:00Z',
    next: ['2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z', '2024-04-01T00:00:00Z', '2025-02-01T00:00:00Z'] },
  { name: 'DOM/DOW OR: Fridays or the 13th', spec: '0 0 13 * 5', from: '2024-09-26T00:00:00Z',
    next: ['2024-09-27T00:00:00Z', '2024-10-04T00:00:00Z', '2024-10-11T00:00:00Z', '2024-10-13T00:00:00Z', '2024-10-18T00:00:00Z'] },
  { name: 'DOM/DOW OR: a stepped day of month is restricted (odd days or Mondays)', spec: '0 0 */2 * 1', from: '2024-09-01T00:00:00Z',
    next: ['2024-09-02T00:00:00Z', '2024-09-03T00:00:00Z', '2024-09-05T00:00:00Z', '2024-09-07T00:00:00Z', '2024-09-09T00:00:00Z'] },
  { name: 'DOM/DOW OR: 1-31 is restricted too, so every day matches', spec: '0 0 1-31 * 1', from: '2024-09-01T00:00:00Z',
    next: ['2024-09-02T00:00:00Z', '2024-09-03T00:00:00Z', '2024-09-04T00:00:00Z'] },
  { name: 'DOM * leaves the weekday alone: Mondays only', spec: '0 0 * * 1', from: '2024-09-01T00:00:00Z',
    next: ['2024-09-02T00:00:00Z', '2024-09-09T00:00:00Z'] },
  { name: 'DOM */1 counts as * (robfig): Mondays only', spec: '0 0 */1 * 1', from: '2024-09-01T00:00:00Z',
    next: ['2024-09-02T00:00:00Z', '2024-09-09T00:00:00Z'] },
  { name: '? is * ', spec: '0 0 ? * 1', from: '2024-09-01T00:00:00Z', next: ['2024-09-02T00:00:00Z', '2024-09-09T00:00:00Z'] },
  { name: '@yearly', spec: '@yearly', from: '2024-05-10T00:00:00Z', next: ['2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z'] },
  { name: '@annually', spec: '@annually', from: '2024-05-10T00:00:00Z', next: ['2025-01-01T00:00:00Z'] },
  { name: '@monthly', spec: '@monthly', from: '2024-05-10T00:00:00Z', next: ['2024-06-01T00:00:00Z', '2024-07-01T00:00:00Z'] },
  { name: '@weekly: midnight between Saturday and Sunday', spec: '@weekly', from: '2024-05-10T00:00:00Z', next: ['2024-05-12T00:00:00Z', '2024-05-19T00:00:00Z'] },
  { name: '@daily', spec: '@daily', from: '2024-05-10T00:00:00Z', next: ['2024-05-11T00:00:00Z', '2024-05-12T00:00:00Z'] },
  { name: '@midnight', spec: '@midnight', from: '2024-05-10T23:59:59Z', next: ['2024-05-11T00:00:00Z'] },
  { name: '@hourly', spec: '@hourly', from: '2024-05-10T10:30:00Z', next: ['2024-05-10T11:00:00Z', '2024-05-10T12:00:00Z'] },
  { name: '@every counts from the whole second of the last time', spec: '@every 90s', from: '2024-05-10T10:00:00.500Z',
    next: ['2024-05-10T10:01:30Z', '2024-05-10T10:03:00Z'] },
  { name: '@every with a compound duration', spec: '@every 1h30m', from: '2024-05-10T10:00:00Z', next: ['2024-05-10T11:30:00Z', '2024-05-10T13:00:00Z'] },
  { name: 'CRON_TZ in summer (EDT)', spec: 'CRON_TZ=America/New_York 15 8 * * *', from: '2024-07-01T00:00:00Z', next: ['2024-07-01T12:15:00Z'] },
  { name: 'CRON_TZ in winter (EST)', spec: 'CRON_TZ=America/New_York 15 8 * * *', from: '2024-01-10T00:00:00Z', next: ['2024-01-10T13:15:00Z'] },
  { name: 'TZ= prefix and a half-hour zone', spec: 'TZ=Asia/Kolkata 0 9 * * *', from: '2024-05-10T00:00:00Z', next: ['2024-05-10T03:30:00Z', '2024-05-11T03:30:00Z'] },
  { name: 'CRON_TZ with a predefined name', spec: 'CRON_TZ=Asia/Tokyo @daily', from: '2024-05-10T00:00:00Z', next: ['2024-05-10T15:00:00Z'] },
];

const DST: typeof TABLE = [
  { name: 'New York spring: the seed\'s 30 2 * * * does not run on 2024-03-10 (02:30 never happens)',
    spec: 'CRON_TZ=America/New_York 30 2 * * *', from: '2024-03-08T12:00:00Z',
    next: ['2024-03-09T07:30:00Z', '2024-03-11T06:30:00Z', '2024-03-12T06:30:00Z'] },
  { name: 'New York spring: the hours around the gap', spec: 'CRON_TZ=America/New_York */30 1-3 * * *', from: '2024-03-10T05:00:00Z',
    next: ['2024-03-10T06:00:00Z', '2024-03-10T06:30:00Z', '2024-03-10T07:00:00Z', '2024-03-10T07:30:00Z', '2024-03-11T05:00:00Z'] },
  { name: 'New York fall: 30 2 * * * runs once on 2024-11-03 (the clock passes 02:30 once, in EST)',
    spec: 'CRON_TZ=America/New_York 30 2 * * *', from: '2024-11-02T00:00:00Z',
    next: ['2024-11-02T06:30:00Z', '2024-11-03T07:30:00Z', '2024-11-04T07:30:00Z'] },
  { name: 'New York fall: a time in the repeated 1 AM hour runs twice', spec: 'CRON_TZ=America/New_York 30 1 * * *', from: '2024-11-02T12:00:00Z',
    next: ['2024-11-03T05:30:00Z', '2024-11-03T06:30:00Z', '2024-11-04T06:30:00Z'] },
  { name: 'New York fall: every half hour from 1 to 3 AM, the 1 AM hour twice', spec: 'CRON_TZ=America/New_York */30 1-3 * * *', from: '2024-11-03T04:00:00Z',
    next: ['2024-11-03T05:00:00Z', '2024-11-03T05:30:00Z', '2024-11-03T06:00:00Z', '2024-11-03T06:30:00Z', '2024-11-03T07:00:00Z', '2024-11-03T07:30:00Z', '2024-11-03T08:00:00Z', '2024-11-03T08:30:00Z', '2024-11-04T06:00:00Z'] },
  { name: 'Santiago spring: midnight does not exist on 2024-09-08, so @daily skips that day', spec: 'CRON_TZ=America/Santiago @daily', from: '2024-09-06T12:00:00Z',
    next: ['2024-09-07T04:00:00Z', '2024-09-09T03:00:00Z', '2024-09-10T03:00:00Z'] },
  { name: 'Santiago spring: 00:30 is skipped too, 01:00 is the first minute of the day', spec: 'CRON_TZ=America/Santiago 0,30 0-1 * * *', from: '2024-09-07T12:00:00Z',
    next: ['2024-09-08T04:00:00Z', '2024-09-08T04:30:00Z', '2024-09-09T03:00:00Z'] },
  { name: 'Santiago fall: 23:30 on 2025-04-05 happens twice', spec: 'CRON_TZ=America/Santiago 30 23 * * *', from: '2025-04-05T12:00:00Z',
    next: ['2025-04-06T02:30:00Z', '2025-04-06T03:30:00Z', '2025-04-07T03:30:00Z'] },
];

describe('cron schedules: next fire times', () => {
  for (const row of [...TABLE, ...DST]) {
    test(`${row.name}: ${row.spec}`, () => {
      const cron = parseCronSchedule(row.spec);
      assert.deepEqual(chain((t) => cron.next(t), row.from, row.next.length + (row.end ? 1 : 0)), row.next);
    });
  }

  test('the zone is UTC unless the spec names one', () => {
    assert.equal(parseCronSchedule('0 0 * * *').timeZone, 'UTC');
    assert.equal(parseCronSchedule('CRON_TZ=America/New_York 0 0 * * *').timeZone, 'America/New_York');
    assert.equal(parseCronSchedule('@every 5m').everyMs, 300_000);
  });

  test('the next run of a cron job: the next fire time after the run\'s scheduled start, or at once if it passed while the run was open', () => {
    const at = (iso: string) => Date.parse(iso);
    const hourly = parseCronSchedule('0 * * * *');
    const rows: Array<[string, string, string]> = [
      ['2024-05-10T10:00:00Z', '2024-05-10T10:20:00Z', '2024-05-10T11:00:00Z'],
      ['2024-05-10T10:00:00Z', '2024-05-10T12:00:00Z', '2024-05-10T12:00:00Z'],
      ['2024-05-10T10:00:00Z', '2024-05-10T12:00:00.500Z', '2024-05-10T12:00:00.500Z'],
      ['2024-05-10T10:00:00Z', '2024-05-10T11:00:00Z', '2024-05-10T11:00:00Z'],
      ['2024-05-10T10:00:00Z', '2024-05-10T09:59:00Z', '2024-05-10T11:00:00Z'],
    ];
    for (const [start, now, next] of rows) assert.equal(hourly.nextRunAfter(at(start), at(now)), at(next), `${start} ${now}`);
    const every = parseCronSchedule('@every 1h');
    const everyRows: Array<[string, string, string]> = [
      ['2024-05-10T10:00:00.700Z', '2024-05-10T12:30:00Z', '2024-05-10T12:30:00Z'],
      ['2024-05-10T10:00:00.700Z', '2024-05-10T10:10:00Z', '2024-05-10T11:00:00Z'],
      ['2024-05-10T10:00:00Z', '2024-05-10T12:00:00Z', '2024-05-10T12:00:00Z'],
      ['2024-05-10T10:00:00Z', '2024-05-10T09:00:00Z', '2024-05-10T11:00:00Z'],
    ];
    for (const [start, now, next] of everyRows) assert.equal(every.nextRunAfter(at(start), at(now)), at(next), `@every ${start} ${now}`);
  });

  test('times far outside 1970-2100 answer at once: the first time of 1970, or none', () => {
    const daily = parseCronSchedule('CRON_TZ=America/New_York 0 0 * * *');
    assert.equal(daily.next(-1e15), Date.parse('1970-01-01T05:00:00Z'));
    assert.equal(daily.next(1e15), null);
    assert.equal(daily.next(Date.parse('2100-12-31T05:00:00Z')), null);
    assert.equal(daily.next(Date.parse('2100-12-30T05:00:00Z')), Date.parse('2100-12-31T05:00:00Z'));
  });

  test('@every is relative to the time given, not to the epoch', () => {
    const cron = parseCronSchedule('@every 7m');
    assert.equal(cron.next(Date.parse('2024-05-10T10:00:01Z')), Date.parse('2024-05-10T10:07:01Z'));
  });
});
