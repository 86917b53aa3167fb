import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/errors/index.ts';
import { compileScheduleSpec, CronSyntaxError, parseCronSchedule } from '../../src/schedule/index.ts';

/** [spec, column, expected] — the column counts from 1 and points at the first character that could not be read. */
const CRON_ERRORS: Array<[string, number, string]> = [
  ['0 25 * * *', 3, 'an hour 0-23'],
  ['61 * * * *', 1, 'a minute 0-59'],
  ['* * * *', 8, 'the day-of-week field'],
  ['* * * * * *', 11, 'the end of the spec (5 fields: minute hour day-of-month month day-of-week)'],
  ['*/0 * * * *', 3, 'a step of 1 or more'],
  ['5-1 * * * *', 3, 'the end of a range no earlier than its start (5)'],
  ['0 0 * * 7', 9, 'a day of the week 0-6 or a name (Sun-Sat)'],
  ['0 0 * FOO *', 7, 'a month 1-12 or a name (Jan-Dec)'],
  ['0 0 * * Mo', 9, 'a day of the week 0-6 or a name (Sun-Sat)'],
  ['0 0 1,,2 * *', 7, 'a day of the month 1-31, a range or *'],
  ['0 0 0 * *', 5, 'a day of the month 1-31'],
  ['0 0 30 2 *', 5, 'a day of the month that some month of the spec has'],
  ['0 0 31 APR,JUN,SEP,NOV *', 5, 'a day of the month that some month of the spec has'],
  ['@daly', 1, '@every <duration> or one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly'],
  ['@daily 5', 8, 'the end of the spec'],
  ['@every', 7, 'a duration in Go\'s grammar such as 90s, 1h30m or 500ms (under 1s counts as 1s, fractions of a second are dropped)'],
  ['@every soon', 8, 'a duration in Go\'s grammar such as 90s, 1h30m or 500ms (under 1s counts as 1s, fractions of a second are dropped)'],
  ['CRON_TZ=Nowhere/City 0 0 * * *', 9, 'an IANA time zone name such as America/New_York'],
  ['CRON_TZ=UTC', 12, 'a schedule after the time zone'],
];

describe('cron schedules: bad specs name the column and what was expected', () => {
  for (const [spec, column, expected] of CRON_ERRORS) {
    test(JSON.stringify(spec), () => {
      assert.throws(() => parseCronSchedule(spec), (err: unknown) => {
        assert.ok(err instanceof CronSyntaxError && err instanceof ValidationError);
        assert.equal(err.field, 'cronSchedule');
        assert.equal(err.spec, spec);
        assert.equal(err.column, column);
        assert.equal(err.expected, expected);
        assert.match(err.message, new RegExp(`^cronSchedule ".*" is not a valid cron spec: at column ${column} expected `));
        return true;
      });
    });
  }

  test('the message quotes what was found', () => {
    assert.throws(() => parseCronSchedule('0 25 * * *'),
      { message: 'cronSchedule "0 25 * * *" is not a valid cron spec: at column 3 expected an hour 0-23, got "25"' });
    assert.throws(() => parseCronSchedule('* * * *'),
      { message: 'cronSchedule "* * * *" is not a valid cron spec: at column 8 expected the day-of-week field, got the end of the spec' });
  });

  test('not a string, or empty', () => {
    for (const bad of [5, '', '   ', null]) {
      assert.throws(() => parseCronSchedule(bad), { message: /^cronSchedule must be a cron spec such as "15 8 \* \* \*", "@daily" or "@every 1h", got / });
    }
  });

  test('a day that some month has is enough; with the OR rule any day-of-month is fine', () => {
    assert.equal(parseCronSchedule('0 0 30 2,3 *').next(Date.parse('2024-01-01T00:00:00Z')), Date.parse('2024-03-30T00:00:00Z'));
    assert.equal(parseCronSchedule('0 0 30 2 1').next(Date.parse('2024-01-31T00:00:00Z')), Date.parse('2024-02-05T00:00:00Z'));
  });

  test('times must be finite numbers of ms', () => {
    for (const cron of [parseCronSchedule('0 0 * * *'), parseCronSchedule('@every 1m')]) {
      assert.throws(() => cron.next(Number.NaN), { message: 'after must be a finite number of milliseconds since the epoch, got NaN' });
      assert.throws(() => cron.nextRunAfter(0, Infinity), { message: 'now must be a finite number of milliseconds since the epoch, got Infinity' });
    }
  });

  test('leading and repeated whitespace is fine', () => {
    assert.equal(parseCronSchedule('  0   0 * *\t*  ').next(Date.parse('2024-05-10T01:00:00Z')), Date.parse('2024-05-11T00:00:00Z'));
  });
});

/** [cron string of a schedule, column, expected]. */
const CRON_STRING_ERRORS: Array<[string, number, string]> = [
  ['0 0 * * * 1969', 11, 'a year 1970-2100'],
  ['0 0 * * 8', 9, 'a day of the week 0-7 or a name (Sun-Sat)'],
  ['0 0 * Ju *', 7, 'a month 1-12 or a name (Jan-Dec)'],
  ['0 0 * *', 8, 'the day-of-week field (5 fields (minute hour day-of-month month day-of-week), 6 (… year) or 7 (second … year))'],
  ['0 0 0 * * * * *', 15, 'the end of the spec (5 fields (minute hour day-of-month month day-of-week), 6 (… year) or 7 (second … year))'],
  ['@every 1h/2h', 11, 'an offset shorter than the interval (1h)'],
  ['0 0 0 30 2 * *', 7, 'a day of the month that some month of the spec has'],
  ['@every 6h/5x', 11, 'a duration of whole seconds (e.g. 0s, 90s, 5m)'],
  ['@weekly 3', 9, 'the end of the spec or a # comment'],
];

describe('schedule specs: bad specs are named errors', () => {
  for (const [text, column, expected] of CRON_STRING_ERRORS) {
    test(`cron string ${JSON.stringify(text)}`, () => {
      assert.throws(() => compileScheduleSpec({ cronExpressions: ['@daily', text] }), (err: unknown) => {
        assert.ok(err instanceof CronSyntaxError);
        assert.equal(err.field, 'spec.cronExpressions[1]');
        assert.equal(err.column, column);
        assert.equal(err.expected, expected);
        return true;
      });
    });
  }

  const FIELD_ERRORS: Array<[unknown, string]> = [
    [{ calendars: [{ hour: 24 }] }, 'spec.calendars[0].hour must be 0-23, got 24'],
    [{ calendars: [{ hour: '1,24' }] }, 'spec.calendars[0].hour must be 0-23, got 24'],
    [{ calendars: [{ minute: '*/0' }] }, 'spec.calendars[0].minute must have a step of 1 or more, got 0'],
    [{ calendars: [{ month: 'Jux' }] }, 'spec.calendars[0].month must be 1-12 or a name (Jan-Dec), got "Jux"'],
    [{ calendars: [{ month: 'ja' }] }, 'spec.calendars[0].month must be 1-12 or a name (Jan-Dec), got "ja"'],
    [{ calendars: [{}, { dayOfMonth: '10-2' }] }, 'spec.calendars[1].dayOfMonth must have ranges that end no earlier than they start (10-2), got 2'],
    [{ calendars: [{ hour: { start: 5, end: 2 } }] }, 'spec.calendars[0].hour.end must not be before start (5), got 2'],
    [{ calendars: [{ hour: [1, { start: 2, step: 0 }] }] }, 'spec.calendars[0].hour[1].step must be an integer >= 1, got 0'],
    [{ calendars: [{ hour: 1.5 }] }, 'spec.calendars[0].hour must be 0-23, got 1.5'],
    [{ calendars: [{ hour: [] }] }, 'spec.calendars[0].hour must list at least one value or range, got array of 0'],
    [{ calendars: [{ hours: 1 }] }, 'spec.calendars[0].hours is not a calendar field (use second, minute, hour, dayOfMonth, month, dayOfWeek, year or comment), got 1'],
    [{ calendars: [{ year: 2101 }] }, 'spec.calendars[0].year must be 1970-2100, got 2101'],
    [{ calendars: [{ month: 'Feb', dayOfMonth: '30,31' }] }, 'spec.calendars[0].dayOfMonth must name a day that some month of the calendar has, got "30,31"'],
    [{ skip: [{ dayOfWeek: 'Funday' }] }, 'spec.skip[0].dayOfWeek must be 0-7 or a name (Sun-Sat), got "Funday"'],
    [{ intervals: [{ every: '1h', offset: '1h' }] }, 'spec.intervals[0].offset must be less than every (1h), got "1h"'],
    [{ intervals: [{ every: '500ms' }] }, 'spec.intervals[0].every must be a whole number of seconds, got "500ms"'],
    [{ intervals: [{ every: 0 }] }, 'spec.intervals[0].every must be at least 1s, got 0'],
    [{ intervals: [{ every: '1h', phase: '5m' }] }, 'spec.intervals[0].phase is not an interval field (use every, offset), got "5m"'],
    [{ intervals: {} }, 'spec.intervals must be an array, got {}'],
    [{ cronExpressions: [7] }, 'spec.cronExpressions[0] must be a cron string such as "0 12 * * Mon-Fri", got 7'],
    [{ cronExpressions: ['CRON_TZ=UTC 0 0 * * *', '0 1 * * *'] }, 'spec.cronExpressions[1] must name the same time zone as spec.cronExpressions[0] (UTC), got "0 1 * * *"'],
    [{ cronExpressions: ['CRON_TZ=Asia/Tokyo 0 0 * * *'], timezone: 'UTC' }, 'spec.timezone must match the CRON_TZ of spec.cronExpressions[0] (Asia/Tokyo), got "UTC"'],
    [{ timezone: 'Mars/Olympus' }, 'spec.timezone must be an IANA time zone name such as "America/New_York" or "UTC", got "Mars/Olympus"'],
    [{ startAt: 'yesterday' }, 'spec.startAt must be a Date, an ISO 8601 time or milliseconds since the epoch, got "yesterday"'],
    [{ startAt: '2024-05-10T00:00:00Z', endAt: '2024-05-09T00:00:00Z' }, 'spec.endAt must not be before startAt (2024-05-10T00:00:00.000Z), got "2024-05-09T00:00:00Z"'],
    [{ jitter: 'lots' }, 'spec.jitter is not a valid duration: "lots" (use milliseconds or a number with a unit: ms, s, m, h, d, w, y, e.g. "1.5s", "30 seconds", "1 minute")'],
    [{ every: '1h' }, 'spec.every is not a schedule spec field (use intervals, calendars, cronExpressions, skip, startAt, endAt, jitter, timezone), got "1h"'],
    [null, 'spec must be an object (intervals, calendars, cronExpressions, skip, startAt, endAt, jitter, timezone), got null'],
  ];
  test('next-time arguments are checked', () => {
    const spec = compileScheduleSpec({ intervals: [{ every: '1m' }] });
    assert.throws(() => spec.nextNominal(Number.NaN), { message: 'after must be a finite number of milliseconds since the epoch, got NaN' });
    assert.throws(() => spec.nextAction('now' as unknown as number, 'id'), { message: 'after must be a finite number of milliseconds since the epoch, got "now"' });
    assert.throws(() => spec.nextAction(0, 5 as unknown as string), { message: 'scheduleId must be a string, got 5' });
    assert.throws(() => spec.upcoming(0, -1, 'id'), { message: 'count must be an integer >= 0, got -1' });
  });

  for (const [spec, message] of FIELD_ERRORS) {
    test(message, () => {
      assert.throws(() => compileScheduleSpec(spec), (err: unknown) => {
        assert.ok(err instanceof ValidationError);
        assert.equal(err.message, message);
        return true;
      });
    });
  }
});
