/**
 * `npm run bench -- signals`: signals per second to ONE run, with the server, a worker running
 * the receiving workflow and the client sending the signals in separate processes (the client
 * over HTTP, as a user's), on SQLite and on PostgreSQL. Two phases, each on a run of its own:
 * `burst` sends every signal at once; `stream` keeps a steady number in flight. Each checks that
 * no call was refused and that every signal reached the workflow once, in the order the server
 * accepted them (its history's order).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort, spawnNode, startServerProcess } from '../test/helpers/processes.ts';

const HELP = `Usage: npm run bench -- signals [--database sqlite|postgres|both] [--burst 1000] [--stream 5000]
                                [--in-flight 50] [--batch on|off] [--json]

--burst N sends N signals to one run at once; --stream N sends N to another run, --in-flight at a
time. --batch off makes the client send each call as its own HTTP request (by default the calls
a client makes in one event-loop turn share one POST /api/v1/batch).
BENCH_PROFILE_DIR=<dir> writes the server's CPU profile there (node --cpu-prof) when it stops.`;

interface Figures {
  phase: string; count: number; inFlight: number; seconds: number; perSecond: number; p50: number; p99: number;
  errors: number; firstErrors: string[]; once: boolean; inOrder: boolean;
  cpuMs: { server?: number; worker?: number; load: number };
}

/** CPU time (user + system) a process has used, ms; undefined where /proc is not there. */
function cpuTimeMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

interface Options { burst: number; stream: number; inFlight: number; batch: boolean }

async function measure(database: string, o: Options): Promise<Figures[]> {
  const profile = process.env.BENCH_PROFILE_DIR;
  // The namespace's signal rate limit (2,400/s by default) would refuse what the engine takes: this measures the engine.
  const server = await startServerProcess(database, await freePort(), ['--signals-per-second', '100000'], profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []);
  const worker = spawnNode(['--import', 'tsx', 'bench/fixtures/worker.ts'], { STEADFAST_ADDRESS: server.address, BENCH_METRICS: '1' });
  try {
    await worker.waitFor(/worker ready/);
    const rows: Figures[] = [];
    // A first short burst compiles the paths (V8) before the measured phases.
    for (const [phase, count, inFlight, measured] of [['burst', 200, 200, false], ['burst', o.burst, o.burst, true], ['stream', o.stream, o.inFlight, true]] as const) {
      const before = { server: cpuTimeMs(server.proc.pid), worker: cpuTimeMs(worker.proc.pid) };
      const load = spawnNode(['--import', 'tsx', 'bench/fixtures/signal-load.ts', phase, String(count), String(inFlight)],
        { STEADFAST_ADDRESS: server.address, BENCH_BATCH: o.batch ? '1' : '0' });
      const code = await load.exited;
      if (code !== 0) throw new Error(`signal load generator failed (${code}):\n${load.output()}\nserver:\n${server.output()}\nworker:\n${worker.output()}`);
      const line = JSON.parse(load.output().trim().split('\n').pop()!) as Omit<Figures, 'cpuMs'> & { loadCpuMs: number };
      const per = (b: number | undefined, a: number | undefined) => (a === undefined || b === undefined ? undefined : (a - b) / count);
      const cpuMs: Figures['cpuMs'] = { load: line.loadCpuMs / count };
      const s = per(before.server, cpuTimeMs(server.proc.pid));
      const w = per(before.worker, cpuTimeMs(worker.proc.pid));
      if (s !== undefined) cpuMs.server = s;
      if (w !== undefined) cpuMs.worker = w;
      const { loadCpuMs: _, ...figures } = line;
      if (measured) rows.push({ ...figures, cpuMs });
    }
    return rows;
  } finally {
    await worker.kill('SIGTERM');
    await server.kill('SIGTERM');
  }
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      database: { type: 'string', default: 'both' }, burst: { type: 'string', default: '1000' }, stream: { type: 'string', default: '5000' },
      'in-flight': { type: 'string', default: '50' }, batch: { type: 'string', default: 'on' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const count = (name: 'burst' | 'stream' | 'in-flight') => {
    const n = Number(values[name]);
    // A run takes 10,000 signals (maxSignalsPerRun); the warm-up run and each phase have a run of their own.
    if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error(`--${name} must be an integer from 1 to 10000, got ${JSON.stringify(values[name])}`);
    return n;
  };
  if (!['sqlite', 'postgres', 'both'].includes(values.database!)) {
    throw new Error(`--database must be sqlite, postgres or both, got ${JSON.stringify(values.database)}`);
  }
  if (values.batch !== 'on' && values.batch !== 'off') throw new Error(`--batch must be on or off, got ${JSON.stringify(values.batch)}`);
  const o: Options = { burst: count('burst'), stream: count('stream'), inFlight: count('in-flight'), batch: values.batch === 'on' };
  const rows: (Figures & { database: string })[] = [];
  if (values.database === 'sqlite' || values.database === 'both') {
    const dir = mkdtempSync(join(tmpdir(), 'steadfast-bench-signals-'));
    try {
      for (const f of await measure(`sqlite:${join(dir, 'bench.sqlite')}`, o)) rows.push({ database: 'sqlite', ...f });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (values.database === 'postgres' || values.database === 'both') {
    const db = `steadfast_bench_signals_${Date.now()}`;
    const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${db}`);
    try {
      for (const f of await measure(`postgres://postgres@127.0.0.1:5432/${db}`, o)) rows.push({ database: 'postgres', ...f });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await admin.end();
    }
  }
  const failed = rows.some((r) => r.errors > 0 || !r.once || !r.inOrder);
  if (values.json) {
    console.log(JSON.stringify({ node: process.version, cores: cpus().length, batch: o.batch, rows }, null, 2));
    return failed ? 1 : 0;
  }
  console.log(`signal benchmark: signals to one run, server + worker + client as processes (${cpus().length} cores, node ${process.version}, batch ${values.batch})`);
  console.log('database  phase   signals  in flight  signals/s  p50 ms  p99 ms  errors  once  in order  CPU ms/signal: server  worker   load');
  const ms = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(2)).padStart(6);
  for (const r of rows) {
    console.log(`${r.database.padEnd(8)}  ${r.phase.padEnd(6)}  ${String(r.count).padStart(7)}  ${String(r.inFlight).padStart(9)}  ` +
      `${r.perSecond.toFixed(0).padStart(9)}  ${r.p50.toFixed(1).padStart(6)}  ${r.p99.toFixed(1).padStart(6)}  ${String(r.errors).padStart(6)}  ` +
      `${(r.once ? 'yes' : 'NO').padEnd(4)}  ${(r.inOrder ? 'yes' : 'NO').padEnd(8)}                ${ms(r.cpuMs.server)}  ${ms(r.cpuMs.worker)}  ${ms(r.cpuMs.load)}`);
    for (const e of r.firstErrors) console.log(`  ${r.database} ${r.phase}: ${e}`);
  }
  return failed ? 1 : 0;
}
