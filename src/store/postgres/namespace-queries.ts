/* The PostgreSQL store's namespace statements and the retention sweep's deletion. */
import type pg from 'pg';
import { StoreConflictError } from '../errors.ts';
import { namespaceValues, toNamespace } from '../namespace-rows.ts';
import { insertSql, NAMESPACES } from '../columns.ts';
import type { NamespaceChanges, NamespaceRecord } from '../types.ts';

/** Each namespace query's one home. */
const NAMESPACE_SQL = {
  insert: `${insertSql('postgres', 'namespaces', NAMESPACES)} ON CONFLICT (name) DO NOTHING`,
  get: 'SELECT * FROM namespaces WHERE name = $1',
  list: 'SELECT * FROM namespaces WHERE name > $1 ORDER BY name LIMIT $2',
  update: `UPDATE namespaces SET description = COALESCE($2, description), owner_email = COALESCE($3, owner_email),
    retention_ms = COALESCE($4, retention_ms), update_time = $5 WHERE name = $1 RETURNING *`,
  // executions_by_close. SKIP LOCKED: two servers sweeping at once take different runs, and a run
  // a transition holds (a reset reading it) is left for the next sweep.
  lockExpired: `SELECT run_id FROM executions WHERE namespace = $1 AND close_time IS NOT NULL AND close_time < $2
    AND status <> 'Running' AND ($4::text IS NULL OR run_id = $4) ORDER BY close_time, run_id LIMIT $3 FOR UPDATE SKIP LOCKED`,
  deleteHistory: 'DELETE FROM history_events WHERE run_id = ANY($1::text[])',
  deleteVisibility: 'DELETE FROM executions_visibility WHERE run_id = ANY($1::text[])',
  deleteTasks: 'DELETE FROM tasks WHERE run_id = ANY($1::text[])',
  deleteTimers: 'DELETE FROM timers WHERE run_id = ANY($1::text[])',
  deleteExecutions: 'DELETE FROM executions WHERE run_id = ANY($1::text[])',
  markDeleted: `UPDATE namespaces SET state = 'Deleted', update_time = $2 WHERE name = $1 AND state = 'Registered' RETURNING *`,
  // The row locked for the purge's transaction: two servers purging at once take turns.
  lockDeleted: 'SELECT state FROM namespaces WHERE name = $1 FOR UPDATE',
  // executions_by_seq. Running runs too: a deleted namespace's runs end without a close event. Not
  // SKIP LOCKED: a run a transition holds is waited for, so no run is left behind when the batch
  // comes back short (purges of one namespace take turns on its row's lock).
  lockRuns: 'SELECT run_id FROM executions WHERE namespace = $1 ORDER BY seq LIMIT $2 FOR UPDATE',
  // What is left once its runs are gone: rows keyed by the namespace alone, then the namespace.
  purgeRest: [
    'DELETE FROM tasks WHERE namespace = $1',
    'DELETE FROM timers WHERE namespace = $1',
    'DELETE FROM executions_visibility WHERE namespace = $1',
    'DELETE FROM search_attribute_columns WHERE namespace = $1',
    'DELETE FROM task_queue_pollers WHERE namespace = $1',
  ],
  purgeSchedules: 'DELETE FROM schedules WHERE namespace = $1 RETURNING schedule_id',
  purgeRow: "DELETE FROM namespaces WHERE name = $1 AND state = 'Deleted'",
} as const;

type Query = (sql: string, params: unknown[]) => Promise<pg.QueryResult>;

/** Inserts a namespace row. */
export async function createNamespace(query: Query, r: NamespaceRecord): Promise<void> {
  if ((await query(NAMESPACE_SQL.insert, namespaceValues(r))).rowCount !== 1) {
    throw new StoreConflictError('namespaceExists', `namespace ${r.name} is registered already`);
  }
}

/** The namespace of that name. */
export async function getNamespace(query: Query, name: string): Promise<NamespaceRecord | undefined> {
  const row = (await query(NAMESPACE_SQL.get, [name])).rows[0] as Record<string, unknown> | undefined;
  return row ? toNamespace(row) : undefined;
}

/** A page of namespaces in name order. */
export async function listNamespaces(query: Query, afterName: string | undefined, limit: number): Promise<NamespaceRecord[]> {
  return (await query(NAMESPACE_SQL.list, [afterName ?? '', limit])).rows.map((r) => toNamespace(r as Record<string, unknown>));
}

/** Applies changes to a namespace row. */
export async function updateNamespace(query: Query, name: string, c: NamespaceChanges, updateTime: number): Promise<NamespaceRecord | undefined> {
  const row = (await query(NAMESPACE_SQL.update, [name, c.description ?? null, c.ownerEmail ?? null, c.retentionMs ?? null, updateTime]))
    .rows[0] as Record<string, unknown> | undefined;
  return row ? toNamespace(row) : undefined;
}

/** Turns a registered namespace Deleted, inside the caller's transaction; the row, or undefined. */
export async function markNamespaceDeleted(c: pg.PoolClient, name: string, updateTime: number): Promise<NamespaceRecord | undefined> {
  const row = (await c.query(NAMESPACE_SQL.markDeleted, [name, updateTime])).rows[0] as Record<string, unknown> | undefined;
  return row ? toNamespace(row) : undefined;
}

/**
 * One batch of a deleted namespace's purge, inside the caller's transaction (Store.purgeNamespace):
 * the runs removed, the schedules removed once the runs are all gone, and whether it is done.
 */
export async function purgeNamespace(c: pg.PoolClient, name: string, limit: number): Promise<{ runIds: string[]; scheduleIds: string[]; done: boolean }> {
  const state = (await c.query(NAMESPACE_SQL.lockDeleted, [name])).rows[0] as { state: string } | undefined;
  if (!state) return { runIds: [], scheduleIds: [], done: true };
  if (state.state !== 'Deleted') return { runIds: [], scheduleIds: [], done: false };
  const runIds = (await c.query(NAMESPACE_SQL.lockRuns, [name, limit])).rows.map((r: { run_id: string }) => r.run_id);
  if (runIds.length > 0) {
    for (const sql of [NAMESPACE_SQL.deleteHistory, NAMESPACE_SQL.deleteVisibility, NAMESPACE_SQL.deleteTasks, NAMESPACE_SQL.deleteTimers,
      NAMESPACE_SQL.deleteExecutions]) {
      await c.query(sql, [runIds]);
    }
  }
  if (runIds.length >= limit) return { runIds, scheduleIds: [], done: false };
  for (const sql of NAMESPACE_SQL.purgeRest) await c.query(sql, [name]);
  const scheduleIds = (await c.query(NAMESPACE_SQL.purgeSchedules, [name])).rows.map((r: { schedule_id: string }) => r.schedule_id);
  await c.query(NAMESPACE_SQL.purgeRow, [name]);
  return { runIds, scheduleIds, done: true };
}

/** Deletes a batch of expired closed runs and every row keyed by them, inside the caller's transaction. */
export async function deleteClosedRuns(c: pg.PoolClient, namespace: string, closedBefore: number, limit: number, runId?: string): Promise<string[]> {
  const runIds = (await c.query(NAMESPACE_SQL.lockExpired, [namespace, closedBefore, limit, runId ?? null])).rows.map((r: { run_id: string }) => r.run_id);
  if (runIds.length === 0) return runIds;
  for (const sql of [NAMESPACE_SQL.deleteHistory, NAMESPACE_SQL.deleteVisibility, NAMESPACE_SQL.deleteTasks, NAMESPACE_SQL.deleteTimers,
    NAMESPACE_SQL.deleteExecutions]) {
    await c.query(sql, [runIds]);
  }
  return runIds;
}
