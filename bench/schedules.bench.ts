/**
 * `npm run bench -- schedules`: many schedules firing every second, each starting a workflow that
 * completes at once, with the server and a worker as processes. Every schedule's spec ends (`endAt`)
 * --seconds after the benchmark starts; once the actions drain the schedules are deleted and their
 * started workflows checked: their nominal times (carried in the workflow ids) must be every whole
 * second from the first fire after creation to `endAt`, each once. Reports the delay from nominal
 * time to workflow start (p50, p99, max).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'steadfast/client';
import { freePort, spawnNode, startServerProcess } from '../test/helpers/processes.ts';
import { dropSchema, freshSchema, PG_URL } from '../test/store/pg-helpers.ts';

const HELP = `Usage: npm run bench -- schedules [--database sqlite|postgres|both] [--schedules 1000]
                                  [--seconds 60] [--json]

Creates --schedules schedules (interval every 1s, overlap AllowAll, a workflow with no activities),
each ending (endAt) --seconds after the start, waits for the actions to drain, deletes the
schedules and checks every schedule's started workflows. BENCH_SERVER_NODE_ARGS (space-separated)
are passed to the server's node only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".`;

interface Figures {
  database: string; schedules: number; seconds: number;
  /** Workflows started by the schedules. */
  actions: number;
  /** Whole seconds missing inside a schedule's run of nominal times, summed over schedules. */
  gaps: number;
  /** Nominal times started more than once, summed over schedules. */
  duplicates: number;
  /** Whole seconds after a schedule's creation or before its endAt with no action (a gap at the ends). */
  missedAtEdges: number;
  /** The schedules' own counts of actions missed beyond the catchup window, skipped, or dropped from a full buffer. */
  missedCatchup: number; skipped: number; bufferOverruns: number;
  /** Schedules whose counters disagree with the workflows found, or that report skips or misses. */
  counterMismatches: number;
  /** Started workflows not Completed once the run drained. */
  notCompleted: number;
  /** Delay from nominal time to workflow start, ms. */
  p50: number; p99: number; max: number;
  actionsPerSecond: number;
  /** Seconds from endAt until every expected action was taken (or the 90 s wait ran out). */
  drainSeconds: number;
  /** CPU time from the first create until the actions drained, ms per action (Linux only). */
  cpuMs?: { server?: number; worker?: number };
  /** 1-minute load average at the start and at the end (endAt) of the firing phase. */
  load: [number, number];
}

function cpuTimeMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `fn` over `items` with at most `lanes` calls in flight. */
async function inLanes<T>(items: T[], lanes: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ID = /^(sb-\d+)-(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)$/;

async function measure(database: string, label: string, o: { schedules: number; seconds: number }): Promise<Figures> {
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS (space-separated) reaches only the server's node, e.g.
  // `--cpu-prof --cpu-prof-dir=/tmp/prof`: NODE_OPTIONS refuses --cpu-prof.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const server = await startServerProcess(database, port, [], nodeArgs);
  const worker = spawnNode(['--import', 'tsx', 'bench/fixtures/schedule-worker.ts'], { STEADFAST_ADDRESS: server.address });
  const client = new Client({ address: server.address });
  try {
    await worker.waitFor(/worker ready/);
    const ids = Array.from({ length: o.schedules }, (_, i) => `sb-${String(i).padStart(5, '0')}`);
    const created = new Map<string, number>();
    const load0 = loadavg()[0]!;
    const cpu0 = { server: cpuTimeMs(server.proc.pid), worker: cpuTimeMs(worker.proc.pid) };
    const endAt = Math.floor(Date.now() / 1000) * 1000 + o.seconds * 1000;
    await inLanes(ids, 20, async (id) => {
      await client.schedule.create({
        scheduleId: id, spec: { intervals: [{ every: '1s' }], endAt },
        action: { type: 'startWorkflow', workflowType: 'instant', taskQueue: 'bench-schedules', workflowId: id },
        policies: { overlap: 'AllowAll' },
      });
      created.set(id, Date.now());
    });
    const expected = (id: string) => Math.max(0, (endAt - firstExpected(id)) / 1000 + 1);
    const firstExpected = (id: string) => Math.floor(created.get(id)! / 1000) * 1000 + 1000;
    await sleep(Math.max(0, endAt - Date.now()));
    const load1 = loadavg()[0]!;
    // Drain: the late actions of the last seconds are still taken (within the catchup window).
    const counters = new Map<string, { actions: number; skipped: number; missedCatchup: number; bufferOverruns: number }>();
    for (let i = 0; i < 90; i++) {
      for await (const s of client.schedule.list({ pageSize: 1000 })) counters.set(s.scheduleId, s.counters);
      if (ids.every((id) => (counters.get(id)?.actions ?? 0) >= expected(id))) break;
      await sleep(1000);
    }
    const drainedAt = Date.now();
    const cpu1 = { server: cpuTimeMs(server.proc.pid), worker: cpuTimeMs(worker.proc.pid) };
    await inLanes(ids, 20, (id) => client.schedule.getHandle(id).delete());
    // Drain: wait until nothing started by a schedule is still running (at most 60 s).
    for (let i = 0; i < 60; i++) {
      const page = await client.workflow.listPage({ workflowType: 'instant', status: 'Running', pageSize: 1 });
      if (page.executions.length === 0) break;
      await sleep(1000);
    }
    const nominals = new Map<string, number[]>(ids.map((id) => [id, []]));
    const delays: number[] = [];
    let notCompleted = 0;
    for await (const e of client.workflow.list({ workflowType: 'instant', pageSize: 1000 })) {
      const m = ID.exec(e.workflowId);
      if (!m) throw new Error(`unexpected workflow id ${e.workflowId}`);
      const nominal = Date.parse(m[2]!);
      nominals.get(m[1]!)!.push(nominal);
      delays.push(e.startTime.getTime() - nominal);
      if (e.status !== 'Completed') notCompleted++;
    }
    let missedCatchup = 0, skipped = 0, bufferOverruns = 0;
    let actions = 0, gaps = 0, duplicates = 0, missedAtEdges = 0, counterMismatches = 0;
    for (const id of ids) {
      const ns = nominals.get(id)!.sort((a, b) => a - b);
      actions += ns.length;
      const distinct = new Set(ns).size;
      duplicates += ns.length - distinct;
      if (ns.length > 0) gaps += (ns.at(-1)! - ns[0]!) / 1000 + 1 - distinct;
      if (ns.length === 0) missedAtEdges += expected(id);
      else missedAtEdges += Math.max(0, (ns[0]! - firstExpected(id)) / 1000) + Math.max(0, (endAt - ns.at(-1)!) / 1000);
      const c = counters.get(id);
      missedCatchup += c?.missedCatchup ?? 0;
      skipped += c?.skipped ?? 0;
      bufferOverruns += c?.bufferOverruns ?? 0;
      if (!c || c.actions !== ns.length || c.skipped || c.missedCatchup || c.bufferOverruns) counterMismatches++;
    }
    delays.sort((a, b) => a - b);
    const per = (b: number | undefined, a: number | undefined) => (a === undefined || b === undefined || actions === 0 ? undefined : (a - b) / actions);
    const cpuMs: NonNullable<Figures['cpuMs']> = {};
    const s = per(cpu0.server, cpu1.server), w = per(cpu0.worker, cpu1.worker);
    if (s !== undefined) cpuMs.server = s;
    if (w !== undefined) cpuMs.worker = w;
    return {
      database: label, schedules: o.schedules, seconds: o.seconds, actions, gaps, duplicates, missedAtEdges, counterMismatches, notCompleted,
      missedCatchup, skipped, bufferOverruns,
      p50: percentile(delays, 50), p99: percentile(delays, 99), max: delays.at(-1) ?? NaN,
      actionsPerSecond: actions / o.seconds, drainSeconds: Math.max(0, drainedAt - endAt) / 1000, cpuMs, load: [load0, load1],
    };
  } finally {
    await worker.kill('SIGTERM');
    await server.kill('SIGTERM');
  }
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      database: { type: 'string', default: 'both' }, schedules: { type: 'string', default: '1000' },
      seconds: { type: 'string', default: '60' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const count = (name: 'schedules' | 'seconds') => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be an integer >= 1, got ${JSON.stringify(values[name])}`);
    return n;
  };
  if (!['sqlite', 'postgres', 'both'].includes(values.database!)) {
    throw new Error(`--database must be sqlite, postgres or both, got ${JSON.stringify(values.database)}`);
  }
  const o = { schedules: count('schedules'), seconds: count('seconds') };
  const rows: Figures[] = [];
  if (values.database === 'sqlite' || values.database === 'both') {
    const dir = mkdtempSync(join(tmpdir(), 'steadfast-bench-'));
    try {
      rows.push(await measure(`sqlite:${join(dir, 'bench.sqlite')}`, 'sqlite', o));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (values.database === 'postgres' || values.database === 'both') {
    const schema = freshSchema('steadfast_bench_schedules');
    const url = new URL(PG_URL);
    url.searchParams.set('schema', schema);
    try {
      rows.push(await measure(url.toString(), 'postgres', o));
    } finally {
      await dropSchema(schema);
    }
  }
  const ok = rows.every((r) => r.gaps === 0 && r.duplicates === 0 && r.missedAtEdges === 0 && r.counterMismatches === 0 && r.notCompleted === 0);
  if (values.json) {
    console.log(JSON.stringify({ node: process.version, cores: cpus().length, ok, rows }, null, 2));
    return ok ? 0 : 1;
  }
  console.log(`schedules benchmark: interval 1s, AllowAll, a workflow with no activities; server + worker as processes (${cpus().length} cores, node ${process.version})`);
  console.log('database  schedules  seconds  actions  actions/s  gaps  dups  missed at edges  counter mismatches  missed catchup  not completed  delay p50 ms  p99 ms  max ms  drain s  CPU ms/action: server  worker  load avg');
  const ms = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(2)).padStart(6);
  for (const r of rows) {
    console.log(`${r.database.padEnd(8)}  ${String(r.schedules).padStart(9)}  ${String(r.seconds).padStart(7)}  ${String(r.actions).padStart(7)}  ` +
      `${r.actionsPerSecond.toFixed(0).padStart(9)}  ${String(r.gaps).padStart(4)}  ${String(r.duplicates).padStart(4)}  ${String(r.missedAtEdges).padStart(15)}  ` +
      `${String(r.counterMismatches).padStart(18)}  ${String(r.missedCatchup).padStart(14)}  ${String(r.notCompleted).padStart(13)}  ${r.p50.toFixed(0).padStart(12)}  ${r.p99.toFixed(0).padStart(6)}  ` +
      `${r.max.toFixed(0).padStart(6)}  ${r.drainSeconds.toFixed(1).padStart(7)}                 ${ms(r.cpuMs?.server)}  ${ms(r.cpuMs?.worker)}  ${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)}`);
  }
  return ok ? 0 : 1;
}
