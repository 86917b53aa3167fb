/* Every SQL statement of the PostgreSQL store; each query has this one home. Time is always a
 * parameter from the injected clock, never now(). The schema is chosen by search_path. */
import { columnList, EXECUTION_UPDATES, EXECUTIONS, insertSql, type Column } from '../columns.ts';

export const PQ = {
  getExecution: 'SELECT * FROM executions WHERE run_id = $1',
  getLatestExecution: 'SELECT * FROM executions WHERE namespace = $1 AND workflow_id = $2 ORDER BY seq DESC LIMIT 1',
  findByRequestId: 'SELECT * FROM executions WHERE namespace = $1 AND workflow_id = $2 AND request_id = $3 ORDER BY seq LIMIT 1',
  // The run a start's request id made and the workflow id's latest run, in one round trip.
  findStartRuns: `(SELECT 'request' AS found_by, * FROM executions WHERE namespace = $1 AND workflow_id = $2 AND request_id = $3
      ORDER BY seq LIMIT 1)
    UNION ALL (SELECT 'latest', * FROM executions WHERE namespace = $1 AND workflow_id = $2 ORDER BY seq DESC LIMIT 1)`,
  anyRun: 'SELECT 1 FROM executions WHERE namespace = $1 AND workflow_id = $2 LIMIT 1',
  // As the batch statement's ns_ok: the namespace of a run about to be inserted, registered, locked as a foreign key would.
  namespaceRegistered: "SELECT 1 FROM namespaces WHERE name = $1 AND state = 'Registered' FOR KEY SHARE",
  insertExecution: insertSql('postgres', 'executions', EXECUTIONS),
  // Parameters: executionUpdateValues (rows.ts), then the run id and the version it must still have.
  updateExecution: `UPDATE executions SET ${EXECUTION_UPDATES.map((c, i) => `${c.column} = $${i + 1}`).join(', ')}
    WHERE run_id = $${EXECUTION_UPDATES.length + 1} AND version = $${EXECUTION_UPDATES.length + 2}`,
  insertSecret: 'INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
  readSecret: 'SELECT value FROM server_secrets WHERE name = $1',
  readHistory: 'SELECT * FROM history_events WHERE run_id = $1 AND event_id >= $2 ORDER BY event_id LIMIT $3',
  deleteTasks: 'DELETE FROM tasks WHERE id = ANY($1::text[])',
  deleteTimers: 'DELETE FROM timers WHERE id = ANY($1::text[])',
  consumeTimer: 'DELETE FROM timers WHERE id = $1',
  purgeRunTasks: 'DELETE FROM tasks WHERE run_id = ANY($1::text[])',
  purgeRunTimers: 'DELETE FROM timers WHERE run_id = ANY($1::text[])',
  // SKIP LOCKED: concurrent pollers on any server each take a different row instead of queueing on one.
  claimTask: `UPDATE tasks SET lease_until = $5, lease_owner = $6 WHERE id = (
      SELECT id FROM tasks WHERE namespace = $1 AND task_queue = $2 AND kind = $3
        AND visible_at <= $4 AND (lease_until IS NULL OR lease_until <= $4)
      ORDER BY visible_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING *`,
  claimTasks: `UPDATE tasks SET lease_until = $5, lease_owner = $6 WHERE id IN (
      SELECT id FROM tasks WHERE namespace = $1 AND task_queue = $2 AND kind = $3
        AND visible_at <= $4 AND (lease_until IS NULL OR lease_until <= $4)
      ORDER BY visible_at, id LIMIT $7 FOR UPDATE SKIP LOCKED)
    RETURNING *`,
  claimTimers: `UPDATE timers SET lease_until = $2, lease_owner = $3 WHERE id IN (
      SELECT id FROM timers WHERE due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
      ORDER BY due_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
    RETURNING *`,
  nextWakeTime: `SELECT LEAST(
      (SELECT MIN(due_at) FROM timers WHERE lease_until IS NULL),
      (SELECT MIN(lease_until) FROM timers WHERE lease_until IS NOT NULL),
      (SELECT MIN(visible_at) FROM tasks WHERE visible_at > $1),
      (SELECT MIN(lease_until) FROM tasks WHERE lease_until > $1)) AS t`,
  readyQueues: `SELECT namespace, task_queue, kind, COUNT(*) AS count FROM tasks
    WHERE visible_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
    GROUP BY namespace, task_queue, kind`,
  notify: 'SELECT pg_notify($1, $2)',
  executionsByRunIds: 'SELECT * FROM executions WHERE run_id = ANY($1::text[])',
  attributeColumns: `SELECT name, type, column_name FROM search_attribute_columns WHERE namespace = $1 ORDER BY name`,
  // One registration at a time per namespace: two would pick the same free slot.
  attributeLock: "SELECT pg_advisory_xact_lock(hashtext('steadfast-search-attributes:' || $1))",
  insertAttributeColumn: 'INSERT INTO search_attribute_columns (namespace, name, type, column_name) VALUES ($1, $2, $3, $4)',
  createSchema: (schema: string) => `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`,
  // One lock per schema: two servers starting at once migrate one after the other.
  migrationLock: "SELECT pg_advisory_xact_lock(hashtext('steadfast-migrations:' || $1))",
  migrationsTable: 'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)',
  appliedMigrations: 'SELECT version FROM schema_migrations',
  recordMigration: 'INSERT INTO schema_migrations (version, name) VALUES ($1, $2)',
} as const;

/** Quotes an SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A multi-row INSERT with `$n` placeholders for `rows` rows of `columns.length` values. */
export function multiInsert(table: string, columns: readonly Column[], rows: number): string {
  const groups: string[] = [];
  let p = 1;
  for (let r = 0; r < rows; r++) {
    groups.push(`(${columns.map(() => `$${p++}`).join(', ')})`);
  }
  return `INSERT INTO ${table} (${columnList(columns)}) VALUES ${groups.join(', ')}`;
}
