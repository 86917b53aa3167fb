/* Every SQL statement of the SQLite store; each query has this one home. Named parameters
 * (@now, @runId, ...) are bound by better-sqlite3. Time always comes from the injected clock. */
import type BetterSqlite3 from 'better-sqlite3';
import { EXECUTION_UPDATES, EXECUTIONS, HISTORY_EVENTS, insertSql, NEW_TASKS, NEW_TIMERS } from '../columns.ts';

/** A map of SQL texts prepared on one connection, under the same keys. */
export type Prepared<T extends Record<string, string>> = { [K in keyof T]: BetterSqlite3.Statement };

/** Prepares every statement of a SQL map on `db` once. */
export function prepareAll<T extends Record<string, string>>(db: BetterSqlite3.Database, sql: T): Prepared<T> {
  return Object.fromEntries(Object.entries(sql).map(([k, text]) => [k, db.prepare(text)])) as Prepared<T>;
}

export const SQLITE_PRAGMAS = [
  'journal_mode = WAL',
  // FULL: a commit is on disk before any promise resolves, so an acknowledged transition survives power loss.
  'synchronous = FULL',
  'foreign_keys = ON',
  'busy_timeout = 5000',
];

export const Q = {
  insertSecret: 'INSERT INTO server_secrets (name, value) VALUES (@name, @value) ON CONFLICT (name) DO NOTHING',
  readSecret: 'SELECT value FROM server_secrets WHERE name = @name',
  getExecution: 'SELECT * FROM executions WHERE run_id = @runId',
  getLatestExecution:
    'SELECT * FROM executions WHERE namespace = @namespace AND workflow_id = @workflowId ORDER BY seq DESC LIMIT 1',
  findByRequestId:
    'SELECT * FROM executions WHERE namespace = @namespace AND workflow_id = @workflowId AND request_id = @requestId ORDER BY seq LIMIT 1',
  insertExecution: insertSql('sqlite', 'executions', EXECUTIONS),
  // Parameters: executionUpdateValues (rows.ts), then the run id and the version it must still have.
  updateExecution: `UPDATE executions SET ${EXECUTION_UPDATES.map((c) => `${c.column} = ?`).join(', ')}
    WHERE run_id = ? AND version = ?`,
  versionOf: 'SELECT version FROM executions WHERE run_id = @runId',
  anyRun: 'SELECT 1 AS x FROM executions WHERE namespace = @namespace AND workflow_id = @workflowId LIMIT 1',
  namespaceRegistered: "SELECT 1 AS x FROM namespaces WHERE name = @namespace AND state = 'Registered'",
  openRun: "SELECT run_id FROM executions WHERE namespace = @namespace AND workflow_id = @workflowId AND status = 'Running'",
  timerExists: 'SELECT 1 AS x FROM timers WHERE id = @id',
  insertEvent: insertSql('sqlite', 'history_events', HISTORY_EVENTS),
  readHistory:
    'SELECT * FROM history_events WHERE run_id = @runId AND event_id >= @fromEventId ORDER BY event_id LIMIT @limit',
  insertTask: insertSql('sqlite', 'tasks', NEW_TASKS),
  deleteTask: 'DELETE FROM tasks WHERE id = ?',
  // Claims lease in memory (task-leases.ts): the first candidate not leased there is taken.
  // Ties go to the row inserted first (rowid): the index already holds that order, no sort.
  getTask: 'SELECT * FROM tasks WHERE id = @id',
  claimCandidates: `SELECT id FROM tasks WHERE namespace = @namespace AND task_queue = @taskQueue AND kind = @kind
      AND visible_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
    ORDER BY visible_at, rowid`,
  insertTimer: insertSql('sqlite', 'timers', NEW_TIMERS),
  deleteTimer: 'DELETE FROM timers WHERE id = ?',
  claimTimers: `UPDATE timers SET lease_until = @leaseUntil, lease_owner = @owner WHERE id IN (
      SELECT id FROM timers WHERE due_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
      ORDER BY due_at, rowid LIMIT @limit)
    RETURNING *`,
  anyTimerDue: 'SELECT 1 AS x FROM timers WHERE due_at <= @now AND (lease_until IS NULL OR lease_until <= @now) LIMIT 1',
  purgeRunTasks: 'DELETE FROM tasks WHERE run_id = ?',
  purgeRunTimers: 'DELETE FROM timers WHERE run_id = ?',
  nextTimerDue: 'SELECT MIN(due_at) AS t FROM timers WHERE lease_until IS NULL',
  nextTimerLease: 'SELECT MIN(lease_until) AS t FROM timers WHERE lease_until IS NOT NULL',
  nextTaskVisible: 'SELECT MIN(visible_at) AS t FROM tasks WHERE visible_at > @now',
  nextTaskLease: 'SELECT MIN(lease_until) AS t FROM tasks WHERE lease_until > @now',
  readyQueues: `SELECT namespace, task_queue, kind, COUNT(*) AS count FROM tasks
    WHERE visible_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
    GROUP BY namespace, task_queue, kind`,
  executionsByRunIds: "SELECT * FROM executions WHERE run_id IN (SELECT value FROM json_each(@runIds))",
  attributeColumns: 'SELECT name, type, column_name FROM search_attribute_columns WHERE namespace = @namespace ORDER BY name',
  insertAttributeColumn: `INSERT INTO search_attribute_columns (namespace, name, type, column_name)
    VALUES (@namespace, @name, @type, @column)`,
  migrationsTable: 'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)',
  appliedMigrations: 'SELECT version FROM schema_migrations',
  recordMigration: 'INSERT INTO schema_migrations (version, name) VALUES (?, ?)',
} as const;
