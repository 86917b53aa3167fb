/* The SQLite store's namespace statements and the retention sweep's deletion. */
import type BetterSqlite3 from 'better-sqlite3';
import { prepareAll, type Prepared } from './queries.ts';
import { StoreConflictError } from '../errors.ts';
import { namespaceValues, toNamespace } from '../namespace-rows.ts';
import { insertSql, NAMESPACES } from '../columns.ts';
import type { NamespaceChanges, NamespaceRecord } from '../types.ts';

type Row = Record<string, unknown>;

const SQL = {
  insert: `${insertSql('sqlite', 'namespaces', NAMESPACES)} ON CONFLICT (name) DO NOTHING`,
  get: 'SELECT * FROM namespaces WHERE name = @name',
  list: 'SELECT * FROM namespaces WHERE name > @afterName ORDER BY name LIMIT @limit',
  update: `UPDATE namespaces SET description = COALESCE(@description, description),
    owner_email = COALESCE(@ownerEmail, owner_email), retention_ms = COALESCE(@retentionMs, retention_ms),
    update_time = @updateTime WHERE name = @name RETURNING *`,
  // executions_by_close; a closed run's close_time is set, a running one's is NULL.
  expired: `SELECT run_id FROM executions WHERE namespace = @namespace AND close_time IS NOT NULL
    AND close_time < @closedBefore AND status <> 'Running' AND (@runId IS NULL OR run_id = @runId) ORDER BY close_time, run_id LIMIT @limit`,
  deleteExecutions: 'DELETE FROM executions WHERE run_id IN (SELECT value FROM json_each(@runIds))',
  deleteHistory: 'DELETE FROM history_events WHERE run_id IN (SELECT value FROM json_each(@runIds))',
  deleteVisibility: 'DELETE FROM executions_visibility WHERE run_id IN (SELECT value FROM json_each(@runIds))',
  deleteTasks: 'DELETE FROM tasks WHERE run_id IN (SELECT value FROM json_each(@runIds))',
  deleteTimers: 'DELETE FROM timers WHERE run_id IN (SELECT value FROM json_each(@runIds))',
  markDeleted: `UPDATE namespaces SET state = 'Deleted', update_time = @updateTime WHERE name = @name AND state = 'Registered' RETURNING *`,
  state: 'SELECT state FROM namespaces WHERE name = @name',
  // executions_by_seq. Running runs too: a deleted namespace's runs end without a close event.
  runs: 'SELECT run_id FROM executions WHERE namespace = @name ORDER BY seq LIMIT @limit',
  // What is left once its runs are gone: rows keyed by the namespace alone, then the namespace.
  purgeTasks: 'DELETE FROM tasks WHERE namespace = @name',
  purgeTimers: 'DELETE FROM timers WHERE namespace = @name',
  purgeVisibility: 'DELETE FROM executions_visibility WHERE namespace = @name',
  purgeAttributes: 'DELETE FROM search_attribute_columns WHERE namespace = @name',
  purgePollers: 'DELETE FROM task_queue_pollers WHERE namespace = @name',
  purgeSchedules: 'DELETE FROM schedules WHERE namespace = @name',
  purgeRow: "DELETE FROM namespaces WHERE name = @name AND state = 'Deleted'",
} as const;

/** The namespace statements of one connection, prepared once. */
export class SqliteNamespaces {
  readonly #q: Prepared<typeof SQL>;

  constructor(db: BetterSqlite3.Database) {
    this.#q = prepareAll(db, SQL);
    this.#q.expired.pluck();
    this.#q.runs.pluck();
  }

  /** Turns a registered namespace Deleted; to run inside a write. */
  markDeleted(name: string, updateTime: number): NamespaceRecord | undefined {
    const row = this.#q.markDeleted.get({ name, updateTime }) as Row | undefined;
    return row ? toNamespace(row) : undefined;
  }

  /** One batch of a deleted namespace's purge (Store.purgeNamespace); to run inside a write. */
  purge(name: string, limit: number): { runIds: string[]; done: boolean } {
    const state = this.#q.state.get({ name }) as { state: string } | undefined;
    if (!state) return { runIds: [], done: true };
    if (state.state !== 'Deleted') return { runIds: [], done: false };
    const runIds = (this.#q.runs.all({ name, limit }) as unknown[]).map(String);
    if (runIds.length > 0) {
      const p = { runIds: JSON.stringify(runIds) };
      for (const s of [this.#q.deleteHistory, this.#q.deleteVisibility, this.#q.deleteTasks, this.#q.deleteTimers, this.#q.deleteExecutions]) s.run(p);
    }
    if (runIds.length >= limit) return { runIds, done: false };
    for (const s of [this.#q.purgeTasks, this.#q.purgeTimers, this.#q.purgeVisibility, this.#q.purgeAttributes, this.#q.purgePollers,
      this.#q.purgeSchedules, this.#q.purgeRow]) {
      s.run({ name });
    }
    return { runIds, done: true };
  }

  /** Inserts the row; to run inside a write. */
  create(r: NamespaceRecord): void {
    if (this.#q.insert.run(...namespaceValues(r)).changes !== 1) {
      throw new StoreConflictError('namespaceExists', `namespace ${r.name} is registered already`);
    }
  }

  get(name: string): NamespaceRecord | undefined {
    const row = this.#q.get.get({ name }) as Row | undefined;
    return row ? toNamespace(row) : undefined;
  }

  list(afterName: string | undefined, limit: number): NamespaceRecord[] {
    return (this.#q.list.all({ afterName: afterName ?? '', limit }) as Row[]).map(toNamespace);
  }

  /** Updates the row; to run inside a write. */
  update(name: string, c: NamespaceChanges, updateTime: number): NamespaceRecord | undefined {
    const row = this.#q.update.get({
      name, updateTime, description: c.description ?? null, ownerEmail: c.ownerEmail ?? null, retentionMs: c.retentionMs ?? null,
    }) as Row | undefined;
    return row ? toNamespace(row) : undefined;
  }

  /** Deletes a batch of expired closed runs and every row keyed by them; to run inside a write. */
  deleteClosedRuns(namespace: string, closedBefore: number, limit: number, runId?: string): string[] {
    const runIds = (this.#q.expired.all({ namespace, closedBefore, limit, runId: runId ?? null }) as unknown[]).map(String);
    if (runIds.length === 0) return runIds;
    const p = { runIds: JSON.stringify(runIds) };
    for (const s of [this.#q.deleteHistory, this.#q.deleteVisibility, this.#q.deleteTasks, this.#q.deleteTimers, this.#q.deleteExecutions]) s.run(p);
    return runIds;
  }
}
