/**
 * `npm run bench -- visibility`: list and count latency through a real server with a million
 * closed and ten thousand running workflows in its database. The runs are bulk-loaded as the
 * store writes them (bench/fixtures/bulk-load.ts: execution row, history, visibility row with a
 * registered `CustomerId` Keyword attribute), then a `steadfast server` process answers
 * `client.workflow.list` (one page of 100) and `client.workflow.count` over HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Client } from '../src/client/index.ts';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { PostgresStore } from '../src/store/postgres/postgres-store.ts';
import type { Store } from '../src/store/types.ts';
import type { CustomAttributeColumn } from '../src/store/visibility/layout.ts';
import { freePort, startServerProcess } from '../test/helpers/processes.ts';
import { pgSkipReason } from '../test/store/pg-helpers.ts';
import { bulkLoadPostgres, bulkLoadSqlite, type BulkLoad } from './fixtures/bulk-load.ts';

const HELP = `Usage: npm run bench -- visibility [--database sqlite|postgres|both] [--closed 1000000]
                                   [--running 10000] [--runs 200] [--json]

Bulk-loads --closed closed (a tenth of them failed) and --running running workflows of five
types, each with a CustomerId Keyword attribute, starts a server on the database, and times
each query --runs times after one warm-up call: p50 and p99 per query.`;

/** The queries of the goal: list p50 under 20 ms, count under 200 ms. */
const QUERIES: { kind: 'list' | 'count'; query: string }[] = [
  { kind: 'list', query: `WorkflowType = 'order' AND ExecutionStatus = 'Running'` },
  { kind: 'list', query: `WorkflowType = 'payment' AND ExecutionStatus = 'Failed'` },
  { kind: 'list', query: `CustomerId = 'c42'` },
  { kind: 'list', query: `CustomerId IN ('c1', 'c2') AND ExecutionStatus = 'Completed' ORDER BY StartTime DESC` },
  { kind: 'list', query: `StartTime BETWEEN '2026-10-31T18:00:00Z' AND '2026-10-31T19:00:00Z'` },
  { kind: 'list', query: `CloseTime > '2026-10-30T00:00:00Z' ORDER BY CloseTime DESC` },
  { kind: 'list', query: '' },
  { kind: 'count', query: 'GROUP BY ExecutionStatus' },
  { kind: 'count', query: '' },
  { kind: 'count', query: `WorkflowType = 'order' AND ExecutionStatus = 'Failed'` },
  { kind: 'count', query: `CustomerId = 'c42'` },
];

interface Row { database: string; kind: string; query: string; p50: number; p99: number; matched: number }

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Registers CustomerId through the store (as `steadfast search-attribute create` does) and returns its column. */
async function register(store: Store, readColumn: () => Promise<string>): Promise<CustomAttributeColumn> {
  await store.createSearchAttribute('default', { name: 'CustomerId', type: 'Keyword' });
  return { name: 'CustomerId', type: 'Keyword', column: await readColumn() };
}

async function loadSqlite(path: string, load: BulkLoad): Promise<void> {
  const store = await SqliteStore.open(path);
  let column: CustomAttributeColumn;
  try {
    column = await register(store, async () => {
      const db = new Database(path, { readonly: true });
      try {
        return (db.prepare(`SELECT column_name FROM search_attribute_columns WHERE namespace = 'default' AND name = 'CustomerId'`).get() as { column_name: string }).column_name;
      } finally {
        db.close();
      }
    });
  } finally {
    await store.close();
  }
  bulkLoadSqlite(path, { ...load, customerIdColumn: column });
}

async function loadPostgres(url: string, load: BulkLoad): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const store = await PostgresStore.open(url);
    let column: CustomAttributeColumn;
    try {
      column = await register(store, async () => (await client.query<{ column_name: string }>(
        `SELECT column_name FROM search_attribute_columns WHERE namespace = 'default' AND name = 'CustomerId'`)).rows[0]!.column_name);
    } finally {
      await store.close();
    }
    await bulkLoadPostgres(client, { ...load, customerIdColumn: column });
  } finally {
    await client.end();
  }
}

async function measure(database: string, label: string, load: BulkLoad, runs: number, json: boolean): Promise<Row[]> {
  const t0 = performance.now();
  if (label === 'sqlite') await loadSqlite(database.slice('sqlite:'.length), load);
  else await loadPostgres(database, load);
  if (!json) console.error(`${label}: loaded ${load.closed} closed and ${load.running} running workflows in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const server = await startServerProcess(database, await freePort());
  const client = new Client({ address: server.address });
  const rows: Row[] = [];
  try {
    for (const q of QUERIES) {
      const call = q.kind === 'list'
        ? async () => (await client.workflow.listPage({ query: q.query, pageSize: 100 })).executions.length
        : async () => {
          const r = await client.workflow.count({ query: q.query });
          return r.count;
        };
      const matched = await call();
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await call();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const row = { database: label, kind: q.kind, query: q.query || '(all)', p50: percentile(times, 50), p99: percentile(times, 99), matched };
      rows.push(row);
      if (!json) console.error(`  ${row.kind} ${row.query}: p50 ${row.p50.toFixed(2)} ms, p99 ${row.p99.toFixed(2)} ms (${matched})`);
    }
  } finally {
    await server.kill('SIGTERM');
  }
  return rows;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      database: { type: 'string', default: 'both' }, closed: { type: 'string', default: '1000000' }, running: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '200' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const int = (name: 'closed' | 'running' | 'runs', min: number) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${JSON.stringify(values[name])}`);
    return n;
  };
  if (!['sqlite', 'postgres', 'both'].includes(values.database!)) throw new Error(`--database must be sqlite, postgres or both, got ${JSON.stringify(values.database)}`);
  const load: BulkLoad = { closed: int('closed', 0), running: int('running', 0), prefix: 'vis' };
  const runs = int('runs', 1);
  const rows: Row[] = [];
  if (values.database !== 'postgres') {
    const dir = mkdtempSync(join(tmpdir(), 'steadfast-visbench-'));
    try {
      rows.push(...await measure(`sqlite:${join(dir, 'vis.sqlite')}`, 'sqlite', load, runs, values.json === true));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (values.database !== 'sqlite') {
    const skip = await pgSkipReason('the PostgreSQL visibility benchmark');
    if (skip) console.error(skip);
    else {
      const db = `steadfast_visbench_${Date.now()}`;
      const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${db}`);
      try {
        rows.push(...await measure(`postgres://postgres@127.0.0.1:5432/${db}`, 'postgres', load, runs, values.json === true));
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
        await admin.end();
      }
    }
  }
  const meta = { node: process.version, cores: cpus().length, load: loadavg()[0], closed: load.closed, running: load.running, runs };
  if (values.json) {
    console.log(JSON.stringify({ ...meta, rows }, null, 2));
    return 0;
  }
  console.log(`visibility benchmark: ${load.closed} closed + ${load.running} running workflows, ${runs} calls per query through a server process ` +
    `(${meta.cores} cores, node ${meta.node}, load average ${meta.load!.toFixed(1)})`);
  console.log('database  call   p50 ms   p99 ms  matched  query');
  for (const r of rows) {
    console.log(`${r.database.padEnd(8)}  ${r.kind.padEnd(5)}  ${r.p50.toFixed(2).padStart(7)}  ${r.p99.toFixed(2).padStart(7)}  ${String(r.matched).padStart(7)}  ${r.query}`);
  }
  return 0;
}
