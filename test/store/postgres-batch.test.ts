import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { NamespaceNotFoundError } from '../../src/common/errors.ts';
import { StoreConflictError } from '../../src/store/errors.ts';
import pg from 'pg';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { waitFor } from '../helpers/wait.ts';
import { batchParams, batchStatement, isNoticeFrom, noticePayloads } from '../../src/store/postgres/batch-sql.ts';
import { binaryArrays } from '../../src/store/postgres/binary-arrays.ts';
import type { ExecutionRecord, ScheduleRecord, TimerRecord, Transition } from '../../src/store/types.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from './pg-helpers.ts';

const skip = await pgSkipReason('the PostgreSQL batch-write tests');
const schemas: string[] = [];
after(async () => {
  if (!skip) for (const s of schemas) await dropSchema(s);
});

async function open(): Promise<PostgresStore> {
  const schema = freshSchema('sf_batch');
  schemas.push(schema);
  return PostgresStore.open(PG_URL, { schema, poolSize: 4 });
}

let n = 0;
function run(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const runId = overrides.runId ?? `run-${process.pid}-${++n}`;
  return {
    namespace: 'default', workflowId: `wf-${process.pid}-${n}`, runId, workflowType: 'order', taskQueue: 'q', status: 'Running',
    startTime: 1000, executionTime: 1000, nextEventId: 2, attempt: 1, firstExecutionRunId: runId, originalExecutionRunId: runId,
    version: 1, state: { n: 0 }, ...overrides,
  };
}

const ev = (eventId: number): HistoryEvent => ({
  eventId, eventType: 'WorkflowTaskScheduled', eventTime: new Date(1000).toISOString(), attributes: { taskQueue: 'q', startToCloseTimeoutMs: 10, attempt: 1 },
});
const timer = (id: string, runId = 'r'): TimerRecord => ({ id, namespace: 'default', runId, kind: 'UserTimer', dueAt: 1, data: {} });
const insert = (rec: ExecutionRecord): Transition => ({ executions: [{ record: rec, events: [ev(1)] }] });
const update = (rec: ExecutionRecord, expectedVersion: number, changes: Partial<ExecutionRecord> = {}): Transition => ({
  executions: [{ record: { ...rec, ...changes, nextEventId: rec.nextEventId + 1, version: expectedVersion + 1 }, expectedVersion, events: [ev(rec.nextEventId)] }],
});

test('postgres batch: transitions of many runs committed in one turn go in one statement', { skip }, async () => {
  const store = await open();
  try {
    const recs = Array.from({ length: 40 }, () => run());
    await Promise.all(recs.map((r) => store.commit(insert(r))));
    const before = store.writeStats.batches;
    await Promise.all(recs.map((r) => store.commit({ ...update(r, 1), createTimers: [timer(`t-${r.runId}`, r.runId)] })));
    assert.equal(store.writeStats.batches - before, 1);
    for (const r of recs) {
      const stored = (await store.getExecution(r.runId))!;
      assert.equal(stored.version, 2);
      assert.deepEqual((await store.readHistory(r.runId, 1, 10)).map((e) => e.eventId), [1, 2]);
    }
    const due = await store.claimDueTimers({ now: 5, limit: 100, leaseMs: 1000, owner: 'x' });
    assert.equal(due.length, 40);
  } finally {
    await store.close();
  }
});

test('postgres batch: a stale version fails only its own transition; the rest of the batch commits', { skip }, async () => {
  const store = await open();
  try {
    const [a, b, c] = [run(), run(), run()];
    await Promise.all([a, b, c].map((r) => store.commit(insert(r))));
    const results = await Promise.allSettled([
      store.commit(update(a, 1)),
      store.commit(update(b, 7)),
      store.commit({ ...update(c, 1), createTimers: [timer('from-c', c.runId)] }),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    const err = (results[1] as PromiseRejectedResult).reason as StoreConflictError;
    assert.ok(err instanceof StoreConflictError);
    assert.equal(err.reason, 'version');
    assert.match(err.message, new RegExp(`run ${b.runId} changed since version 7`));
    assert.deepEqual([(await store.getExecution(a.runId))!.version, (await store.getExecution(b.runId))!.version,
      (await store.getExecution(c.runId))!.version], [2, 1, 2]);
    assert.deepEqual((await store.readHistory(b.runId, 1, 10)).map((e) => e.eventId), [1], 'nothing of the failed transition was written');
  } finally {
    await store.close();
  }
});

test('postgres batch: two transitions of one run in one turn are written one after the other; the second sees the first', { skip }, async () => {
  const store = await open();
  try {
    const a = run();
    await store.commit(insert(a));
    const results = await Promise.allSettled([store.commit(update(a, 1)), store.commit(update(a, 1, { state: { n: 9 } }))]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected']);
    assert.deepEqual((await store.getExecution(a.runId))!.state, { n: 0 });
  } finally {
    await store.close();
  }
});

test('postgres batch: a consumed timer, a duplicate run, an open workflow id and a used one fail alone, with their reasons', { skip }, async () => {
  const store = await open();
  try {
    const open1 = run();
    await store.commit({ ...insert(open1), createTimers: [timer('once')] });
    const closed = run();
    await store.commit(insert(closed));
    await store.commit(update(closed, 1, { status: 'Completed', closeTime: 2000 }));
    const ok = run();
    const results = await Promise.allSettled([
      store.commit({ executions: [], consumeTimerId: 'once' }),
      store.commit({ executions: [], consumeTimerId: 'never-existed' }),
      store.commit(insert(run({ runId: open1.runId, workflowId: 'other' }))),
      store.commit(insert(run({ workflowId: open1.workflowId }))),
      store.commit({ executions: [{ ...insert(run({ workflowId: closed.workflowId })).executions[0]!, firstOfWorkflowId: true }] }),
      store.commit(insert(ok)),
    ]);
    assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as StoreConflictError).reason)),
      ['ok', 'timerGone', 'duplicateRun', 'alreadyOpen', 'workflowIdUsed', 'ok']);
    // Closing the open run and starting the next one of its workflow id in one transition (continue-as-new) is no conflict.
    const nextRun = run({ workflowId: open1.workflowId });
    await store.commit({ executions: [update(open1, 1, { status: 'ContinuedAsNew', closeTime: 2000 }).executions[0]!, { record: nextRun, events: [ev(1)] }] });
    assert.equal((await store.getLatestExecution('default', open1.workflowId))!.runId, nextRun.runId);
  } finally {
    await store.close();
  }
});

test('postgres batch: a batch the database refuses is written one transition at a time, so only the bad one fails', { skip }, async () => {
  const store = await open();
  try {
    await store.commit({ executions: [], createTimers: [timer('dup')] });
    const results = await Promise.allSettled([
      store.commit({ executions: [], createTimers: [timer('a')] }),
      // Passes every check of the statement, then hits the timers primary key.
      store.commit({ executions: [], createTimers: [timer('b'), timer('dup')] }),
      store.commit({ executions: [], createTimers: [timer('c')] }),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    const claimed = await store.claimDueTimers({ now: 5, limit: 10, leaseMs: 1, owner: 'x' });
    assert.deepEqual(claimed.map((t) => t.id).sort(), ['a', 'c', 'dup']);
  } finally {
    await store.close();
  }
});

test('postgres batch: close waits for the transitions already submitted, which commit', { skip }, async () => {
  const store = await open();
  const schema = schemas[schemas.length - 1]!;
  // One run's timers: no two share a statement, so most are still queued when close() is called.
  const commits = Array.from({ length: 30 }, (_, i) => store.commit({ executions: [], createTimers: [timer(`c${i}`, 'one-run')] }));
  await store.close();
  assert.deepEqual((await Promise.allSettled(commits)).map((r) => r.status), Array(30).fill('fulfilled'));
  const again = await PostgresStore.open(PG_URL, { schema, poolSize: 2 });
  try {
    assert.equal((await again.claimDueTimers({ now: 5, limit: 100, leaseMs: 1, owner: 'x' })).length, 30);
  } finally {
    await again.close();
  }
});

test('postgres batch: schedule updates go in one statement; a stale schedule version fails only its own transition', { skip }, async () => {
  const store = await open();
  try {
    const rec = (i: number, version: number, state: unknown): ScheduleRecord => ({ namespace: 'default', scheduleId: `s-${i}`, createTime: 1, version, state });
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.commit({ executions: [], schedules: [{ record: rec(i, 1, { n: 0 }) }] })));
    const before = store.writeStats.batches;
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.commit({
      executions: [], schedules: [{ record: rec(i, 2, { n: 1 }), expectedVersion: i === 3 ? 7 : 1 }],
    })));
    const statements = store.writeStats.batches - before;
    assert.ok(statements >= 1 && statements <= 2, `one batch statement, and one more for the rest after the conflict (got ${statements})`);
    const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [[i, (r.reason as StoreConflictError).reason]] : []));
    assert.deepEqual(failed, [[3, 'scheduleVersion']]);
    for (let i = 0; i < 10; i++) {
      const stored = (await store.getSchedule('default', `s-${i}`))!;
      assert.deepEqual([stored.version, stored.state], i === 3 ? [1, { n: 0 }] : [2, { n: 1 }]);
    }
  } finally {
    await store.close();
  }
});

test('columns written as binary arrays read back exactly as node-postgres writes them as text', { skip }, async () => {
  const json = [
    { s: 'quote " backslash \\ both \\" end' }, { s: 'newline\ntab\tcr\r nul\u0000 bell\u0007' }, { s: 'braces {a,b} "x,y" NULL null' },
    { s: 'line sep \u2028 para \u2029 emoji 🚀 é', lone: '\ud800' }, { s: '' }, [], 'just a string', 12.5, null, { deep: [{ k: '\\\\"' }] },
  ].map((v) => JSON.stringify(v));
  const texts = ['quote " backslash \\ both', 'newline\ntab\tcr\r bell\u0007', 'braces {a,b} "x,y"', 'NULL', 'null', '', ' padded ', 'emoji 🚀 é', null, undefined];
  const columns = [
    { type: 'text', name: 'json', values: [...json, null, '""'] },
    { type: 'text', name: 't', values: texts },
    { type: 'integer', name: 'i', values: [0, -1, 2147483647, -2147483648, null] },
    { type: 'bigint', name: 'b', values: [0, -1, 1, 2 ** 32, -(2 ** 32) - 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1_764_000_000_000, undefined] },
    { type: 'boolean', name: 'f', values: [true, false, 1, 0, null] },
    { type: 'double precision', name: 'd', values: [0.5, -1e300, 3] },
    { type: 'text', name: 'empty', values: [] },
    { type: 'bigint', name: 'empty bigint', values: [] },
  ] as const;
  const params = binaryArrays(columns);
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    for (const [i, c] of columns.entries()) {
      // node-postgres's text encoding takes booleans as booleans: 1 and 0 read as true and false.
      const theirs = c.values.map((v) => (v === undefined ? null : c.type === 'boolean' && typeof v === 'number' ? v === 1 : v));
      const { rows } = await client.query(`SELECT $1::${c.type}[] AS ours, $2::${c.type}[] AS theirs`, [params[i], theirs]);
      assert.deepEqual(rows[0].ours, rows[0].theirs, c.name);
      assert.equal(rows[0].ours.length, c.values.length, c.name);
    }
    const { rows } = await client.query('SELECT $1::text[] AS j', [params[0]]);
    assert.deepEqual(rows[0].j.map((t: string | null) => (t === null ? null : JSON.parse(t))), [...json.map((t) => JSON.parse(t)), null, '']);
  } finally {
    await client.end();
  }
});

test('a batch column holding what its type cannot is refused by name before anything is sent', () => {
  for (const [type, value, rule] of [
    ['text', 5, /batch column c \(text\) must hold a string or null, got 5/],
    ['integer', 2 ** 31, /batch column c \(integer\) must hold a 32-bit integer or null, got 2147483648/],
    ['integer', 1.5, /must hold a 32-bit integer or null, got 1.5/],
    ['bigint', 2 ** 53, /batch column c \(bigint\) must hold a safe integer or null/],
    ['bigint', '12', /must hold a safe integer or null, got "12"/],
    ['boolean', 'yes', /batch column c \(boolean\) must hold a boolean or null, got "yes"/],
    ['text', { not: 'a text' }, /must hold a string or null, got an object/],
  ] as const) {
    assert.throws(() => binaryArrays([{ type, name: 'c', values: ['x', value].slice(type === 'text' ? 0 : 1) }]), rule);
  }
});

/** A parameter as the text of an SQL literal: a binary array read back through PostgreSQL as its text form, anything else as its string. */
async function literalText(client: pg.Client, text: string, n: number, v: unknown): Promise<string> {
  if (!Buffer.isBuffer(v)) return String(v);
  const type = new RegExp(`\\$${n}::([a-z ]+)\\[\\]`).exec(text)![1]!;
  return (await client.query<{ a: string }>(`SELECT $1::${type}[]::text AS a`, [v])).rows[0]!.a;
}

test('postgres batch: the plans made once per connection find runs by key while the tables are small', { skip }, async () => {
  const store = await open();
  const schema = schemas.at(-1)!;
  // A few hundred runs and timers, as in a deployment's first minutes (a run's row holds its state, here 500 bytes).
  const recs = Array.from({ length: 400 }, () => run({ state: { n: 0, pending: 'x'.repeat(500) } }));
  await Promise.all(recs.map((r) => store.commit({ ...insert(r), createTimers: [timer(`t-${r.runId}`, r.runId)] })));
  await store.close();
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    await client.query('ANALYZE executions, timers');
    // The statement's generic plan: the one a connection keeps once PostgreSQL prefers it to custom plans.
    await client.query('SET plan_cache_mode = force_generic_plan');
    const plan = async (name: string, t: Transition) => {
      const statement = batchStatement(batchParams('steadfast_probe', [t], []));
      await client.query(`PREPARE ${name} AS ${statement.text}`);
      // EXECUTE takes its arguments as literals.
      const args = (await Promise.all(statement.values.map(async (v, i) => client.escapeLiteral(await literalText(client, statement.text, i + 1, v))))).join(', ');
      return (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE ${name}(${args})`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    const byKey = (text: string) => text.match(/executions_pkey[^\n]*\n\s*Index Cond: \(run_id = ANY \(\$\d+\)\)/g)?.length ?? 0;
    // An updated run is locked and written through its key; an inserted run id is checked through its own.
    const updated = await plan('updated', { ...update(recs[0]!, 1), consumeTimerId: `t-${recs[0]!.runId}` });
    const inserted = await plan('inserted', { executions: [{ ...insert(run()).executions[0]!, firstOfWorkflowId: true }] });
    assert.deepEqual({ updated: byKey(updated), inserted: byKey(inserted) }, { updated: 2, inserted: 1 }, `${updated}\n\n${inserted}`);
  } finally {
    await client.end();
  }
});

test('postgres batch: a batch statement holds only the parts its rows need, its parameters numbered from one', () => {
  const statement = (t: Transition, payloads: string[] = []) => batchStatement(batchParams('steadfast_probe', [t], payloads));
  const numbers = (text: string) => [...new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  const updated = statement(update(run(), 1));
  assert.match(updated.text, /UPDATE executions/);
  assert.doesNotMatch(updated.text, /INSERT INTO executions |INSERT INTO tasks|DELETE FROM timers|schedules|pg_notify/);
  assert.deepEqual(numbers(updated.text), updated.values.map((_, i) => i + 1));
  // One shape, one named statement; another shape, another name.
  assert.deepEqual(statement(update(run(), 3)).name, updated.name);
  assert.equal(statement(update(run(), 3)).text, updated.text);
  const inserted = statement({ ...insert(run()), createTimers: [timer('t-1')] }, ['{}']);
  assert.notEqual(inserted.name, updated.name);
  assert.match(inserted.text, /INSERT INTO executions [^]*INSERT INTO timers[^]*pg_notify/);
  assert.deepEqual(numbers(inserted.text), inserted.values.map((_, i) => i + 1));
  // Without checks there is no `bad`, and every write goes.
  const deletes = statement({ executions: [], deleteTaskIds: ['k'] });
  assert.doesNotMatch(deletes.text, /bad \(/);
  assert.match(deletes.text, /ok AS \(SELECT true AS ok\)/);
});

test('postgres batch: a transition with nothing to check (deletes alone) commits', { skip }, async () => {
  const store = await open();
  try {
    const rec = run();
    const task = { id: `k-${rec.runId}`, namespace: 'default', taskQueue: 'q', kind: 'workflow' as const, runId: rec.runId, visibleAt: 0, data: {} };
    await store.commit({ ...insert(rec), createTasks: [task] });
    await store.commit({ executions: [], deleteTaskIds: [task.id] });
    assert.equal(await store.claimTask({ namespace: 'default', taskQueue: 'q', kind: 'workflow', now: 5000, leaseMs: 10, owner: 'a' }), undefined);
  } finally {
    await store.close();
  }
});

test('postgres batch: the store analyzes executions once it holds more than twice the rows its statistics describe, counting its own inserts before the first ANALYZE', { skip }, async () => {
  const store = await open();
  const schema = schemas.at(-1)!;
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const reltuples = async () => Number((await client.query(`SELECT reltuples FROM pg_class WHERE oid = 'executions'::regclass`)).rows[0].reltuples);
    assert.equal(await reltuples(), -1, 'never analyzed');
    // One check's worth of runs at once: PostgreSQL's row count (n_live_tup) may not show them
    // yet (a busy backend reports at most once a second); the store's own count does.
    await Promise.all(Array.from({ length: 256 }, () => store.commit(insert(run()))));
    await waitFor('executions analyzed (reltuples at least 256)', async () => (await reltuples()) >= 256);
  } finally {
    await client.end();
    await store.close();
  }
});

test('postgres batch: a start waits for a removal holding its namespace, then is refused; nothing is written', { skip }, async () => {
  const schema = freshSchema('sf_batch');
  schemas.push(schema);
  const store = await PostgresStore.open(PG_URL, { schema, poolSize: 4 });
  const purge = new pg.Client({ connectionString: PG_URL });
  await purge.connect();
  try {
    await store.createNamespace({ name: 'closing', description: '', retentionMs: 86_400_000, state: 'Registered', createTime: 1, updateTime: 1 });
    await purge.query(`SET search_path TO ${schema}`);
    // As a deletion's removal does: the namespace's row locked, then marked, in an open transaction.
    await purge.query('BEGIN');
    await purge.query("SELECT state FROM namespaces WHERE name = 'closing' FOR UPDATE");
    await purge.query("UPDATE namespaces SET state = 'Deleted' WHERE name = 'closing'");
    const rec = run({ namespace: 'closing' });
    let settled = false;
    const start = store.commit(insert(rec)).finally(() => {
      settled = true;
    });
    start.catch(() => undefined);
    // A backend of the store blocked by this transaction (inside a transaction, the activity view
    // is a snapshot until cleared).
    const waiting = async () => (await purge.query('SELECT pg_stat_clear_snapshot()')) && Number((await purge.query(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))')).rows[0].n) > 0;
    await waitFor('the start to wait for the namespace row', async () => {
      assert.ok(!settled, 'the start did not wait for the namespace row');
      return waiting();
    });
    await purge.query('COMMIT');
    await assert.rejects(start, (err) => err instanceof NamespaceNotFoundError && err.namespace === 'closing');
    assert.equal(await store.getExecution(rec.runId), undefined);
  } finally {
    await purge.end();
    await store.close();
  }
});

test('every NOTIFY payload names its origin first, so a store knows its own without parsing them', () => {
  const runs = Array.from({ length: 400 }, (_, i) => `run-${i}-${'x'.repeat(20)}`);
  const payloads = noticePayloads('origin-1', runs, [{ type: 'closed', runId: 'run-0' }, { type: 'timer', dueAt: 1 }], ['default/s"1']);
  assert.ok(payloads.length > 1, 'several payloads under the size limit');
  for (const p of payloads) {
    assert.equal(isNoticeFrom('origin-1', p), true, p.slice(0, 40));
    assert.equal(JSON.parse(p).o, 'origin-1');
    assert.equal(isNoticeFrom('origin-10', p), false);
    assert.equal(isNoticeFrom('origin-', p), false);
  }
});
