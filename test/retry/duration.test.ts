import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { toMs, formatMs, optionalMs, ValidationError, type Duration } from '../../src/retry/index.ts';
import { proxyActivities } from '../../src/workflow/index.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Strings whose type is `string`, to test what toMs does with text no type check saw. */
const text = (s: string) => s as Duration;

describe('toMs', () => {
  test('numbers are milliseconds', () => {
    assert.equal(toMs(0), 0);
    assert.equal(toMs(250), 250);
    assert.equal(toMs(1.5), 1.5);
  });

  test("Temporal's spellings: the ms package's units, short and long, with or without a space", () => {
    const cases: [Duration, number][] = [
      ['1 minute', MINUTE], ['30 seconds', 30 * SECOND], ['2 hours', 2 * HOUR], ['1 day', DAY], ['1w', 7 * DAY],
      ['2 weeks', 14 * DAY], ['1y', 365.25 * DAY], ['1 year', 365.25 * DAY], ['5 mins', 5 * MINUTE], ['3 hrs', 3 * HOUR],
      ['10 secs', 10 * SECOND], ['250 msecs', 250], ['1 millisecond', 1], ['1.5 hours', 1.5 * HOUR], ['2 days', 2 * DAY],
      ['1Minute', MINUTE], ['1 MINUTE', MINUTE], ['1  minute', MINUTE],
    ];
    for (const [value, ms] of cases) assert.equal(toMs(value), ms, String(value));
  });

  test('the short forms keep working', () => {
    const cases: [Duration, number][] = [
      ['200ms', 200], ['1.5s', 1500], ['5m', 300_000], ['1h', HOUR], ['2d', 2 * DAY], ['0s', 0], ['.5s', 500], ['1 s', 1000], ['250', 250],
    ];
    for (const [value, ms] of cases) assert.equal(toMs(value), ms, String(value));
  });

  test('compound strings are refused, with the one-unit spelling to use instead', () => {
    for (const value of ['1h30m', '1m 30s', '2h 15m']) {
      assert.throws(() => toMs(text(value), 'retry.maximumInterval'), (err: unknown) => {
        assert.ok(err instanceof ValidationError);
        assert.equal(err.message,
          `retry.maximumInterval is not a valid duration: "${value}" (compound durations are not accepted: write one number and one unit, e.g. "90m" or "1.5h")`);
        return true;
      });
    }
  });

  test('a malformed string is a ValidationError naming the field and the text', () => {
    for (const value of ['', '   ', 'abc', '5x', 'ms', '1s-', 's1', '1e3s', '1,5s', ' 2s', '2s ', '1 fortnight', 'x'.repeat(101)]) {
      assert.throws(() => toMs(text(value), 'retry.initialInterval'), (err: unknown) => {
        assert.ok(err instanceof ValidationError, value);
        assert.equal(err.field, 'retry.initialInterval');
        assert.ok(err.message.startsWith(`retry.initialInterval is not a valid duration: ${JSON.stringify(value)}`), err.message);
        return true;
      });
    }
  });

  test('negative, infinite and non-numeric values are rejected', () => {
    for (const value of [-1, -0.5, Infinity, NaN, null, {}, [], true, '-1s', '-5 minutes']) {
      assert.throws(() => toMs(value as never, 'timeout'), (err: unknown) => err instanceof ValidationError && err.field === 'timeout', String(value));
    }
    assert.throws(() => toMs('-1s', 'timeout'), /^ValidationError: timeout must be >= 0, got "-1s"$/);
  });

  test('optionalMs keeps undefined and null as undefined', () => {
    assert.equal(optionalMs(undefined, 'x'), undefined);
    assert.equal(optionalMs(null, 'x'), undefined);
    assert.equal(optionalMs('1s', 'x'), 1000);
  });

  test("a ported proxyActivities({ startToCloseTimeout: '1 minute' }) loads", () => {
    assert.doesNotThrow(() => proxyActivities({
      startToCloseTimeout: '1 minute', scheduleToCloseTimeout: '2 hours', heartbeatTimeout: '30 seconds',
      retry: { initialInterval: '1 second', maximumInterval: '1 day' },
    }));
  });
});

/** Type-level checks: `tsc --noEmit` fails if a line marked @ts-expect-error compiles. */
export function durationTypeChecks(): Duration[] {
  const ok: Duration[] = ['1 minute', '30 seconds', '2 hours', '1 day', '1w', '1.5s', '200ms', '250', 250, '1 MINUTE'];
  // @ts-expect-error compound durations are not durations
  ok.push('1h30m');
  // @ts-expect-error an unknown unit
  ok.push('5 fortnights');
  // @ts-expect-error a misspelled unit
  ok.push('1 minuet');
  // @ts-expect-error words are not numbers
  ok.push('soon');
  // @ts-expect-error booleans are not durations
  ok.push(true);
  // @ts-expect-error a malformed literal in an activity option fails to compile, as with Temporal's StringValue
  proxyActivities({ startToCloseTimeout: '1 mnute' });
  return ok;
}

describe('formatMs', () => {
  test('renders the way a person reads durations', () => {
    assert.equal(formatMs(850), '850ms');
    assert.equal(formatMs(1500), '1.5s');
    assert.equal(formatMs(300_000), '5m');
    assert.equal(formatMs(9_000_000), '2h 30m');
    assert.equal(formatMs(3 * 86_400_000), '3d');
    assert.equal(formatMs(0), '0ms');
  });

  test('each part of its output reads back through toMs', () => {
    for (const ms of [1, 999, 1000, 1500, 60_000, 300_000, 3_600_000, 86_400_000, 9_000_000]) {
      const sum = formatMs(ms).split(' ').reduce((acc, part) => acc + toMs(text(part)), 0);
      assert.equal(sum, ms, formatMs(ms));
    }
  });
});
