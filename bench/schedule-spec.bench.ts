/**
 * `npm run bench -- schedule-spec [--rounds 7] [--ms 200] [--json]`: the cost of next-fire
 * computation, per call, for the specs a server evaluates at every fire (the schedules benchmark
 * fires 1,000 schedules a second), and of compiling a spec and listing the next 10 (describe).
 * Each call starts where the previous one ended, walking forward through time, so caches of
 * past answers cannot help. The figure is the median ns per call over the rounds.
 */
import { parseArgs } from 'node:util';
import { compileScheduleSpec, parseCronSchedule } from '../src/schedule/index.ts';
import { formatNs, median } from './stats.ts';

interface Case {
  name: string;
  /** Performs one operation starting at `t`, returns the next `t`. */
  step(t: number): number;
}

const START = Date.parse('2024-01-01T00:00:00Z');
const wrap = (next: number | null, t: number) => (next === null || next > START + 50 * 365 * 86_400_000 ? START : Math.max(next, t + 1));

const cronUtc = parseCronSchedule('*/5 * * * *');
const cronNy = parseCronSchedule('CRON_TZ=America/New_York 30 2 * * *');
const cronEvery = parseCronSchedule('@every 1s');
const everySecond = compileScheduleSpec({ intervals: [{ every: '1s' }], jitter: '500ms' });
const calendarNy = compileScheduleSpec({
  calendars: [{ dayOfWeek: 'Mon-Fri', hour: '9-17', minute: '*/15' }], skip: [{ month: 'Dec', dayOfMonth: 25, hour: '*', minute: '*', second: '*' }],
  timezone: 'America/New_York', jitter: '1m',
});
const mixed = compileScheduleSpec({ cronExpressions: ['0 12 * * Mon-Fri', '@every 6h/5h'], calendars: [{ dayOfMonth: 1, hour: 3 }] });
const specInput = { calendars: [{ dayOfWeek: 'Mon-Fri', hour: '9-17', minute: '*/15' }], cronExpressions: ['CRON_TZ=America/New_York 30 2 * * *'] };

const cases: Case[] = [
  { name: 'cron */5 * * * * (UTC): next', step: (t) => wrap(cronUtc.next(t), t) },
  { name: 'cron CRON_TZ=America/New_York 30 2 * * *: next', step: (t) => wrap(cronNy.next(t), t) },
  { name: 'cron @every 1s: next', step: (t) => wrap(cronEvery.next(t), t) },
  { name: 'spec every 1s, jitter 500ms: nextAction', step: (t) => wrap(everySecond.nextAction(t, 'bench-1')?.nominal ?? null, t) },
  { name: 'spec calendar New York + skip + jitter: nextAction', step: (t) => wrap(calendarNy.nextAction(t, 'bench-2')?.nominal ?? null, t) },
  { name: 'spec 2 cron strings + calendar: nextNominal', step: (t) => wrap(mixed.nextNominal(t), t) },
  { name: 'compileScheduleSpec (calendar + cron string)', step: (t) => (compileScheduleSpec(specInput), t) },
  { name: 'describe: upcoming(10), calendar New York', step: (t) => wrap(calendarNy.upcoming(t, 10, 'bench-3').at(-1)?.nominal ?? null, t) },
];

function round(c: Case, minMs: number): number {
  let ops = 0;
  let t = START;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(minMs) * 1_000_000n;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < 256; i++) t = c.step(t);
    ops += 256;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / ops;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { rounds: { type: 'string', default: '7' }, ms: { type: 'string', default: '200' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log('Usage: npm run bench -- schedule-spec [--rounds 7] [--ms 200] [--json]\n\n' +
      'Median ns per call of next-fire computation for cron schedules and schedule specs.\n' +
      '--rounds: measured rounds per case; --ms: minimum duration of a round; --json: JSON instead of the table.');
    return 0;
  }
  const rounds = Number(values.rounds);
  const minMs = Number(values.ms);
  if (!Number.isInteger(rounds) || rounds < 1 || !(minMs > 0)) throw new Error('--rounds must be an integer >= 1 and --ms a number > 0');
  const results = cases.map((c) => {
    round(c, Math.min(minMs, 100));
    const samples = Array.from({ length: rounds }, () => round(c, minMs));
    return { case: c.name, medianNs: median(samples), callsPerSec: Math.round(1e9 / median(samples)) };
  });
  if (values.json) {
    console.log(JSON.stringify({ node: process.version, rounds, minMs, results }, null, 2));
    return 0;
  }
  console.log(`next-fire computation, node ${process.version}, median of ${rounds} rounds of >= ${minMs} ms\n`);
  const width = Math.max(...results.map((r) => r.case.length));
  for (const r of results) {
    console.log(`${r.case.padEnd(width)}  ${formatNs(r.medianNs).padStart(10)}  ${r.callsPerSec.toLocaleString('en-US').padStart(12)} calls/s`);
  }
  return 0;
}
