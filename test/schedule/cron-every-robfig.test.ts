import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CronSyntaxError, parseCronSchedule } from '../../src/schedule/index.ts';

/**
 * Regression: `@every 500ms` and `@every 1.5s` were refused, though robfig/cron (whose parser
 * Temporal's server uses for `cronSchedule`) accepts them: it reads the duration with Go's
 * time.ParseDuration, and its Every() raises anything under 1s to 1s and truncates the rest to
 * whole seconds (constantdelay.go).
 */
describe('cronSchedule @every reads durations as robfig/cron does', () => {
  const rows: Array<[string, number]> = [
    ['@every 500ms', 1_000],
    ['@every 1.5s', 1_000],
    ['@every 2.999s', 2_000],
    ['@every 1h30m', 5_400_000],
    ['@every 90s', 90_000],
    ['@every 1m30.5s', 90_000],
    ['@every 1.5h', 5_400_000],
    ['@every .5m', 30_000],
    ['@every 1500000us', 1_000],
    ['@every 2000000000ns', 2_000],
    ['@every 3000µs', 1_000],
    ['@every 0', 1_000],
    ['@every +2s', 2_000],
    ['@every -5s', 1_000],
    ['CRON_TZ=America/New_York @every 1.5s', 1_000],
  ];
  for (const [spec, everyMs] of rows) {
    test(`${spec} fires every ${everyMs} ms`, () => {
      const cron = parseCronSchedule(spec);
      assert.equal(cron.everyMs, everyMs);
      const from = Date.parse('2024-05-10T10:00:00.250Z');
      assert.equal(cron.next(from), Date.parse('2024-05-10T10:00:00Z') + everyMs);
    });
  }

  test('what Go\'s ParseDuration refuses is refused, with the column and the grammar', () => {
    const bad: Array<[string, number]> = [
      ['@every soon', 8], ['@every 5', 8], ['@every 1.5', 8], ['@every 5x', 8], ['@every .s', 8],
      ['@every 1h-30m', 8], ['@every 9223372037s', 8], ['@every 2562047h48m', 8], ['@every', 7],
    ];
    for (const [spec, column] of bad) {
      assert.throws(() => parseCronSchedule(spec), (err: unknown) => {
        assert.ok(err instanceof CronSyntaxError, `${spec}: ${String(err)}`);
        assert.equal(err.column, column, spec);
        assert.equal(err.expected, 'a duration in Go\'s grammar such as 90s, 1h30m or 500ms (under 1s counts as 1s, fractions of a second are dropped)');
        return true;
      });
    }
  });

  test('the Temporal SDK\'s spellings with a unit are read too, under the same rounding', () => {
    assert.equal(parseCronSchedule('@every 2days').everyMs, 172_800_000);
    assert.equal(parseCronSchedule('@every 1.5sec').everyMs, 1_000);
  });

  test('the largest duration Go can hold is accepted, whole seconds', () => {
    assert.equal(parseCronSchedule('@every 9223372036s').everyMs, 9_223_372_036_000);
    assert.equal(parseCronSchedule('@every 2562047h47m16.854775807s').everyMs, 9_223_372_036_000);
  });
});
