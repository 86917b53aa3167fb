import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadMigrations } from '../../src/store/migrations.ts';
import pg from 'pg';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { openStore } from '../../src/store/open-store.ts';
import { registerStoreConformance } from './conformance.ts';
import { registerNamespaceConformance } from './namespace-conformance.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from './pg-helpers.ts';

const skip = await pgSkipReason('the PostgreSQL store tests');
const schemas: string[] = [];
after(async () => {
  if (!skip) for (const s of schemas) await dropSchema(s);
});

// One schema per test: every conformance test starts from empty tables.
registerStoreConformance('postgres', async () => {
  const schema = freshSchema('sf_store');
  schemas.push(schema);
  const store = await PostgresStore.open(PG_URL, { schema, poolSize: 4 });
  return { store, close: () => store.close() };
}, { skip });

registerNamespaceConformance('postgres', async () => {
  const schema = freshSchema('sf_ns');
  schemas.push(schema);
  const store = await PostgresStore.open(PG_URL, { schema, poolSize: 4 });
  return { store, close: () => store.close() };
}, { skip });

test('postgres: two servers starting at once migrate once (advisory lock)', { skip }, async () => {
  const schema = freshSchema('sf_migrate');
  schemas.push(schema);
  const [a, b] = await Promise.all([PostgresStore.open(PG_URL, { schema }), PostgresStore.open(PG_URL, { schema })]);
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const rows = (await client.query(`SELECT version FROM "${schema}".schema_migrations`)).rows;
  await client.end();
  await a.close();
  await b.close();
  assert.deepEqual(rows.map((r) => r.version).sort(), loadMigrations('postgres').map((m) => m.version));
});

test('postgres: a commit on one server wakes subscribers of another (LISTEN/NOTIFY)', { skip }, async () => {
  const schema = freshSchema('sf_notify');
  schemas.push(schema);
  const a = await openStore(`${PG_URL}?schema=${schema}`);
  const b = await openStore(`${PG_URL}?schema=${schema}`);
  try {
    const heard = new Promise((resolve) => b.subscribe(resolve));
    await a.commit({ executions: [], createTimers: [{ id: 'x', namespace: 'default', runId: 'r', kind: 'UserTimer', dueAt: 42, data: {} }] });
    assert.deepEqual(await heard, { type: 'timer', dueAt: 42 });
  } finally {
    await a.close();
    await b.close();
  }
});

test('postgres: a dropped LISTEN connection is re-opened and subscribers are told to re-scan', { skip }, async () => {
  const schema = freshSchema('sf_relisten');
  schemas.push(schema);
  const a = await PostgresStore.open(PG_URL, { schema });
  const b = await PostgresStore.open(PG_URL, { schema });
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const heard: unknown[] = [];
    b.subscribe((n) => heard.push(n));
    const listeners = async () => (await admin.query(
      "SELECT pid FROM pg_stat_activity WHERE application_name = 'steadfast-listener' AND query LIKE $1", [`LISTEN "steadfast_${schema}"`])).rows;
    const before = await listeners();
    assert.equal(before.length, 2);
    await admin.query('SELECT pg_terminate_backend($1)', [before[0]!.pid]);
    await admin.query('SELECT pg_terminate_backend($1)', [before[1]!.pid]);
    const deadline = Date.now() + 10_000;
    while (!heard.some((n) => JSON.stringify(n) === JSON.stringify({ type: 'resync' })) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(heard[0], { type: 'resync' }, 'the resync notice');
    while ((await listeners()).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await a.commit({ executions: [], createTimers: [{ id: 'after', namespace: 'default', runId: 'r', kind: 'UserTimer', dueAt: 77, data: {} }] });
    while (!heard.some((n) => (n as { dueAt?: number }).dueAt === 77) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(heard.some((n) => (n as { dueAt?: number }).dueAt === 77), 'notifications flow again');
  } finally {
    await admin.end();
    await a.close();
    await b.close();
  }
});
