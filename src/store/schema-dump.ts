import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * Text dumps of the migrated schemas, committed as `src/store/schema.sqlite.sql` and
 * `src/store/schema.postgres.sql` so that a review shows every schema change; a test fails when
 * the migrations and the committed dump disagree (STEADFAST_UPDATE_SCHEMA=1 rewrites them).
 */
export function dumpSqliteSchema(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare(`SELECT type, name, sql FROM sqlite_master
      WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY CASE type WHEN 'table' THEN 0 ELSE 1 END, name`).all() as { sql: string }[];
    return `-- Generated from src/store/sql/sqlite by the schema dump test. Do not edit.\n\n${rows.map((r) => `${r.sql};`).join('\n\n')}\n`;
  } finally {
    db.close();
  }
}

/** A dump of one PostgreSQL schema: tables with their columns, then indexes (schema name elided). */
export async function dumpPostgresSchema(connectionString: string, schema: string): Promise<string> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const cols = (await client.query(`SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity
      FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`, [schema])).rows;
    const tables = new Map<string, string[]>();
    for (const c of cols) {
      const parts = [`  ${c.column_name} ${c.data_type}`];
      if (c.is_identity === 'YES') parts.push('GENERATED ALWAYS AS IDENTITY');
      if (c.is_nullable === 'NO') parts.push('NOT NULL');
      if (c.column_default) parts.push(`DEFAULT ${c.column_default}`);
      tables.set(c.table_name, [...(tables.get(c.table_name) ?? []), parts.join(' ')]);
    }
    const idx = (await client.query('SELECT indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY tablename, indexname', [schema])).rows;
    // Storage parameters (a fillfactor) are part of the schema a migration sets.
    const params = new Map((await client.query(`SELECT c.relname, c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r' AND c.reloptions IS NOT NULL`, [schema])).rows.map((r: { relname: string; reloptions: string[] }) => [r.relname, r.reloptions]));
    const out = ['-- Generated from src/store/sql/postgres by the schema dump test. Do not edit.', ''];
    for (const [name, lines] of tables) {
      const storage = params.has(name) ? ` WITH (${params.get(name)!.join(', ')})` : '';
      out.push(`CREATE TABLE ${name} (\n${lines.join(',\n')}\n)${storage};`, '');
    }
    for (const i of idx) out.push(`${String(i.indexdef).replaceAll(`${schema}.`, '').replaceAll(`"${schema}".`, '')};`);
    return `${out.join('\n')}\n`;
  } finally {
    await client.end();
  }
}
