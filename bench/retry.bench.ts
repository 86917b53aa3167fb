/**
 * `npm run bench -- retry [--rounds 7] [--ms 300] [--json]`: per-call overhead of steadfast's
 * retry() against cockatiel@3 and p-retry@7, measured side by side in one process.
 *
 * Two scenarios, each call awaited before the next (latency per call, not throughput of
 * concurrent calls): a function that always succeeds, and one that fails twice and then succeeds
 * with a zero delay between attempts. Each round runs a library for at least `--ms`
 * milliseconds; the figure is the median ns/op over the rounds, after one warm-up round.
 */
import { parseArgs } from 'node:util';
import { retry as cockatielRetry, handleAll, ConstantBackoff } from 'cockatiel';
import pRetry from 'p-retry';
import { retry, createRetry, Backoff } from '../src/retry/index.ts';
import { formatNs, median } from './stats.ts';

interface Contender {
  name: string;
  call(fn: () => Promise<number>): Promise<number>;
}

const steadfastOptions = { policy: Backoff.constant(0, 3) };
const prebuilt = createRetry(steadfastOptions);
const cockatielPolicy = cockatielRetry(handleAll, { maxAttempts: 3, backoff: new ConstantBackoff(0) });
const pRetryOptions = { retries: 3, minTimeout: 0, maxTimeout: 0 };

const contenders: Contender[] = [
  { name: 'steadfast retry(fn, options)', call: (fn) => retry(fn, steadfastOptions) },
  { name: 'steadfast retry.create(options)(fn)', call: (fn) => prebuilt(fn) },
  { name: 'cockatiel@3 policy.execute(fn)', call: (fn) => cockatielPolicy.execute(fn) },
  { name: 'p-retry@7 pRetry(fn, options)', call: (fn) => pRetry(fn, pRetryOptions) },
];

interface Scenario {
  name: string;
  /** A fresh function per call: `failures` rejections, then success. */
  make(): () => Promise<number>;
}

const boom = new Error('transient');
const scenarios: Scenario[] = [
  { name: 'always succeeds', make: () => async () => 1 },
  {
    name: 'fails twice, zero delay',
    make: () => {
      let n = 0;
      return async () => {
        if (++n <= 2) throw boom;
        return n;
      };
    },
  },
];

async function round(contender: Contender, scenario: Scenario, minMs: number): Promise<number> {
  let ops = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(minMs) * 1_000_000n;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < 64; i++) await contender.call(scenario.make());
    ops += 64;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / ops;
}

export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { rounds: { type: 'string', default: '7' }, ms: { type: 'string', default: '300' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (err) {
    console.error(`bench retry: ${(err as Error).message}`);
    return 2;
  }
  if (values.help) {
    console.log('Usage: npm run bench -- retry [--rounds 7] [--ms 300] [--json]\n\n' +
      'Median ns per awaited call of retry() vs cockatiel@3 and p-retry@7, for an always-succeeding\n' +
      'function and for one that fails twice with zero delay. --rounds: measured rounds per case;\n' +
      '--ms: minimum duration of a round; --json: one JSON object instead of the table.');
    return 0;
  }
  const rounds = Number(values.rounds);
  const minMs = Number(values.ms);
  if (!Number.isInteger(rounds) || rounds < 1 || !(minMs > 0)) {
    console.error('bench retry: --rounds must be an integer >= 1 and --ms a number > 0');
    return 2;
  }
  const results: { scenario: string; library: string; medianNs: number; opsPerSec: number; roundsNs: number[] }[] = [];
  for (const scenario of scenarios) {
    for (const c of contenders) await round(c, scenario, Math.min(minMs, 100));
    // Rounds interleave the libraries so drift on a shared machine hits all of them alike.
    const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
    for (let r = 0; r < rounds; r++) {
      for (const c of contenders) samples.get(c.name)!.push(await round(c, scenario, minMs));
    }
    for (const c of contenders) {
      const ns = median(samples.get(c.name)!);
      results.push({ scenario: scenario.name, library: c.name, medianNs: ns, opsPerSec: 1e9 / ns, roundsNs: samples.get(c.name)! });
    }
  }
  if (values.json) {
    console.log(JSON.stringify({ node: process.version, rounds, minMs, results }, null, 2));
    return 0;
  }
  console.log(`retry() per-call overhead, node ${process.version}, median of ${rounds} rounds of >= ${minMs} ms\n`);
  const header = ['scenario', 'library', 'median/op', 'ops/s', 'vs steadfast retry()'];
  const rows = results.map((r) => {
    const ours = results.find((x) => x.scenario === r.scenario && x.library === contenders[0]!.name)!;
    return [r.scenario, r.library, formatNs(r.medianNs), Math.round(r.opsPerSec).toLocaleString('en-US'), `${(r.medianNs / ours.medianNs).toFixed(2)}×`];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i >= 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('\n"vs steadfast retry()" is the other library\'s time per call divided by ours: above 1× means slower than steadfast.');
  return 0;
}
