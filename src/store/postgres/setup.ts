import type pg from 'pg';
import { connectionLoss, OPEN_RUN_INDEX, PG_ERROR_CODES, StoreConflictError } from '../errors.ts';
import { loadMigrations } from '../migrations.ts';
import { PQ } from './queries.ts';

type Row = Record<string, unknown>;

/** A PostgreSQL error as the store reports it: a lost connection, a conflict the engine retries, or the error itself. */
export function mapError(err: unknown): unknown {
  const lost = connectionLoss(err);
  if (lost) return lost;
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e.code === PG_ERROR_CODES.uniqueViolation) {
    if (e.constraint === OPEN_RUN_INDEX) return new StoreConflictError('alreadyOpen', 'the workflow id has an open run');
    if (e.constraint === 'executions_pkey') return new StoreConflictError('duplicateRun', 'the run id exists');
  }
  if (e.code === PG_ERROR_CODES.serializationFailure || e.code === PG_ERROR_CODES.deadlockDetected) {
    return new StoreConflictError('version', `concurrent transition (${e.code === PG_ERROR_CODES.deadlockDetected ? 'deadlock' : 'serialization failure'})`);
  }
  return err;
}

/** Creates the schema and applies pending migrations, one server at a time (advisory lock). */
export async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await c.query(PQ.migrationLock, [schema]);
    await c.query(PQ.createSchema(schema));
    await c.query(PQ.migrationsTable);
    const applied = new Set((await c.query(PQ.appliedMigrations)).rows.map((r: Row) => Number(r.version)));
    for (const m of loadMigrations('postgres')) {
      if (applied.has(m.version)) continue;
      await c.query(m.sql);
      await c.query(PQ.recordMigration, [m.version, m.name]);
    }
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}
