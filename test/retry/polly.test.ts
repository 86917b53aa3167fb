import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, backoffDelays, backoffDelay, DECORRELATED_JITTER_SCALE, ValidationError, type BackoffSchedule } from '../../src/retry/index.ts';

function argError(fn: () => unknown, argument: string, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ValidationError, String(err));
    assert.equal(err.field, argument);
    assert.equal(err.message, message);
    return true;
  });
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

describe('Polly.Contrib.WaitAndRetry backoffs', () => {
  test('constant: 200 ms × 5, and with fastFirst', () => {
    assert.deepEqual(backoffDelays(Backoff.constant(200, 5), 0), [200, 200, 200, 200, 200]);
    assert.deepEqual(backoffDelays(Backoff.constant('200ms', 5, { fastFirst: true }), 0), [0, 200, 200, 200, 200]);
  });

  test('linear: 100…500, factor 2 → 100, 300, 500, 700, 900, factor 0 = constant', () => {
    assert.deepEqual(backoffDelays(Backoff.linear(100, 5), 0), [100, 200, 300, 400, 500]);
    assert.deepEqual(backoffDelays(Backoff.linear(100, 5, { factor: 2 }), 0), [100, 300, 500, 700, 900]);
    assert.deepEqual(backoffDelays(Backoff.linear(100, 5, { factor: 0 }), 0), backoffDelays(Backoff.constant(100, 5), 0));
    assert.deepEqual(backoffDelays(Backoff.linear(100, 5, { fastFirst: true }), 0), [0, 100, 200, 300, 400]);
  });

  test('exponential: 100…1600, factor 4 ends at 25,600, factor 1 = constant', () => {
    assert.deepEqual(backoffDelays(Backoff.exponential(100, 5), 0), [100, 200, 400, 800, 1600]);
    const four = backoffDelays(Backoff.exponential(100, 5, { factor: 4 }), 0);
    assert.deepEqual(four, [100, 400, 1600, 6400, 25_600]);
    assert.deepEqual(backoffDelays(Backoff.exponential(100, 5, { factor: 1 }), 0), backoffDelays(Backoff.constant(100, 5), 0));
    assert.deepEqual(backoffDelays(Backoff.exponential(100, 5, { fastFirst: true }), 0), [0, 100, 200, 400, 800]);
  });

  test('the seed\'s overall-timeout example: 1, 2, 4, 8, 16 s', () => {
    assert.deepEqual(backoffDelays(Backoff.exponential('1s', 5), 0), [1000, 2000, 4000, 8000, 16_000]);
  });

  test('a ceiling caps every delay (the seed\'s 45 s ceiling over 50 jittered retries)', () => {
    assert.deepEqual(backoffDelays(Backoff.exponential(100, 6, { ceiling: 1000 }), 0), [100, 200, 400, 800, 1000, 1000]);
    const capped = backoffDelays(Backoff.decorrelatedJitterV2('1s', 50, { ceiling: '45s', seed: 7 }), 7);
    assert.equal(capped.length, 50);
    assert.ok(capped.every((d) => d >= 0 && d <= 45_000));
    assert.equal(capped.at(-1), 45_000);
  });

  test('retryCount 0 gives no retries; argument rules name the argument', () => {
    assert.deepEqual(backoffDelays(Backoff.constant(200, 0), 0), []);
    argError(() => Backoff.constant(200, -1), 'retryCount', 'retryCount must be >= 0, got -1');
    argError(() => Backoff.linear(100, 5, { factor: -1 }), 'factor', 'factor must be >= 0, got -1');
    argError(() => Backoff.exponential(100, 5, { factor: 0.5 }), 'factor', 'factor must be >= 1, got 0.5');
    argError(() => Backoff.exponential(-1, 5), 'initialDelay', 'initialDelay must be a finite number of milliseconds >= 0, got -1');
    argError(() => Backoff.decorrelatedJitterV2(-5, 3), 'medianFirstRetryDelay', 'medianFirstRetryDelay must be a finite number of milliseconds >= 0, got -5');
    argError(() => Backoff.awsDecorrelatedJitter(100, 10, 3), 'maxDelay', 'maxDelay must be >= minDelay (100ms), got 10');
    argError(() => Backoff.constant(200, 2.5), 'retryCount', 'retryCount must be an integer, got 2.5');
  });

  test('seed: the same seed gives the same delays, another seed others', () => {
    const dj = Backoff.decorrelatedJitterV2(1000, 8, { seed: 100 });
    assert.deepEqual(backoffDelays(dj, 100), backoffDelays(Backoff.decorrelatedJitterV2(1000, 8, { seed: 100 }), 100));
    assert.notDeepEqual(backoffDelays(dj, 100), backoffDelays(dj, 101));
    const aws = Backoff.awsDecorrelatedJitter(10, 100, 8);
    assert.deepEqual(backoffDelays(aws, 5), backoffDelays(aws, 5));
    assert.notDeepEqual(backoffDelays(aws, 5), backoffDelays(aws, 6));
  });

  test('AWS decorrelated jitter stays within [min, max] and within 3 × the previous delay', () => {
    const s = Backoff.awsDecorrelatedJitter(10, 100, 10);
    for (let seed = 0; seed < 2000; seed++) {
      let prev = 10;
      for (const d of backoffDelays(s, seed)) {
        assert.ok(d >= 10 && d <= 100, `seed ${seed}: ${d}`);
        assert.ok(d <= Math.floor(prev * 3), `seed ${seed}: ${d} after ${prev}`);
        prev = d + 1;
      }
    }
    const fast = backoffDelays(Backoff.awsDecorrelatedJitter(10, 100, 4, { fastFirst: true }), 3);
    assert.equal(fast[0], 0);
    assert.deepEqual(fast.slice(1), backoffDelays(Backoff.awsDecorrelatedJitter(10, 100, 3), 3));
  });
});

describe('decorrelated jitter V2 (Polly\'s recommended formula)', () => {
  const SAMPLES = 100_000;
  const medianMs = 1000;
  const schedule: BackoffSchedule = Backoff.decorrelatedJitterV2(medianMs, 6);
  const columns: number[][] = Array.from({ length: 6 }, () => []);
  const times: number[][] = Array.from({ length: 6 }, () => []);
  for (let seed = 0; seed < SAMPLES; seed++) {
    let sum = 0;
    for (let r = 1; r <= 6; r++) {
      const d = backoffDelay(schedule, r, seed);
      columns[r - 1]!.push(d);
      sum += d;
      times[r - 1]!.push(sum);
    }
  }

  test('first delay: median at the formula\'s value for u = 0.5, √2 · tanh √2 / 1.4 ≈ 0.8975 × the configured median', () => {
    const expected = (Math.SQRT2 * Math.tanh(Math.SQRT2) / 1.4) * medianMs;
    const m = median(columns[0]!);
    assert.ok(Math.abs(m - expected) / expected < 0.01, `median ${m} vs ${expected.toFixed(1)}`);
  });

  test('later retries: median retry times near 2×, 4×, 8×, 16× the configured median; delays near 2×, 4×, 8×', () => {
    const near = (m: number, factor: number) => {
      const ratio = m / (factor * medianMs);
      return ratio > 0.97 && ratio < 1.03;
    };
    for (const [retry, factor] of [[2, 2], [3, 4], [4, 8], [5, 16]] as const) {
      const m = median(times[retry - 1]!);
      assert.ok(near(m, factor), `retry ${retry} at ${m}, ${(m / medianMs).toFixed(2)} × the configured median`);
    }
    for (const [retry, factor] of [[3, 2], [4, 4], [5, 8]] as const) {
      const m = median(columns[retry - 1]!);
      assert.ok(near(m, factor), `delay ${retry}: ${m}, ${(m / medianMs).toFixed(2)} × the configured median`);
    }
  });

  test('Polly\'s bounds: 0 <= delay t <= m·2^(t+1) (t < 2), m·(2^(t+1) − 2^(t−1)) after', () => {
    assert.equal(DECORRELATED_JITTER_SCALE, 1 / 1.4);
    for (let r = 1; r <= 6; r++) {
      const limit = medianMs * (r < 2 ? 2 ** (r + 1) : 2 ** (r + 1) - 2 ** (r - 1));
      for (const d of columns[r - 1]!) assert.ok(d >= 0 && d <= limit, `retry ${r}: ${d} > ${limit}`);
    }
  });

  test('fastFirst: a zero, then the formula from its second term with nothing subtracted', () => {
    const fast = Backoff.decorrelatedJitterV2(1000, 4, { fastFirst: true });
    const delays = backoffDelays(fast, 11);
    assert.equal(delays[0], 0);
    const plain = backoffDelays(Backoff.decorrelatedJitterV2(1000, 4), 11);
    assert.deepEqual(delays.slice(2), plain.slice(2));
    assert.ok(delays[1]! > plain[1]!, 'the second term is not reduced by the first');
  });

  test('huge retry numbers stay finite', () => {
    const d = backoffDelay(Backoff.decorrelatedJitterV2(1000, 2000), 1500, 1);
    assert.ok(Number.isFinite(d) && d > 0);
  });
});
