import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { dumpPostgresSchema, dumpSqliteSchema } from '../../src/store/schema-dump.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from './pg-helpers.ts';

const update = process.env.STEADFAST_UPDATE_SCHEMA === '1';
const committed = (name: string) => new URL(`../../src/store/${name}`, import.meta.url);

function check(name: string, actual: string): void {
  if (update) writeFileSync(committed(name), actual);
  assert.equal(actual, readFileSync(committed(name), 'utf8'),
    `src/store/${name} is out of date with the migrations; run STEADFAST_UPDATE_SCHEMA=1 node scripts/run-tests.mjs schema-dump and commit it`);
}

test('the committed SQLite schema dump matches the migrations', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-schema-'));
  try {
    const store = SqliteStore.open(join(dir, 'schema.db'));
    await store.close();
    check('schema.sqlite.sql', dumpSqliteSchema(join(dir, 'schema.db')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const skip = await pgSkipReason('the PostgreSQL schema dump check');
const schema = freshSchema('sf_dump');
after(async () => {
  if (!skip) await dropSchema(schema);
});

test('the committed PostgreSQL schema dump matches the migrations', { skip }, async () => {
  const store = await PostgresStore.open(PG_URL, { schema });
  await store.close();
  check('schema.postgres.sql', await dumpPostgresSchema(PG_URL, schema));
});
