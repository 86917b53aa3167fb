import { parseArgs } from 'node:util';
import type { CommandSpec } from './command-spec.ts';
import { flagErrorText, UsageError } from './args.ts';
import {
  Backoff, RetryPolicy, resolveRetryPolicy, temporalSchedule, simulateTimeline, delayPercentiles, isRandomized, randomSeed,
  formatMs, toMs, ValidationError, HORSIES_JITTER, type BackoffSchedule, type Duration, type HorsiesInterval,
} from '../retry/index.ts';

const STRATEGIES = ['temporal', 'fixed', 'exponential', 'horsies-exponential', 'constant', 'linear', 'decorrelated-jitter', 'aws-jitter'] as const;
type Strategy = (typeof STRATEGIES)[number];

/** Flags each strategy reads, besides the common ones. */
const FLAGS: Record<Strategy, readonly string[]> = {
  temporal: ['initial', 'coefficient', 'max-interval', 'max-attempts', 'count'],
  fixed: ['intervals', 'count'],
  'horsies-exponential': ['initial', 'count'],
  constant: ['initial', 'count', 'fast-first', 'ceiling'],
  linear: ['initial', 'factor', 'count', 'fast-first', 'ceiling'],
  exponential: ['initial', 'factor', 'count', 'fast-first', 'ceiling'],
  'decorrelated-jitter': ['median', 'count', 'fast-first', 'ceiling'],
  'aws-jitter': ['min', 'max', 'count', 'fast-first', 'ceiling'],
};
const COMMON = new Set(['strategy', 'jitter', 'no-jitter', 'seed', 'json', 'samples', 'help']);

const HELP = `Usage: steadfast retry simulate [--strategy NAME] [flags]

Prints a retry policy's schedule: each attempt, the delay before it, and the time since the
first attempt (attempts assumed to fail at once). Durations are milliseconds or strings such
as 200ms, 1.5s, 5m, "30 seconds", "1 minute", 2h, 1d, 1w. horsies strategies count bare
numbers in seconds, as horsies does (--intervals 60,300,900 is 1, 5 and 15 minutes).

Strategies and their flags (defaults in brackets):
  temporal             Temporal/Cadence: min(initial x coefficient^(n-1), max-interval)
                         --initial [1s] --coefficient [2] --max-interval [100 x initial]
                         --max-attempts [0 = unlimited; 1 = no retries]
                         --count [10]  retries to show when attempts are unlimited
  fixed                horsies RetryPolicy.fixed: --intervals 60,300,900 (seconds, one per retry)
                         --count  must equal the number of intervals if given
  horsies-exponential  horsies RetryPolicy.exponential: initial x 2^(n-1)
                         --initial [30 = 30 s] --count [5] (max retries, 1-20)
  constant             Polly ConstantBackoff: --initial [200ms] --count [5]
  linear               Polly LinearBackoff: initial x (1 + factor x (n-1))
                         --initial [100ms] --factor [1, >= 0] --count [5]
  exponential          Polly ExponentialBackoff: initial x factor^(n-1)
                         --initial [100ms] --factor [2, >= 1] --count [5]
  decorrelated-jitter  Polly DecorrelatedJitterBackoffV2: --median [1s] --count [5]
  aws-jitter           Polly AwsDecorrelatedJitterBackoff: --min [10ms] --max [100ms] --count [5]
Polly strategies also take --fast-first (first retry at once) and --ceiling DURATION.

Common flags:
  --jitter [FRACTION]  spread each delay by +/-FRACTION (bare --jitter: ${HORSIES_JITTER}). Default: on
                       (+/-25 %) for fixed and horsies-exponential, off for the others.
  --no-jitter          turn jitter off
  --seed N             seed of the random draws (same seed, same delays); default: random, printed
  --samples N          for a jittered policy: p5/p50/p95 of each retry's delay over N runs, with a chart
  --json               print one JSON object ({ strategy, seed, delaysMs, attempts, ... })
  --help               this text

Example:
  steadfast retry simulate --strategy temporal --initial 1s --coefficient 2 --max-interval 30s --max-attempts 6

Exit codes: 0 ok, 2 bad flags.`;

/**
 * Prepares argv for parseArgs: `--jitter` takes an optional value, so it gets an explicit one;
 * a negative number after a flag is that flag's value (parseArgs would call it ambiguous), so
 * that `--count -1` reaches validation and gets its own message.
 */
function normalizeArgv(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (arg === '--jitter') out.push(next !== undefined && /^\d*\.?\d+$/.test(next) ? `--jitter=${argv[++i]}` : `--jitter=${HORSIES_JITTER}`);
    else if (arg.startsWith('--') && !arg.includes('=') && next !== undefined && /^-\d/.test(next)) out.push(`${arg}=${argv[++i]}`);
    else out.push(arg);
  }
  return out;
}

function num(flag: string, text: string | undefined, fallback: number, integer = false): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${flag} must be ${integer ? 'an integer' : 'a number'}, got "${text}"`);
  }
  return n;
}

function duration(flag: string, text: string | undefined, fallback: Duration): number {
  return toMs((text ?? fallback) as Duration, `--${flag}`);
}

/** A horsies interval from the command line: a bare number counts seconds, as in horsies. */
function horsiesInterval(text: string): HorsiesInterval {
  return /^\d*\.?\d+$/.test(text) ? Number(text) : text as HorsiesInterval;
}

type Values = Record<string, string | boolean | undefined>;

function buildSchedule(strategy: Strategy, v: Values, jitter: number | undefined, seed: number): { schedule: BackoffSchedule; show: number } {
  const s = (k: string) => v[k] as string | undefined;
  const count = (fallback: number) => {
    const n = num('count', s('count'), fallback, true);
    if (n < 0) throw new UsageError(`--count must be >= 0, got ${n}`);
    return n;
  };
  const polly = { fastFirst: v['fast-first'] === true, seed, jitter: jitter ?? false, ...(s('ceiling') !== undefined ? { ceiling: duration('ceiling', s('ceiling'), 0) } : {}) };
  switch (strategy) {
    case 'temporal': {
      const policy = resolveRetryPolicy({
        initialInterval: duration('initial', s('initial'), '1s'),
        backoffCoefficient: num('coefficient', s('coefficient'), 2),
        ...(s('max-interval') !== undefined ? { maximumInterval: duration('max-interval', s('max-interval'), 0) } : {}),
        maximumAttempts: num('max-attempts', s('max-attempts'), 0, true),
        jitter: jitter ?? 0,
        seed,
      }, 'temporal');
      const schedule = temporalSchedule(policy);
      return { schedule, show: Number.isFinite(schedule.maxRetries) ? Math.min(schedule.maxRetries, count(Infinity)) : count(10) };
    }
    case 'fixed': {
      if (s('intervals') === undefined) throw new UsageError('--strategy fixed needs --intervals, e.g. --intervals 60,300,900 (seconds)');
      const intervals = s('intervals')!.split(',').map((t) => horsiesInterval(t.trim()));
      const schedule = RetryPolicy.fixed(intervals, {
        jitter: jitter ?? true, seed, ...(s('count') !== undefined ? { maxRetries: count(0) } : {}),
      });
      return { schedule, show: schedule.maxRetries };
    }
    case 'horsies-exponential': {
      const schedule = RetryPolicy.exponential({ base: horsiesInterval(s('initial') ?? '30'), maxRetries: count(5), jitter: jitter ?? true, seed });
      return { schedule, show: schedule.maxRetries };
    }
    case 'constant':
      return withShow(Backoff.constant(duration('initial', s('initial'), '200ms'), count(5), polly));
    case 'linear':
      return withShow(Backoff.linear(duration('initial', s('initial'), '100ms'), count(5), { ...polly, factor: num('factor', s('factor'), 1) }));
    case 'exponential':
      return withShow(Backoff.exponential(duration('initial', s('initial'), '100ms'), count(5), { ...polly, factor: num('factor', s('factor'), 2) }));
    case 'decorrelated-jitter':
      return withShow(Backoff.decorrelatedJitterV2(duration('median', s('median'), '1s'), count(5), polly));
    case 'aws-jitter':
      return withShow(Backoff.awsDecorrelatedJitter(duration('min', s('min'), '10ms'), duration('max', s('max'), '100ms'), count(5), polly));
  }
}

function withShow(schedule: BackoffSchedule): { schedule: BackoffSchedule; show: number } {
  return { schedule, show: schedule.maxRetries };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A horizontal range bar per retry: `=` from p5 to p95, `|` at p50, on one scale for all rows. */
function chart(rows: { retry: number; p5: number; p50: number; p95: number }[], width = 48): string {
  const top = Math.max(...rows.map((r) => r.p95), 1);
  const at = (ms: number) => Math.min(width - 1, Math.round((ms / top) * (width - 1)));
  const lines = rows.map((r) => {
    const cells = Array<string>(width).fill(' ');
    for (let i = at(r.p5); i <= at(r.p95); i++) cells[i] = '=';
    cells[at(r.p50)] = '|';
    return `retry ${String(r.retry).padStart(2)} ${cells.join('')}`;
  });
  return [...lines, `         0${' '.repeat(Math.max(1, width - formatMs(top).length - 1))}${formatMs(top)}`,
    '         = p5..p95   | median'].join('\n');
}

const OPTIONS = {
  strategy: { type: 'string' }, initial: { type: 'string' }, coefficient: { type: 'string' }, 'max-interval': { type: 'string' },
  'max-attempts': { type: 'string' }, intervals: { type: 'string' }, factor: { type: 'string' }, count: { type: 'string' },
  median: { type: 'string' }, min: { type: 'string' }, max: { type: 'string' }, ceiling: { type: 'string' },
  'fast-first': { type: 'boolean' }, seed: { type: 'string' }, jitter: { type: 'string' }, 'no-jitter': { type: 'boolean' },
  json: { type: 'boolean' }, samples: { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const;

async function simulate(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: normalizeArgv(argv), strict: true, allowPositionals: false, options: OPTIONS });
  } catch (err) {
    throw new UsageError(flagErrorText((err as Error).message, OPTIONS));
  }
  const { values: v } = parsed;
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  const strategy = (v.strategy ?? 'temporal') as Strategy;
  if (!STRATEGIES.includes(strategy)) throw new UsageError(`--strategy must be one of ${STRATEGIES.join(', ')}, got "${v.strategy}"`);
  for (const [flag, value] of Object.entries(v)) {
    if (value !== undefined && !COMMON.has(flag) && !FLAGS[strategy].includes(flag)) {
      throw new UsageError(`--${flag} does not apply to --strategy ${strategy} (it takes ${FLAGS[strategy].map((f) => `--${f}`).join(', ')})`);
    }
  }
  if (v.jitter !== undefined && v['no-jitter']) throw new UsageError('--jitter and --no-jitter cannot be combined');
  const jitter = v['no-jitter'] ? 0 : v.jitter === undefined ? undefined : num('jitter', v.jitter, 0);
  if (jitter !== undefined && !(jitter >= 0 && jitter <= 1)) throw new UsageError(`--jitter must be a fraction between 0 and 1, got ${v.jitter}`);
  const seed = num('seed', v.seed, randomSeed(), true);
  const samples = v.samples === undefined ? undefined : num('samples', v.samples, 0, true);
  if (samples !== undefined && (samples < 1 || samples > 1_000_000)) throw new UsageError(`--samples must be from 1 to 1000000, got ${samples}`);

  const { schedule, show } = buildSchedule(strategy, v, jitter, seed);
  const rows = simulateTimeline(schedule, show, seed);
  const randomized = isRandomized(schedule);
  const spread = samples !== undefined && randomized ? delayPercentiles(schedule, show, samples, seed) : undefined;
  if (v.json) {
    console.log(JSON.stringify({
      strategy, seed, randomized, maxRetries: Number.isFinite(schedule.maxRetries) ? schedule.maxRetries : null,
      jitter: schedule.jitter, delaysMs: rows.slice(1).map((r) => r.delayMs), attempts: rows,
      ...(spread ? { samples, percentiles: spread } : {}),
    }));
    return 0;
  }
  const limit = Number.isFinite(schedule.maxRetries) ? `${schedule.maxRetries} retries` : `unlimited attempts, first ${show} retries shown`;
  const jitterText = schedule.jitter > 0 ? `, jitter ±${Math.round(schedule.jitter * 1000) / 10}%` : '';
  console.log(`${strategy}: ${limit}${jitterText}${randomized ? `, seed ${seed}` : ''}\n`);
  console.log(table(['attempt', 'delay before', 'since first attempt', 'delay ms'],
    rows.map((r) => [String(r.attempt), r.attempt === 1 ? '-' : formatMs(r.delayMs), formatMs(r.sinceFirstMs), r.attempt === 1 ? '-' : String(r.delayMs)])));
  if (samples !== undefined && !randomized) console.log('\n(--samples ignored: this policy has no jitter, every run is the same)');
  if (spread) {
    console.log(`\nDelay spread over ${samples} runs:\n`);
    console.log(table(['retry', 'p5', 'p50', 'p95'], spread.map((p) => [String(p.retry), formatMs(p.p5), formatMs(p.p50), formatMs(p.p95)])));
    console.log(`\n${chart(spread)}`);
  }
  return 0;
}

/** `steadfast retry simulate`. */
export const retrySimulateCommand = {
  name: 'retry simulate',
  summary: 'Print a retry policy\'s schedule (Temporal, horsies or Polly strategies), with jitter percentiles',
  async run(argv) {
    try {
      return await simulate(argv);
    } catch (err) {
      const usage = err instanceof UsageError || err instanceof ValidationError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
      if (!usage) throw err;
      console.error(`steadfast retry simulate: ${(err as Error).message} (run \`steadfast retry simulate --help\` for the flags)`);
      return 2;
    }
  },
} satisfies CommandSpec;
