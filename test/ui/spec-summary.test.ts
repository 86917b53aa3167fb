import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calendarSummary, specSummary } from '../../src/ui/spec-summary.ts';

const all = { second: '0', minute: '0', hour: '0', dayOfMonth: '*', month: '*', dayOfWeek: '*', year: '*' };

test('calendars in words: the time of day, then days of the week, of the month, months and years by name', () => {
  assert.equal(calendarSummary({ ...all, hour: '3' }), 'at 03:00 every day');
  assert.equal(calendarSummary({ ...all, hour: '9', minute: '30', second: '15', dayOfWeek: '1-5', comment: 'weekdays' }), 'at 09:30:15 on Mon–Fri (weekdays)');
  assert.equal(calendarSummary({ ...all, hour: '11-14', dayOfMonth: '1,15', month: '1/3', year: '2022' }),
    'at second 0, minute 0, hour 11-14 on day 1,15 of the month in Jan every 3 in 2022');
  assert.equal(calendarSummary({ ...all, dayOfWeek: '0,6', month: '12' }), 'at 00:00 on Sun, Sat in Dec');
});

test('a whole spec: calendars and intervals, exclusions, bounds, jitter and the zone', () => {
  assert.equal(specSummary({
    calendars: [{ ...all, hour: '3' }], intervals: [{ every: '6h', offset: '5h' }, { every: '90m', offset: '0s' }],
    skip: [{ ...all, hour: '3', dayOfMonth: '25', month: '12' }], startAt: '2026-01-01T00:00:00.000Z', jitter: '30s', timezone: 'Europe/Paris',
  }), 'at 03:00 every day; every 6h offset 5h; every 90m; except at 03:00 on day 25 of the month in Dec; from 2026-01-01T00:00:00.000Z; up to 30s late (jitter) (Europe/Paris)');
  assert.equal(specSummary({ calendars: [], intervals: [], skip: [], jitter: '0s', timezone: 'UTC' }), 'never (UTC)');
});
