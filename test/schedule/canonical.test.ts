import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileScheduleSpec, type ScheduleSpec } from '../../src/schedule/index.ts';

describe('schedule specs: canonical form', () => {
  test('the seed\'s example, every field present', () => {
    const spec = compileScheduleSpec({ calendars: [{ year: '2022', month: 'Jan,Apr,Jul,Oct', dayOfMonth: '1,15', hour: '11-14', comment: 'quarterly' }] });
    assert.deepEqual(spec.canonical(), {
      calendars: [{ second: '0', minute: '0', hour: '11-14', dayOfMonth: '1,15', month: '*/3', dayOfWeek: '*', year: '2022', comment: 'quarterly' }],
      intervals: [], skip: [], jitter: '0s', timezone: 'UTC',
    });
  });

  test('cron strings become calendars and intervals; CRON_TZ becomes the time zone; bounds become ISO times', () => {
    const spec = compileScheduleSpec({
      cronExpressions: ['CRON_TZ=America/New_York 30 9 * * MON-FRI # open', 'CRON_TZ=America/New_York @every 90m/30m'],
      intervals: [{ every: 86_400_000 }], skip: [{ month: 'dec', dayOfMonth: '24-26', hour: '*', minute: '*', second: '*' }],
      startAt: Date.UTC(2024, 0, 1), endAt: '2025-01-01T00:00:00Z', jitter: '90s',
    });
    assert.deepEqual(spec.canonical(), {
      calendars: [{ second: '0', minute: '30', hour: '9', dayOfMonth: '*', month: '*', dayOfWeek: '1-5', year: '*', comment: 'open' }],
      intervals: [{ every: '1d', offset: '0s' }, { every: '90m', offset: '30m' }],
      skip: [{ second: '*', minute: '*', hour: '*', dayOfMonth: '24-26', month: '12', dayOfWeek: '*', year: '*' }],
      startAt: '2024-01-01T00:00:00.000Z', endAt: '2025-01-01T00:00:00.000Z', jitter: '90s', timezone: 'America/New_York',
    });
  });

  test('different ways of writing the same calendar render the same', () => {
    const ways: ScheduleSpec[] = [
      { calendars: [{ dayOfWeek: 'Mon-Fri', minute: '0,15,30,45', hour: '*' }] },
      { calendars: [{ dayOfWeek: [1, 2, 3, 4, 5], minute: '*/15', hour: { start: 0, end: 23 } }] },
      { calendars: [{ dayOfWeek: { start: 'MONDAY', end: 'friday' }, minute: { start: 0, end: 59, step: 15 }, hour: '0-23' }] },
      { cronExpressions: ['*/15 * * * 1-5'] },
      { calendars: [{ dayOfWeek: ['Mon-Wed', 4, { start: 'fri' }], minute: ['0,15', 30, '45'], hour: '*' }] },
      { cronExpressions: ['0 0/15 * * * mo-fr *'] },
    ];
    const rendered = ways.map((w) => JSON.stringify(compileScheduleSpec(w).canonical().calendars));
    for (const r of rendered) assert.equal(r, rendered[0]);
    assert.deepEqual(compileScheduleSpec(ways[0]!).canonical().calendars[0],
      { second: '0', minute: '*/15', hour: '*', dayOfMonth: '*', month: '*', dayOfWeek: '1-5', year: '*' });
  });

  test('field renderings: steps from the start, stepped ranges, runs and single values', () => {
    const cal = compileScheduleSpec({ calendars: [{
      second: '5/20', minute: '10-40/10', hour: '1,2,3,5,7,8', dayOfMonth: '1,2', month: '2-12', dayOfWeek: '0,7,6', year: '2024-2026,2030',
    }] }).canonical().calendars[0];
    assert.deepEqual(cal, { second: '5/20', minute: '10-40/10', hour: '1-3,5,7,8', dayOfMonth: '1,2', month: '2-12', dayOfWeek: '0,6', year: '2024-2026,2030' });
  });

  test('the canonical form compiles back to itself', () => {
    const spec = compileScheduleSpec({ cronExpressions: ['CRON_TZ=Europe/Paris 0 */7 8-18 1,15,31 JAN-MAR,dec 1-5 2024-2030'], intervals: [{ every: '45m', offset: '5m' }], jitter: '10s' });
    const canonical = spec.canonical();
    assert.deepEqual(compileScheduleSpec(canonical).canonical(), canonical);
  });
});
