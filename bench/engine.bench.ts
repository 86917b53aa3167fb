/**
 * `npm run bench -- engine`: workflows per second and start-to-result latency of a workflow
 * that runs one activity and of one that runs five in a row, with the server, the worker and
 * the load generator in separate processes, on SQLite (synchronous=FULL) and on PostgreSQL.
 * On PostgreSQL it also reports the CPU of the database's backends and the statements and
 * transactions the server sent, per workflow.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort, spawnNode, startServerProcess, type Child } from '../test/helpers/processes.ts';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { hashApiKey, newApiKey } from '../src/server/index.ts';
import { PostgresStore } from '../src/store/postgres/postgres-store.ts';
import { bulkLoadPostgres, bulkLoadSqlite } from './fixtures/bulk-load.ts';
import { compileSrc } from '../scripts/compile-src.mjs';

const HELP = `Usage: npm run bench -- engine [--database sqlite|postgres|both] [--workload one|five|local|local5|both]
                               [--workflows 3000] [--concurrency 200] [--idle 200] [--metrics on|off]
                               [--security on|off] [--eager on|off] [--topology server|embedded]
                               [--preload 0] [--warmup 200] [--code built|source] [--json]

--workload one runs oneActivity, five runs fiveActivities (five activities one after another),
local runs oneLocalActivity and local5 fiveLocalActivities (the same as local activities);
both runs each on a fresh database and server, after the same warm-up.
--warmup N runs N one-activity workflows, 50 at a time, before the measured phases
(the server's and the worker's code is compiled by V8 as it runs: on a 2-core machine the idle
latency still falls after several thousand workflows).
--preload N bulk-loads N completed one-activity workflows (bench/fixtures/bulk-load.ts) before
the server starts, to measure the cost as work grows.
--metrics off runs the server with --no-metrics and the worker without a metrics registry
(both are on by default, as in production).
--security on runs the server with an API-key file instead of --insecure, and the worker and the
load generator send a key (every call authenticated and authorized); task tokens are signed
either way. Off by default.
--eager on runs a worker inside the load generator and starts each workflow with
requestEagerStart: its first workflow task comes back with the start's answer and runs there,
with no poll between (as an application that starts and runs workflows in one process). The
worker process still runs, for the tasks that follow. Off by default.
--topology embedded runs no server and no worker process: the load generator opens the engine on
the database itself (Engine.open), runs a worker beside it and starts every workflow eagerly, as
an application that embeds steadfast the way DBOS is embedded in its application. Each phase is
one process, which first runs --warmup workflows of the phase's own workload untimed, at the
phase's own concurrency (one at a time before the idle phase, --concurrency at a time before the
throughput phase), as DBOS's benchmark warms up. --security and --metrics do not apply. Default:
server.
--code built (the default) runs steadfast as an installed package runs it: src/ compiled to
JavaScript once, as npm run build compiles it, while the benchmark's own fixtures stay TypeScript.
--code source runs src/ through tsx, which compiles with keepNames and so wraps every function
the engine creates in a call that names it.`;

const WORKFLOW_TYPES = { one: 'oneActivity', five: 'fiveActivities', local: 'oneLocalActivity', local5: 'fiveLocalActivities' } as const;
type Workload = keyof typeof WORKFLOW_TYPES;

interface Figures {
  workload: Workload; phase: string; count: number; concurrency: number; seconds: number; perSecond: number; p50: number; p99: number;
  /**
   * CPU time per workflow, ms, over the phase (user + system; Linux only for server, worker and
   * PostgreSQL): each process's, and `postgres` for the backends serving the benchmark's database.
   */
  cpuMs?: { server?: number; worker?: number; load: number; postgres?: number };
  /** PostgreSQL only: statements (each a round trip) and transactions the server sent, per workflow. */
  pg?: { statements: number; transactions: number };
}

/** CPU time (user + system, all threads) a process has used, ms; undefined where /proc is not there. */
function cpuTimeMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/**
 * CPU time of the PostgreSQL backends serving one database, sampled while a phase runs: a
 * backend that exits during the phase (the pool closed an idle connection) keeps its last sample.
 */
class BackendCpu {
  readonly #seen = new Map<number, { first: number; last: number }>();
  #timer: NodeJS.Timeout | undefined;
  constructor(readonly admin: pg.Client, readonly database: string) {}

  async #sample(): Promise<void> {
    const pids = (await this.admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [this.database])).rows.map((r: { pid: number }) => r.pid);
    for (const pid of pids) {
      const ms = cpuTimeMs(pid);
      if (ms === undefined) continue;
      const s = this.#seen.get(pid);
      if (s) s.last = ms;
      else this.#seen.set(pid, { first: this.#started ? 0 : ms, last: ms });
    }
  }

  #started = false;
  async start(): Promise<void> {
    this.#seen.clear();
    this.#started = false;
    await this.#sample();
    this.#started = true;
    this.#timer = setInterval(() => void this.#sample().catch(() => {}), 250);
  }

  /** CPU ms used since start() by every backend seen. */
  async stop(): Promise<number> {
    clearInterval(this.#timer);
    await this.#sample();
    let total = 0;
    for (const s of this.#seen.values()) total += s.last - s.first;
    return total;
  }
}

const COUNTER = new URL('./fixtures/pg-count.ts', import.meta.url).pathname;

/** The server's running totals of statements and transactions (bench/fixtures/pg-count.ts). */
async function pgCounts(server: Child): Promise<{ statements: number; transactions: number }> {
  const seen = server.output().split('pg-count ').length;
  server.proc.kill('SIGUSR2');
  for (let i = 0; i < 200 && server.output().split('pg-count ').length === seen; i++) await new Promise((r) => setTimeout(r, 10));
  const last = server.output().split('pg-count ').pop()!.split('\n')[0]!;
  return JSON.parse(last) as { statements: number; transactions: number };
}

/**
 * Makes the processes this benchmark starts run src/ compiled to JavaScript (the layout of dist/,
 * beside it): the CLI through STEADFAST_COMPILED_CLI, and the fixtures' `steadfast/*` imports
 * through a tsconfig whose paths name the compiled files (TSX_TSCONFIG_PATH). Children inherit it.
 */
async function useBuiltCode(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const out = join(root, '.test-dist-bench');
  await compileSrc(root, out);
  const tsconfig = join(out, 'tsconfig.json');
  writeFileSync(tsconfig, JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true,
      baseUrl: '.', paths: { steadfast: ['./index.js'], 'steadfast/*': ['./*/index.js'] },
    },
  }));
  process.env.STEADFAST_COMPILED_CLI = join(out, 'cli', 'main.js');
  process.env.TSX_TSCONFIG_PATH = tsconfig;
}

interface Options {
  workflows: number; concurrency: number; idle: number; warmup: number; metrics: boolean; security: boolean; workloads: Workload[]; preload: number;
  eager: boolean; topology: 'server' | 'embedded';
}

/** An API-key file granting one key `system:admin`, written beside the database; returns the server flags and the key. */
function apiKeyFlags(dir: string): { args: string[]; key: string } {
  const key = newApiKey();
  const file = join(dir, 'api-keys.json');
  writeFileSync(file, JSON.stringify({ keys: [{ sha256: hashApiKey(key), identity: 'bench', permissions: ['system:admin'] }] }));
  return { args: ['--api-keys', file], key };
}

/** Migrates the database and bulk-loads `o.preload` completed workflows; returns the seconds it took. */
async function preload(database: string, o: Options): Promise<number> {
  const t0 = performance.now();
  if (database.startsWith('sqlite:')) {
    const path = database.slice('sqlite:'.length);
    await SqliteStore.open(path).close();
    bulkLoadSqlite(path, { closed: o.preload, running: 0 });
  } else {
    await (await PostgresStore.open(database)).close();
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      await bulkLoadPostgres(client, { closed: o.preload, running: 0 });
    } finally {
      await client.end();
    }
  }
  return (performance.now() - t0) / 1000;
}

/** The figures of one phase from the load generator's last line, with its CPU per workflow. */
function phaseFigures(load: Child, workload: Workload, phase: string, count: number): Figures {
  const line = JSON.parse(load.output().trim().split('\n').pop()!) as Figures & { loadCpuMs: number; eagerlyStarted: number };
  const { loadCpuMs, eagerlyStarted: _, ...figures } = line;
  return { ...figures, workload, phase, cpuMs: { load: loadCpuMs / count } };
}

/**
 * `--topology embedded`: each phase is one load-generator process with the engine and a worker
 * in it. It warms up, then runs the timed phase when told (SIGUSR1), so the PostgreSQL backends'
 * CPU and the statement counts (pg-count lines it prints before and after) cover that phase only.
 */
async function measureEmbedded(database: string, o: Options, pgDatabase?: { admin: pg.Client; name: string }): Promise<Figures[]> {
  const backends = pgDatabase ? new BackendCpu(pgDatabase.admin, pgDatabase.name) : undefined;
  const results: Figures[] = [];
  for (const workload of o.workloads) {
    for (const [phase, count, conc] of [['idle', o.idle, 1], ['throughput', o.workflows, o.concurrency]] as const) {
      const load = spawnNode(['--import', 'tsx', ...(pgDatabase ? ['--import', COUNTER] : []), 'bench/fixtures/load.ts', phase, String(count), String(conc),
        WORKFLOW_TYPES[workload]], { BENCH_DATABASE: database, BENCH_WARMUP: String(o.warmup) });
      await load.waitFor(/^warmed$/m, 600_000);
      await backends?.start();
      load.proc.kill('SIGUSR1');
      const code = await load.exited;
      if (code !== 0) throw new Error(`load generator failed (${code}):\n${load.output()}`);
      const row = phaseFigures(load, workload, phase, count);
      if (backends) row.cpuMs!.postgres = (await backends.stop()) / count;
      const counts = load.output().split('pg-count ').slice(1).map((l) => JSON.parse(l.split('\n')[0]!) as { statements: number; transactions: number });
      if (counts.length >= 2) {
        const [before, after] = counts.slice(-2) as [typeof counts[0], typeof counts[0]];
        row.pg = { statements: (after.statements - before.statements) / count, transactions: (after.transactions - before.transactions) / count };
      }
      results.push(row);
    }
  }
  return results;
}

async function measure(database: string, o: Options, pgDatabase?: { admin: pg.Client; name: string }): Promise<Figures[]> {
  if (o.preload > 0) {
    const seconds = await preload(database, o);
    console.error(`preloaded ${o.preload} completed workflows in ${seconds.toFixed(0)} s`);
  }
  if (o.topology === 'embedded') return measureEmbedded(database, o, pgDatabase);
  const port = await freePort();
  const keyDir = mkdtempSync(join(tmpdir(), 'steadfast-bench-keys-'));
  const auth = o.security ? apiKeyFlags(keyDir) : undefined;
  const credentials: Record<string, string> = auth ? { STEADFAST_API_KEY: auth.key } : {};
  const server = await startServerProcess(database, port, [...(o.metrics ? [] : ['--no-metrics']), ...(auth?.args ?? [])],
    pgDatabase ? ['--import', 'tsx', '--import', COUNTER] : []);
  const worker = spawnNode(['--import', 'tsx', 'bench/fixtures/worker.ts'], { STEADFAST_ADDRESS: server.address, BENCH_METRICS: o.metrics ? '1' : '0', ...credentials });
  const backends = pgDatabase ? new BackendCpu(pgDatabase.admin, pgDatabase.name) : undefined;
  try {
    await worker.waitFor(/worker ready/);
    const results: Figures[] = [];
    const phases: [Workload, string, number, number][] = o.warmup > 0 ? [['one', 'warmup', o.warmup, 50]] : [];
    for (const w of o.workloads) phases.push([w, 'idle', o.idle, 1], [w, 'throughput', o.workflows, o.concurrency]);
    for (const [workload, phase, count, conc] of phases) {
      const before = { server: cpuTimeMs(server.proc.pid), worker: cpuTimeMs(worker.proc.pid), pg: backends ? await pgCounts(server) : undefined };
      await backends?.start();
      const load = spawnNode(['--import', 'tsx', 'bench/fixtures/load.ts', phase === 'warmup' ? 'throughput' : phase, String(count), String(conc),
        WORKFLOW_TYPES[workload]], { STEADFAST_ADDRESS: server.address, BENCH_EAGER: o.eager && phase !== 'warmup' ? '1' : '0', ...credentials });
      const code = await load.exited;
      if (code !== 0) throw new Error(`load generator failed (${code}):\n${load.output()}\nserver:\n${server.output()}\nworker:\n${worker.output()}`);
      const per = (b: number | undefined, a: number | undefined) => (a === undefined || b === undefined ? undefined : (a - b) / count);
      const row = phaseFigures(load, workload, phase, count);
      const cpuMs = row.cpuMs!;
      const serverMs = per(before.server, cpuTimeMs(server.proc.pid));
      const workerMs = per(before.worker, cpuTimeMs(worker.proc.pid));
      if (serverMs !== undefined) cpuMs.server = serverMs;
      if (workerMs !== undefined) cpuMs.worker = workerMs;
      if (backends) cpuMs.postgres = (await backends.stop()) / count;
      if (before.pg) {
        const after = await pgCounts(server);
        row.pg = { statements: (after.statements - before.pg.statements) / count, transactions: (after.transactions - before.pg.transactions) / count };
      }
      if (phase !== 'warmup') results.push(row);
    }
    return results;
  } finally {
    await worker.kill('SIGTERM');
    await server.kill('SIGTERM');
    rmSync(keyDir, { recursive: true, force: true });
  }
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      database: { type: 'string', default: 'both' }, workload: { type: 'string', default: 'both' }, workflows: { type: 'string', default: '3000' },
      concurrency: { type: 'string', default: '200' }, idle: { type: 'string', default: '200' }, metrics: { type: 'string', default: 'on' },
      security: { type: 'string', default: 'off' }, eager: { type: 'string', default: 'off' }, topology: { type: 'string', default: 'server' },
      preload: { type: 'string', default: '0' }, warmup: { type: 'string', default: '200' }, code: { type: 'string', default: 'built' },
      json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const count = (name: 'workflows' | 'concurrency' | 'idle' | 'preload' | 'warmup', min = 1) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${JSON.stringify(values[name])}`);
    return n;
  };
  if (!['sqlite', 'postgres', 'both'].includes(values.database!)) {
    throw new Error(`--database must be sqlite, postgres or both, got ${JSON.stringify(values.database)}`);
  }
  for (const flag of ['metrics', 'security', 'eager'] as const) {
    if (values[flag] !== 'on' && values[flag] !== 'off') throw new Error(`--${flag} must be on or off, got ${JSON.stringify(values[flag])}`);
  }
  if (values.code !== 'built' && values.code !== 'source') throw new Error(`--code must be built or source, got ${JSON.stringify(values.code)}`);
  if (values.topology !== 'server' && values.topology !== 'embedded') throw new Error(`--topology must be server or embedded, got ${JSON.stringify(values.topology)}`);
  if (!['one', 'five', 'local', 'local5', 'both'].includes(values.workload!)) {
    throw new Error(`--workload must be one, five, local, local5 or both, got ${JSON.stringify(values.workload)}`);
  }
  const o: Options = {
    workflows: count('workflows'), concurrency: count('concurrency'), idle: count('idle'), warmup: count('warmup', 0), metrics: values.metrics === 'on', security: values.security === 'on', eager: values.eager === 'on',
    topology: values.topology,
    workloads: values.workload === 'both' ? ['one', 'five'] : [values.workload as Workload], preload: count('preload', 0),
  };
  if (values.code === 'built') await useBuiltCode();
  const rows: (Figures & { database: string })[] = [];
  // Each workload gets a fresh database and server, as the DBOS peer re-creates its database
  // before every run: PostgreSQL's autovacuum of one workload's thousands of runs would
  // otherwise land in the next workload's figures (measured: five activities at 289-308/s
  // after the one-activity phases against 365-374/s alone, the backends' CPU per workflow doubled).
  for (const workload of o.workloads) {
    const w = { ...o, workloads: [workload] };
    if (values.database === 'sqlite' || values.database === 'both') {
      const dir = mkdtempSync(join(tmpdir(), 'steadfast-bench-'));
      try {
        for (const f of await measure(`sqlite:${join(dir, 'bench.sqlite')}`, w)) rows.push({ database: 'sqlite', ...f });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    if (values.database === 'postgres' || values.database === 'both') {
      const db = `steadfast_bench_${Date.now()}`;
      const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${db}`);
      try {
        for (const f of await measure(`postgres://postgres@127.0.0.1:5432/${db}`, w, { admin, name: db })) rows.push({ database: 'postgres', ...f });
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
        await admin.end();
      }
    }
  }
  if (values.json) {
    console.log(JSON.stringify({ node: process.version, cores: cpus().length, code: values.code, topology: o.topology, preload: o.preload, metrics: o.metrics, security: o.security, rows }, null, 2));
    return 0;
  }
  const topology = o.topology === 'embedded' ? 'the engine, a worker and the load generator in one process, eager starts'
    : `server + worker + load generator as processes, metrics ${values.metrics}, security ${values.security}`;
  const code = values.code === 'built' ? 'src/ compiled to JavaScript' : 'src/ through tsx';
  console.log(`engine benchmark: workflows of one or five activities, ${topology}, ${code} (${cpus().length} cores, node ${process.version}, ${o.preload} workflows preloaded)`);
  console.log('database  workload  phase       workflows  in flight  workflows/s  p50 ms  p99 ms  CPU ms/workflow: server  worker    load  postgres' +
    '  statements/wf  transactions/wf');
  const ms = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(2)).padStart(6);
  for (const r of rows) {
    console.log(`${r.database.padEnd(8)}  ${r.workload.padEnd(8)}  ${r.phase.padEnd(10)}  ${String(r.count).padStart(9)}  ${String(r.concurrency).padStart(9)}  ` +
      `${r.perSecond.toFixed(0).padStart(11)}  ${r.p50.toFixed(1).padStart(6)}  ${r.p99.toFixed(1).padStart(6)}  ` +
      `                 ${ms(r.cpuMs?.server)}  ${ms(r.cpuMs?.worker)}  ${ms(r.cpuMs?.load)}    ${ms(r.cpuMs?.postgres)}` +
      `  ${(r.pg ? r.pg.statements.toFixed(1) : '-').padStart(13)}  ${(r.pg ? r.pg.transactions.toFixed(1) : '-').padStart(15)}`);
  }
  return 0;
}
