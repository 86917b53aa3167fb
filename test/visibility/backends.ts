import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  postgresVisibility, sqliteVisibility, visibilityLayoutSql, visibilityWrites,
  type CustomAttributeColumn, type VisibilityDialect, type VisibilityRecord,
} from '../../src/store/visibility/index.ts';
import { PG_URL } from '../store/pg-helpers.ts';

/** A store the compiled visibility SQL runs on, with the layout of docs/visibility.md. */
export interface Backend {
  readonly dialect: VisibilityDialect;
  /** Runs one statement; the rows it returns, none for a write. */
  run(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  insert(records: readonly VisibilityRecord[], attributesOf: (namespace: string) => readonly CustomAttributeColumn[]): Promise<void>;
  close(): Promise<void>;
}

/** A SQLite file in a temporary directory, WAL as the store runs it. */
export function openSqliteBackend(): Backend {
  const dir = mkdtempSync(join(tmpdir(), 'sf-visibility-'));
  const db = new Database(join(dir, 'visibility.db'));
  db.pragma('journal_mode = WAL');
  db.exec(visibilityLayoutSql('sqlite'));
  return {
    dialect: sqliteVisibility,
    async run(sql, params) {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
      statement.run(...params);
      return [];
    },
    async insert(records, attributesOf) {
      db.transaction(() => {
        for (const r of records) {
          const w = visibilityWrites(sqliteVisibility);
          db.prepare(w.upsertSql).run(...w.upsertParams(r, attributesOf(r.namespace)));
        }
      })();
    },
    async close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh PostgreSQL schema holding the layout; dropped by close. */
export async function openPostgresBackend(schema: string): Promise<Backend> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`SET search_path TO "${schema}"`);
  await client.query(visibilityLayoutSql('postgres'));
  return {
    dialect: postgresVisibility,
    run: async (sql, params) => (await client.query(sql, params)).rows as Record<string, unknown>[],
    async insert(records, attributesOf) {
      await client.query('BEGIN');
      for (const r of records) {
        const w = visibilityWrites(postgresVisibility);
        await client.query(w.upsertSql, w.upsertParams(r, attributesOf(r.namespace)));
      }
      await client.query('COMMIT');
    },
    async close() {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}
