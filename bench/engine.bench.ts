/**
 * `npm run bench -- engine`: workflows per second and start-to-result latency of a workflow
 * that runs one activity, with the server, the worker and the load generator in separate
 * processes, on SQLite (synchronous=FULL) and on PostgreSQL.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort, spawnNode, startServerProcess } from '../test/helpers/processes.ts';

const HELP = `Usage: npm run bench -- engine [--database sqlite|postgres|both] [--workflows 3000]
                               [--concurrency 200] [--idle 200] [--metrics on|off] [--json]

--metrics off runs the server with --no-metrics and the worker without a metrics registry
(both are on by default, as in production).`;

interface Figures {
  phase: string; count: number; concurrency: number; seconds: number; perSecond: number; p50: number; p99: number;
  /** CPU time per workflow, ms, of each process over the phase (user + system; Linux only for server and worker). */
  cpuMs?: { server?: number; worker?: number; load: number };
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

async function measure(database: string, o: { workflows: number; concurrency: number; idle: number; metrics: boolean }): Promise<Figures[]> {
  const port = await freePort();
  const server = await startServerProcess(database, port, o.metrics ? [] : ['--no-metrics']);
  const worker = spawnNode(['--import', 'tsx', 'bench/fixtures/worker.ts'], { STEADFAST_ADDRESS: server.address, BENCH_METRICS: o.metrics ? '1' : '0' });
  try {
    await worker.waitFor(/worker ready/);
    const results: Figures[] = [];
    for (const [phase, count, conc] of [
      ['warmup', 200, 50], ['idle', o.idle, 1], ['throughput', o.workflows, o.concurrency],
    ] as const) {
      const before = { server: cpuTimeMs(server.proc.pid), worker: cpuTimeMs(worker.proc.pid) };
      const load = spawnNode(['--import', 'tsx', 'bench/fixtures/load.ts', phase === 'warmup' ? 'throughput' : phase, String(count), String(conc)],
        { STEADFAST_ADDRESS: server.address });
      const code = await load.exited;
      if (code !== 0) throw new Error(`load generator failed (${code}):\n${load.output()}\nserver:\n${server.output()}\nworker:\n${worker.output()}`);
      const per = (b: number | undefined, a: number | undefined) => (a === undefined || b === undefined ? undefined : (a - b) / count);
      const line = JSON.parse(load.output().trim().split('\n').pop()!) as Figures & { loadCpuMs: number };
      const cpuMs = { load: line.loadCpuMs / count } as NonNullable<Figures['cpuMs']>;
      const serverMs = per(before.server, cpuTimeMs(server.proc.pid));
      const workerMs = per(before.worker, cpuTimeMs(worker.proc.pid));
      if (serverMs !== undefined) cpuMs.server = serverMs;
      if (workerMs !== undefined) cpuMs.worker = workerMs;
      const { loadCpuMs: _, ...figures } = line;
      if (phase !== 'warmup') results.push({ ...figures, phase, cpuMs });
    }
    return results;
  } finally {
    await worker.kill('SIGTERM');
    await server.kill('SIGTERM');
  }
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      database: { type: 'string', default: 'both' }, workflows: { type: 'string', default: '3000' },
      concurrency: { type: 'string', default: '200' }, idle: { type: 'string', default: '200' }, metrics: { type: 'string', default: 'on' },
      json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const count = (name: 'workflows' | 'concurrency' | 'idle') => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be an integer >= 1, got ${JSON.stringify(values[name])}`);
    return n;
  };
  if (!['sqlite', 'postgres', 'both'].includes(values.database!)) {
    throw new Error(`--database must be sqlite, postgres or both, got ${JSON.stringify(values.database)}`);
  }
  if (values.metrics !== 'on' && values.metrics !== 'off') throw new Error(`--metrics must be on or off, got ${JSON.stringify(values.metrics)}`);
  const o = { workflows: count('workflows'), concurrency: count('concurrency'), idle: count('idle'), metrics: values.metrics === 'on' };
  const rows: (Figures & { database: string })[] = [];
  if (values.database === 'sqlite' || values.database === 'both') {
    const dir = mkdtempSync(join(tmpdir(), 'steadfast-bench-'));
    try {
      for (const f of await measure(`sqlite:${join(dir, 'bench.sqlite')}`, o)) rows.push({ database: 'sqlite', ...f });
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
      for (const f of await measure(`postgres://postgres@127.0.0.1:5432/${db}`, o)) rows.push({ database: 'postgres', ...f });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await admin.end();
    }
  }
  if (values.json) {
    console.log(JSON.stringify({ node: process.version, cores: cpus().length, rows }, null, 2));
    return 0;
  }
  console.log(`engine benchmark: one-activity workflow, server + worker + load generator as processes (${cpus().length} cores, node ${process.version}, metrics ${values.metrics})`);
  console.log('database  phase       workflows  in flight  workflows/s  p50 ms  p99 ms  CPU ms/workflow: server  worker  load');
  const ms = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(2)).padStart(6);
  for (const r of rows) {
    console.log(`${r.database.padEnd(8)}  ${r.phase.padEnd(10)}  ${String(r.count).padStart(9)}  ${String(r.concurrency).padStart(9)}  ` +
      `${r.perSecond.toFixed(0).padStart(11)}  ${r.p50.toFixed(1).padStart(6)}  ${r.p99.toFixed(1).padStart(6)}  ` +
      `                 ${ms(r.cpuMs?.server)}  ${ms(r.cpuMs?.worker)}  ${ms(r.cpuMs?.load)}`);
  }
  return 0;
}
