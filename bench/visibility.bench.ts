/**
 * `npm run bench -- visibility [--rows 100000] [--runs 21] [--store both|sqlite|postgres] [--json]`:
 * time of compiled visibility queries (compile + execute + read one page of 100, or a count)
 * on a generated table with the layout of docs/visibility.md, in SQLite (a temp file, WAL) and
 * PostgreSQL (a fresh schema). The figure is the median (p50) and p95 over `--runs` runs,
 * after one warm-up run.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import {
  assignAttributeColumn, compileCountQuery, compileListQuery, visibilityRow, VISIBILITY_TABLE,
  type CustomAttributeColumn, type VisibilityRecord,
} from '../src/store/visibility/index.ts';
import { unitRandom } from '../src/retry/random.ts';
import { freshSchema, pgSkipReason } from '../test/store/pg-helpers.ts';
import { openPostgresBackend, openSqliteBackend, type Backend } from '../test/visibility/backends.ts';

const ATTRIBUTES: CustomAttributeColumn[] = [];
for (const d of [{ name: 'CustomerId', type: 'Keyword' }, { name: 'Notes', type: 'Text' }, { name: 'Tags', type: 'KeywordList' }] as const) {
  ATTRIBUTES.push(assignAttributeColumn(ATTRIBUTES, d));
}
const T0 = Date.UTC(2026, 10, 1);
const STATUSES = ['Completed', 'Completed', 'Completed', 'Completed', 'Failed', 'Running', 'Running', 'Canceled', 'TimedOut', 'Terminated'] as const;
const TYPES = ['order', 'payment', 'shipment', 'refund', 'invoice'];
const TAGS = ['red', 'blue', 'green', 'yellow', 'black'];
const WORDS = ['urgent', 'normal', 'retry', 'customer', 'call', 'back', 'review', 'late'];

function record(i: number): VisibilityRecord {
  const r = (stream: number) => unitRandom(42, i, stream);
  const status = STATUSES[Math.floor(r(1) * STATUSES.length)]!;
  const startTime = T0 - Math.floor(r(2) * 90 * 86_400_000);
  return {
    namespace: 'default', runId: `run-${String(i).padStart(7, '0')}`, workflowId: `wf-${i}`,
    workflowType: TYPES[Math.floor(r(3) * TYPES.length)]!, taskQueue: 'q', status, startTime, executionTime: startTime,
    historyLength: 5 + Math.floor(r(4) * 200),
    ...(status !== 'Running' ? { closeTime: startTime + Math.floor(r(5) * 7_200_000) } : {}),
    searchAttributes: {
      CustomerId: `c${Math.floor(r(6) * 5000)}`,
      Notes: `${WORDS[Math.floor(r(7) * WORDS.length)]} ${WORDS[Math.floor(r(8) * WORDS.length)]}`,
      Tags: TAGS.filter((_, k) => unitRandom(42, i * 8 + k, 9) < 0.3),
    },
  };
}

async function fill(b: Backend, rows: number): Promise<number> {
  const started = performance.now();
  // Both stores take at least 32,766 parameters per statement.
  const batch = Math.floor(30_000 / Object.keys(visibilityRow(b.dialect, record(0), ATTRIBUTES)).length);
  for (let from = 0; from < rows; from += batch) {
    const values = Array.from({ length: Math.min(batch, rows - from) }, (_, k) => visibilityRow(b.dialect, record(from + k), ATTRIBUTES));
    const columns = Object.keys(values[0]!);
    const params: unknown[] = [];
    const tuples = values.map((row) => `(${columns.map((c) => { params.push(row[c]); return b.dialect.placeholder(params.length); }).join(', ')})`);
    await b.run(`INSERT INTO ${VISIBILITY_TABLE} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params);
  }
  // VACUUM sets PostgreSQL's visibility map, as autovacuum would, so counts can use index-only scans.
  await b.run(b.dialect.name === 'sqlite' ? 'ANALYZE' : `VACUUM ANALYZE ${VISIBILITY_TABLE}`, []);
  return performance.now() - started;
}

const LISTS = [
  '',
  `ExecutionStatus = 'Running'`,
  `WorkflowType = 'order' AND ExecutionStatus = 'Running' AND CustomerId IN ('c1','c2') AND StartTime > '2026-10-01T00:00:00Z' ORDER BY StartTime DESC`,
  `CustomerId = 'c42'`,
  `WorkflowId STARTS_WITH 'wf-1234'`,
  `CloseTime > '2026-10-31T00:00:00Z' ORDER BY CloseTime DESC`,
  `Tags = 'red'`,
  `Notes = 'urgent'`,
];
const COUNTS = ['', `GROUP BY ExecutionStatus`, `WorkflowType = 'order' AND ExecutionStatus = 'Failed'`];

async function time(runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  xs.sort((a, b) => a - b);
  return { p50: xs[Math.floor(xs.length / 2)]!, p95: xs[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]! };
}

async function measure(b: Backend, runs: number) {
  const results: { store: string; query: string; p50: number; p95: number }[] = [];
  const list = (query: string, token?: string) => async () => {
    const c = compileListQuery(b.dialect, { namespace: 'default', query, attributes: ATTRIBUTES, pageSize: 100, ...(token ? { nextPageToken: token } : {}) });
    return c.page(await b.run(c.sql, c.params));
  };
  for (const q of LISTS) results.push({ store: b.dialect.name, query: `list ${q || '(all)'}`, ...(await time(runs, list(q))) });
  let token: string | undefined;
  for (let page = 0; page < 500; page++) token = (await list('', token)()).nextPageToken;
  results.push({ store: b.dialect.name, query: 'list (all), page 501 by token', ...(await time(runs, list('', token))) });
  for (const q of COUNTS) {
    results.push({
      store: b.dialect.name, query: `count ${q || '(all)'}`,
      ...(await time(runs, async () => {
        const c = compileCountQuery(b.dialect, { namespace: 'default', query: q, attributes: ATTRIBUTES });
        return c.read(await b.run(c.sql, c.params));
      })),
    });
  }
  return results;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { rows: { type: 'string', default: '100000' }, runs: { type: 'string', default: '21' }, store: { type: 'string', default: 'both' }, json: { type: 'boolean', default: false } },
  });
  const rows = Number(values.rows);
  const runs = Number(values.runs);
  if (!Number.isInteger(rows) || rows < 1000) throw new Error(`--rows must be an integer >= 1000, got ${values.rows}`);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be an integer >= 1, got ${values.runs}`);
  if (!['both', 'sqlite', 'postgres'].includes(values.store!)) throw new Error(`--store must be both, sqlite or postgres, got ${values.store}`);
  const stores: Backend[] = [];
  if (values.store !== 'postgres') stores.push(openSqliteBackend());
  if (values.store !== 'sqlite') {
    const skip = await pgSkipReason('the PostgreSQL visibility benchmark');
    if (!skip) stores.push(await openPostgresBackend(freshSchema('sf_visbench')));
  }
  const out: unknown[] = [];
  try {
    for (const b of stores) {
      const fillMs = await fill(b, rows);
      if (!values.json) console.log(`${b.dialect.name}: ${rows} rows inserted in ${(fillMs / 1000).toFixed(1)}s`);
      const results = await measure(b, runs);
      out.push({ store: b.dialect.name, rows, fillMs, results });
      if (!values.json) for (const r of results) console.log(`  ${r.query.padEnd(150).slice(0, 110)} p50 ${r.p50.toFixed(2)} ms  p95 ${r.p95.toFixed(2)} ms`);
    }
  } finally {
    for (const b of stores) await b.close();
  }
  if (values.json) console.log(JSON.stringify(out, null, 2));
  return 0;
}
