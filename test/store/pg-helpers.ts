import pg from 'pg';

/** The test database: 127.0.0.1:5432, user postgres, trust auth, db `test`. Override with STEADFAST_TEST_PG. */
export const PG_URL = process.env.STEADFAST_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Whether PostgreSQL answers. With CI=true an unreachable server is a loud failure (throws);
 * otherwise it returns a one-line skip reason for the tests.
 */
export async function pgSkipReason(what: string): Promise<string | false> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return false;
  } catch (err) {
    if (process.env.CI === 'true') throw new Error(`PostgreSQL at ${PG_URL} is unreachable and CI=true: ${(err as Error).message}`);
    const reason = `skipped ${what}: PostgreSQL at ${PG_URL} unreachable (${(err as Error).message}); start it or set STEADFAST_TEST_PG to run them`;
    console.log(reason);
    return reason;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh schema name for one test file; dropped by {@link dropSchema}. */
export function freshSchema(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
