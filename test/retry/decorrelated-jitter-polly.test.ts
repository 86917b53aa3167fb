import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, backoffDelay } from '../../src/retry/index.ts';

/**
 * Regression: decorrelated jitter V2 once used its own scale constant (1 / (√2 · tanh √2)), so
 * every delay was about 11 % longer than Polly's for the same medianFirstRetryDelay. The
 * reference below is Polly.Contrib.WaitAndRetry's loop written out again, with its own PRNG,
 * so the two can only agree when steadfast computes Polly's distribution.
 */

/** mulberry32: a small seeded PRNG, independent of steadfast's hashing. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Backoff.DecorrelatedJitterBackoffV2 (Polly.Contrib.WaitAndRetry 1.1.1), in milliseconds. */
function pollyDelays(medianFirstRetryDelayMs: number, retryCount: number, next: () => number, maxDelayMs = Infinity): number[] {
  const pFactor = 4.0;
  const rpScalingFactor = 1 / 1.4;
  const out: number[] = [];
  let prev = 0;
  for (let i = 0; i < retryCount; i++) {
    const t = i + next();
    const value = Math.pow(2, t) * Math.tanh(Math.sqrt(pFactor * t));
    out.push(Math.min((value - prev) * rpScalingFactor * medianFirstRetryDelayMs, maxDelayMs));
    prev = value;
  }
  return out;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const SAMPLES = 100_000;
const RETRIES = 5;
const MEDIAN_MS = 1000;

/** Column r−1 holds the delays before retry r over all samples, sorted. */
function columns(draw: (sample: number) => number[]): number[][] {
  const cols: number[][] = Array.from({ length: RETRIES }, () => []);
  for (let s = 0; s < SAMPLES; s++) {
    const delays = draw(s);
    for (let r = 0; r < RETRIES; r++) cols[r]!.push(delays[r]!);
  }
  return cols.map((c) => c.sort((a, b) => a - b));
}

describe('decorrelated jitter V2 follows Polly\'s formula and constants', () => {
  const schedule = Backoff.decorrelatedJitterV2(MEDIAN_MS, RETRIES);
  const ours = columns((seed) => Array.from({ length: RETRIES }, (_, r) => backoffDelay(schedule, r + 1, seed)));
  const random = mulberry32(20_240_611);
  const polly = columns(() => pollyDelays(MEDIAN_MS, RETRIES, random));

  test('p10, p50 and p90 of the delays before retries 1..5 match Polly\'s within 1.5 %', () => {
    for (let r = 0; r < RETRIES; r++) {
      for (const p of [0.1, 0.5, 0.9]) {
        const mine = percentile(ours[r]!, p);
        const theirs = percentile(polly[r]!, p);
        assert.ok(Math.abs(mine - theirs) <= 0.015 * theirs + 1,
          `retry ${r + 1}, p${p * 100}: steadfast ${mine} ms, Polly ${theirs.toFixed(1)} ms`);
      }
    }
  });

  test('the seed\'s statements: median retry times near 2×, 4×, 8×, 16× the configured median', () => {
    const times: number[][] = Array.from({ length: RETRIES }, () => []);
    for (let seed = 0; seed < SAMPLES; seed++) {
      let sum = 0;
      for (let r = 1; r <= RETRIES; r++) times[r - 1]!.push(sum += backoffDelay(schedule, r, seed));
    }
    for (const [retry, factor] of [[2, 2], [3, 4], [4, 8], [5, 16]] as const) {
      const m = percentile(times[retry - 1]!.sort((a, b) => a - b), 0.5);
      const ratio = m / (factor * MEDIAN_MS);
      assert.ok(ratio > 0.97 && ratio < 1.03, `retry ${retry} at ${m} ms, ${ratio.toFixed(3)} × ${factor} × the configured median`);
    }
  });

  test('a ceiling caps each delay as Polly\'s documented Select(Min(…, maxDelay)) does', () => {
    const capped = Backoff.decorrelatedJitterV2(MEDIAN_MS, 6, { ceiling: '20s' });
    const reference = mulberry32(7);
    const n = 20_000;
    const mine = Array.from({ length: n }, (_, seed) => backoffDelay(capped, 6, seed));
    const theirs = Array.from({ length: n }, () => pollyDelays(MEDIAN_MS, 6, reference, 20_000)[5]!);
    assert.ok(mine.every((d) => d <= 20_000));
    const atCeiling = (xs: number[]) => xs.filter((d) => d >= 20_000).length / n;
    assert.ok(Math.abs(atCeiling(mine) - atCeiling(theirs)) < 0.015,
      `at the ceiling: steadfast ${atCeiling(mine)}, Polly ${atCeiling(theirs)}`);
  });
});
