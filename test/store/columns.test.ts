/**
 * Each table's column list (src/store/columns.ts), from which both dialects' SQL is generated,
 * against the tables the migrations make: a column renamed, retyped or added on one side only
 * shows here by table and column, before any statement built from the list meets the database.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import {
  type Column, EXECUTIONS, HISTORY_EVENTS, NAMESPACES, SCHEDULES, TASKS, TIMERS, VISIBILITY_BUILT_INS,
} from '../../src/store/columns.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from './pg-helpers.ts';

/** Each table's list, and the migrated columns it leaves out (generated, or owned by another module). */
const TABLES: readonly { table: string; columns: readonly Column[]; other: (name: string) => boolean }[] = [
  { table: 'executions', columns: EXECUTIONS, other: (c) => c === 'seq' },
  { table: 'history_events', columns: HISTORY_EVENTS, other: () => false },
  { table: 'tasks', columns: TASKS, other: () => false },
  { table: 'timers', columns: TIMERS, other: () => false },
  // search_attributes and the slot columns are visibility/layout.ts's.
  { table: 'executions_visibility', columns: VISIBILITY_BUILT_INS, other: (c) => c === 'search_attributes' || /_\d\d$/.test(c) },
  { table: 'schedules', columns: SCHEDULES, other: () => false },
  { table: 'namespaces', columns: NAMESPACES, other: () => false },
];

type Typed = { column: string; type: string }[];

test('every column list names the SQLite table\'s columns with their types, in table order', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-columns-'));
  try {
    const store = SqliteStore.open(join(dir, 'columns.db'));
    await store.close();
    const db = new Database(join(dir, 'columns.db'), { readonly: true });
    try {
      for (const { table, columns, other } of TABLES) {
        const actual = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string }[])
          .filter((c) => !other(c.name)).map((c): Typed[number] => ({ column: c.name, type: c.type }));
        assert.deepEqual(actual, columns.map((c) => ({ column: c.column, type: c.sqliteType })), table);
      }
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const skip = await pgSkipReason('the PostgreSQL column list check');
const schema = freshSchema('sf_columns');
after(async () => {
  if (!skip) await dropSchema(schema);
});

test('every column list names the PostgreSQL table\'s columns with their types, in table order', { skip }, async () => {
  const store = await PostgresStore.open(PG_URL, { schema });
  await store.close();
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    for (const { table, columns, other } of TABLES) {
      const rows = (await client.query(`SELECT column_name, data_type FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`, [schema, table])).rows as { column_name: string; data_type: string }[];
      const actual = rows.filter((c) => !other(c.column_name)).map((c): Typed[number] => ({ column: c.column_name, type: c.data_type }));
      assert.deepEqual(actual, columns.map((c) => ({ column: c.column, type: c.pgType })), table);
    }
  } finally {
    await client.end();
  }
});
