import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadMigrations } from '../../src/store/migrations.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { ExecutionRecord, Store } from '../../src/store/types.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from './pg-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'sf-visibility-store-'));
const schemas: string[] = [];
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const s of schemas) await dropSchema(s);
});
const pgSkip = await pgSkipReason('the PostgreSQL visibility store tests');

let n = 0;
function run(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const runId = overrides.runId ?? `run-${++n}`;
  return {
    namespace: 'default', workflowId: `wf-${n}`, runId, workflowType: 'order', taskQueue: 'q', status: 'Running',
    startTime: 1000 + n, executionTime: 1000 + n, nextEventId: 1, attempt: 1, firstExecutionRunId: runId,
    originalExecutionRunId: runId, version: 1, state: {}, ...overrides,
  };
}

const ids = async (store: Store, query: string) => (await store.queryExecutions({ namespace: 'default', query, pageSize: 100 })).executions.map((e) => e.runId);

const stores: { name: string; skip: string | false; open(): Promise<Store> }[] = [
  { name: 'sqlite', skip: false, open: async () => SqliteStore.open(join(dir, `s-${++n}.db`)) },
  {
    name: 'postgres', skip: pgSkip, open: async () => {
      const schema = freshSchema('sf_visstore');
      schemas.push(schema);
      return PostgresStore.open(PG_URL, { schema });
    },
  },
];

for (const s of stores) {
  test(`${s.name}: the visibility row changes in the transaction of the run's row, and a lost race changes neither`, { skip: s.skip }, async () => {
    const store = await s.open();
    try {
      const a = run();
      await store.commit({ executions: [{ record: a, events: [] }] });
      assert.deepEqual(await ids(store, "ExecutionStatus = 'Running'"), [a.runId]);
      await store.commit({ executions: [{ record: { ...a, status: 'Completed', closeTime: 5000, version: 2, nextEventId: 1 }, expectedVersion: 1, events: [] }] });
      assert.deepEqual(await ids(store, "ExecutionStatus = 'Running'"), []);
      assert.deepEqual(await ids(store, "ExecutionStatus = 'Completed' AND CloseTime IS NOT NULL"), [a.runId]);
      await assert.rejects(store.commit({ executions: [{ record: { ...a, status: 'Failed', version: 2 }, expectedVersion: 1, events: [] }] }));
      assert.deepEqual(await ids(store, "ExecutionStatus = 'Failed'"), []);
      assert.deepEqual(await store.countExecutions({ namespace: 'default', query: 'GROUP BY ExecutionStatus' }),
        { count: 1, groups: [{ value: 'Completed', count: 1 }] });
    } finally {
      await store.close();
    }
  });

  test(`${s.name}: registered attributes take slots, are found by query, and an update that drops one clears it`, { skip: s.skip }, async () => {
    const store = await s.open();
    try {
      await store.createSearchAttribute('default', { name: 'CustomerId', type: 'Keyword' });
      await store.createSearchAttribute('default', { name: 'Amount', type: 'Int' });
      await assert.rejects(store.createSearchAttribute('default', { name: 'CustomerId', type: 'Int' }),
        { field: 'name', message: /registered already in namespace default \(it is, as Keyword\)/ });
      assert.deepEqual(await store.listSearchAttributes('default'), [{ name: 'Amount', type: 'Int' }, { name: 'CustomerId', type: 'Keyword' }]);
      assert.deepEqual(await store.listSearchAttributes('other'), []);
      const a = run({ searchAttributes: { CustomerId: 'c1', Amount: 5 } });
      const b = run({ searchAttributes: { CustomerId: 'c2' } });
      await store.commit({ executions: [{ record: a, events: [] }, { record: b, events: [] }] });
      assert.deepEqual(await ids(store, "CustomerId = 'c1'"), [a.runId]);
      assert.deepEqual(await ids(store, 'Amount IS NULL'), [b.runId]);
      assert.deepEqual((await store.getExecution(a.runId))?.searchAttributes, { CustomerId: 'c1', Amount: 5 });
      await store.commit({ executions: [{ record: { ...a, searchAttributes: { Amount: 5 }, version: 2 }, expectedVersion: 1, events: [] }] });
      assert.deepEqual(await ids(store, "CustomerId = 'c1'"), []);
      assert.deepEqual(await ids(store, 'Amount = 5'), [a.runId]);
      await assert.rejects(ids(store, "Nope = 'x'"), { name: 'UnknownSearchAttributeError' });
    } finally {
      await store.close();
    }
  });
}

const OLD_RUN = `INSERT INTO executions (run_id, namespace, workflow_id, workflow_type, task_queue, status, start_time,
  execution_time, close_time, next_event_id, attempt, first_execution_run_id, original_execution_run_id, state, version)
  VALUES ('old-1', 'default', 'wf-old-1', 'order', 'q', 'Completed', 1000, 1500, 4000, 7, 1, 'old-1', 'old-1', '{}', 3),
         ('old-2', 'default', 'wf-old-2', 'ship', 'q', 'Running', 2000, 2000, NULL, 3, 1, 'old-2', 'old-2', '{}', 1)`;

test('sqlite: a database made by the schema before visibility lists its old runs after the upgrade', async () => {
  const path = join(dir, 'old.db');
  const db = new Database(path);
  const first = loadMigrations('sqlite')[0]!;
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  db.exec(first.sql);
  db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(first.version, first.name);
  db.exec(OLD_RUN);
  db.close();
  const store = SqliteStore.open(path);
  try {
    assert.deepEqual(await ids(store, ''), ['old-2', 'old-1']);
    assert.deepEqual(await ids(store, "ExecutionDuration = '2.5s' AND HistoryLength = 6"), ['old-1']);
    assert.deepEqual(await store.countExecutions({ namespace: 'default', query: 'GROUP BY ExecutionStatus' }),
      { count: 2, groups: [{ value: 'Completed', count: 1 }, { value: 'Running', count: 1 }] });
  } finally {
    await store.close();
  }
});

test('postgres: a schema made before visibility lists its old runs after the upgrade', { skip: pgSkip }, async () => {
  const schema = freshSchema('sf_visold');
  schemas.push(schema);
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path="${schema}"` });
  await client.connect();
  const first = loadMigrations('postgres')[0]!;
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  await client.query(first.sql);
  await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [first.version, first.name]);
  await client.query(OLD_RUN);
  await client.end();
  const store = await PostgresStore.open(PG_URL, { schema });
  try {
    assert.deepEqual(await ids(store, ''), ['old-2', 'old-1']);
    assert.deepEqual(await ids(store, "ExecutionDuration = '2.5s' AND HistoryLength = 6"), ['old-1']);
    assert.deepEqual(await store.countExecutions({ namespace: 'default', query: 'GROUP BY ExecutionStatus' }),
      { count: 2, groups: [{ value: 'Completed', count: 1 }, { value: 'Running', count: 1 }] });
  } finally {
    await store.close();
  }
});
