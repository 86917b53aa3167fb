/* The SQLite store's task queue statements: pollers and backlog. */
import type BetterSqlite3 from 'better-sqlite3';
import { prepareAll, type Prepared } from './queries.ts';
import { pollerValues, toBacklog, toPoller, upsertPollerSql } from '../task-queue-rows.ts';
import type { PollerRecord, TaskQueueBacklog, TaskQueueRows } from '../types.ts';

type Row = Record<string, unknown>;

const SQL = {
  upsert: upsertPollerSql(['?', '?', '?', '?', '?', '?']),
  pollersOf: `SELECT * FROM task_queue_pollers WHERE namespace = @namespace AND task_queue = @taskQueue AND last_access_time >= @since
    ORDER BY last_access_time DESC, kind, identity`,
  pollersAll: `SELECT * FROM task_queue_pollers WHERE namespace = @namespace AND last_access_time >= @since
    ORDER BY last_access_time DESC, task_queue, kind, identity`,
  // tasks_by_queue
  backlog: `SELECT kind, COUNT(*) AS n, MIN(visible_at) AS oldest FROM tasks WHERE namespace = @namespace AND task_queue = @taskQueue
    AND kind IN ('workflow', 'activity') AND visible_at <= @now GROUP BY kind ORDER BY kind`,
  queues: `SELECT DISTINCT task_queue FROM tasks WHERE namespace = @namespace AND kind IN ('workflow', 'activity')
    AND task_queue > @afterName ORDER BY task_queue LIMIT @limit`,
} as const;

/** The task queue statements of one connection, prepared once; writes go through the store's writer. */
export class SqliteTaskQueues implements TaskQueueRows {
  readonly #q: Prepared<typeof SQL>;

  constructor(db: BetterSqlite3.Database, private readonly write: <T>(run: () => T) => Promise<T>) {
    this.#q = prepareAll(db, SQL);
    this.#q.queues.pluck();
  }

  recordPollers(rows: readonly PollerRecord[]): Promise<void> {
    return this.write(() => {
      for (const p of rows) this.#q.upsert.run(...pollerValues(p));
    });
  }

  async pollers(namespace: string, taskQueue: string | undefined, since: number): Promise<PollerRecord[]> {
    const rows = taskQueue === undefined ? this.#q.pollersAll.all({ namespace, since }) : this.#q.pollersOf.all({ namespace, taskQueue, since });
    return (rows as Row[]).map(toPoller);
  }

  async backlog(namespace: string, taskQueue: string, now: number): Promise<TaskQueueBacklog[]> {
    return (this.#q.backlog.all({ namespace, taskQueue, now }) as Row[]).map(toBacklog);
  }

  async queuesWithTasks(namespace: string, afterName: string, limit: number): Promise<string[]> {
    return this.#q.queues.all({ namespace, afterName, limit }) as string[];
  }
}
