import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Backoff, RetryPolicy, backoffDelays, resolveRetryPolicy, retryInterval } from '../../src/retry/index.ts';
import { foldSeed } from '../../src/retry/random.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/steadfast.mjs', 'retry', 'simulate', ...args], { cwd: root, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

async function json(...args: string[]): Promise<{ delaysMs: number[]; seed: number; attempts: { attempt: number; delayMs: number; sinceFirstMs: number }[]; percentiles?: { retry: number; p5: number; p50: number; p95: number }[] }> {
  const r = await cli(...args, '--json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('steadfast retry simulate', () => {
  test('table: attempt, delay before it, time since the first attempt (Temporal defaults)', async () => {
    const r = await cli('--count', '9');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(lines[0]!, /^temporal: unlimited attempts, first 9 retries shown/);
    assert.match(r.stdout, /attempt\s+delay before\s+since first attempt/);
    assert.match(r.stdout, /\n\s+1\s+-\s+0ms\s+-\n/);
    assert.match(r.stdout, /\n\s+2\s+1s\s+1s\s+1000\n/);
    assert.match(r.stdout, /\n\s+8\s+1m 4s\s+2m 7s\s+64000\n/);
    assert.match(r.stdout, /\n\s+10\s+1m 40s\s+5m 27s\s+100000\n/);
    assert.doesNotMatch(r.stdout, /\n\s+11\s/);
  });

  test('--json delays equal the library\'s for every strategy', async () => {
    assert.deepEqual((await json('--strategy', 'constant', '--initial', '200ms', '--count', '5', '--fast-first')).delaysMs, [0, 200, 200, 200, 200]);
    assert.deepEqual((await json('--strategy', 'linear', '--initial', '100', '--factor', '2')).delaysMs, [100, 300, 500, 700, 900]);
    assert.deepEqual((await json('--strategy', 'exponential', '--factor', '4')).delaysMs, [100, 400, 1600, 6400, 25_600]);
    assert.deepEqual((await json('--strategy', 'exponential', '--ceiling', '1s', '--count', '6')).delaysMs, [100, 200, 400, 800, 1000, 1000]);
    assert.deepEqual((await json('--strategy', 'fixed', '--intervals', '60s,5m,15m', '--no-jitter')).delaysMs, [60_000, 300_000, 900_000]);
    assert.deepEqual((await json('--strategy', 'horsies-exponential', '--no-jitter')).delaysMs, [30_000, 60_000, 120_000, 240_000, 480_000]);
    assert.deepEqual((await json('--strategy', 'fixed', '--intervals', '60,300,900', '--no-jitter')).delaysMs, [60_000, 300_000, 900_000],
      'horsies counts bare numbers in seconds');
    assert.deepEqual((await json('--strategy', 'horsies-exponential', '--initial', '30', '--count', '3', '--no-jitter')).delaysMs, [30_000, 60_000, 120_000]);
    assert.deepEqual((await json('--strategy', 'constant', '--initial', '1 minute', '--count', '2')).delaysMs, [60_000, 60_000]);
    const temporal = await json('--max-attempts', '4', '--initial', '500ms', '--coefficient', '3', '--max-interval', '2s');
    assert.deepEqual(temporal.delaysMs, [500, 1500, 2000]);
    assert.deepEqual(temporal.attempts.map((a) => a.sinceFirstMs), [0, 500, 2000, 4000]);
    const dj = await json('--strategy', 'decorrelated-jitter', '--median', '1s', '--count', '6', '--seed', '77');
    assert.deepEqual(dj.delaysMs, backoffDelays(Backoff.decorrelatedJitterV2('1s', 6), foldSeed(77)));
    const aws = await json('--strategy', 'aws-jitter', '--min', '10ms', '--max', '100ms', '--seed', '5');
    assert.deepEqual(aws.delaysMs, backoffDelays(Backoff.awsDecorrelatedJitter(10, 100, 5), foldSeed(5)));
  });

  test('jitter defaults follow the seed: on for horsies\' fixed list, off for Polly and Temporal', async () => {
    const fixed = await json('--strategy', 'fixed', '--intervals', '60s,5m,15m', '--seed', '11');
    assert.deepEqual(fixed.delaysMs, backoffDelays(RetryPolicy.fixed(['60s', '5m', '15m']), foldSeed(11)));
    assert.notDeepEqual(fixed.delaysMs, [60_000, 300_000, 900_000]);
    assert.deepEqual((await json('--strategy', 'constant', '--seed', '11')).delaysMs, [200, 200, 200, 200, 200]);
    const jittered = await json('--strategy', 'constant', '--jitter', '0.5', '--seed', '11');
    assert.ok(jittered.delaysMs.every((d) => d >= 100 && d <= 300) && new Set(jittered.delaysMs).size > 1);
    const temporal = await json('--jitter', '--seed', '3', '--max-attempts', '5');
    const policy = resolveRetryPolicy({ jitter: 0.25, seed: 3, maximumAttempts: 5 });
    assert.deepEqual(temporal.delaysMs, [1, 2, 3, 4].map((a) => retryInterval(policy, a)));
  });

  test('the same seed prints the same schedule', async () => {
    const a = await json('--strategy', 'decorrelated-jitter', '--seed', '42');
    const b = await json('--strategy', 'decorrelated-jitter', '--seed', '42');
    assert.deepEqual(a.delaysMs, b.delaysMs);
    assert.equal(a.seed, 42);
  });

  test('--samples adds p5/p50/p95 and a chart for a jittered policy', async () => {
    const r = await cli('--strategy', 'fixed', '--intervals', '60s', '--samples', '5000', '--seed', '1');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Delay spread over 5000 runs/);
    assert.match(r.stdout, /retry\s+p5\s+p50\s+p95/);
    assert.match(r.stdout, /retry {2}1 .*=.*\|.*=/);
    const j = await json('--strategy', 'fixed', '--intervals', '60s', '--samples', '5000', '--seed', '1');
    const p = j.percentiles![0]!;
    assert.ok(p.p5 >= 45_000 && p.p5 < 48_000 && p.p95 > 72_000 && p.p95 <= 75_000, JSON.stringify(p));
    assert.ok(Math.abs(p.p50 - 60_000) < 1500);
  });

  test('bad flags: a clear message and exit 2', async () => {
    for (const [args, message] of [
      [['--bogus'], /unknown flag --bogus/],
      [['--strategy', 'nope'], /--strategy must be one of temporal, fixed, exponential/],
      [['--strategy', 'linear', '--median', '1s'], /--median does not apply to --strategy linear/],
      [['--strategy', 'exponential', '--factor', '0.5'], /factor must be >= 1, got 0\.5/],
      [['--strategy', 'linear', '--factor', 'abc'], /--factor must be a number, got "abc"/],
      [['--initial', '2x'], /--initial is not a valid duration: "2x"/],
      [['--max-attempts', '-1'], /maximumAttempts must be >= 0/],
      [['--strategy', 'fixed'], /needs --intervals/],
      [['--strategy', 'fixed', '--intervals', '1s,2s', '--count', '3'], /intervals length must match maxRetries/],
      [['--jitter', '2'], /--jitter must be a fraction between 0 and 1/],
      [['--samples', '0'], /--samples must be from 1 to 1000000/],
    ] as const) {
      const r = await cli(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
      assert.match(r.stderr, /^steadfast retry simulate: /);
    }
  });

  test('--help documents every strategy and flag', async () => {
    const r = await cli('--help');
    assert.equal(r.code, 0);
    for (const word of ['temporal', 'fixed', 'exponential', 'constant', 'linear', 'decorrelated-jitter', 'aws-jitter', '--initial', '--coefficient',
      '--max-interval', '--max-attempts', '--intervals', '--factor', '--count', '--median', '--min', '--max', '--ceiling', '--fast-first', '--seed',
      '--jitter', '--no-jitter', '--json', '--samples']) {
      assert.ok(r.stdout.includes(word), word);
    }
  });
});
