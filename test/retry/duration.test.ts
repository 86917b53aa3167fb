import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { toMs, formatMs, optionalMs, ValidationError } from '../../src/retry/index.ts';

describe('toMs', () => {
  test('numbers are milliseconds', () => {
    assert.equal(toMs(0), 0);
    assert.equal(toMs(250), 250);
    assert.equal(toMs(1.5), 1.5);
  });

  test('every unit the docs name', () => {
    const cases: [string, number][] = [
      ['200ms', 200], ['1.5s', 1500], ['5m', 300_000], ['1h', 3_600_000], ['2d', 172_800_000],
      ['0s', 0], ['.5s', 500], ['1h30m', 5_400_000], ['1m 30s', 90_000], [' 2s ', 2000], ['1 s', 1000], ['250', 250],
    ];
    for (const [text, ms] of cases) assert.equal(toMs(text), ms, text);
  });

  test('a malformed string is a ValidationError naming the field and the text', () => {
    for (const text of ['', '   ', 'abc', '5x', 'ms', '-1s', '1s-', 's1', '1e3s', '1,5s', '2 days']) {
      assert.throws(() => toMs(text, 'retry.initialInterval'), (err: unknown) => {
        assert.ok(err instanceof ValidationError, text);
        assert.equal(err.field, 'retry.initialInterval');
        assert.ok(err.message.includes(`"${text}"`), `${err.message} names ${JSON.stringify(text)}`);
        assert.ok(err.message.startsWith('retry.initialInterval'), err.message);
        return true;
      });
    }
  });

  test('negative, infinite and non-numeric values are rejected', () => {
    for (const value of [-1, -0.5, Infinity, NaN, null, {}, [], true]) {
      assert.throws(() => toMs(value as never, 'timeout'), (err: unknown) => err instanceof ValidationError && err.field === 'timeout');
    }
  });

  test('optionalMs keeps undefined and null as undefined', () => {
    assert.equal(optionalMs(undefined, 'x'), undefined);
    assert.equal(optionalMs(null, 'x'), undefined);
    assert.equal(optionalMs('1s', 'x'), 1000);
  });
});

describe('formatMs', () => {
  test('renders the way a person reads durations', () => {
    assert.equal(formatMs(850), '850ms');
    assert.equal(formatMs(1500), '1.5s');
    assert.equal(formatMs(300_000), '5m');
    assert.equal(formatMs(9_000_000), '2h 30m');
    assert.equal(formatMs(3 * 86_400_000), '3d');
    assert.equal(formatMs(0), '0ms');
  });

  test('round-trips through toMs for whole units', () => {
    for (const ms of [1, 999, 1000, 1500, 60_000, 300_000, 3_600_000, 86_400_000]) {
      assert.equal(toMs(formatMs(ms).replace(' ', '')), ms, formatMs(ms));
    }
  });
});
