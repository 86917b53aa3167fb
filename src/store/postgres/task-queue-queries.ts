/* The PostgreSQL store's task queue statements: pollers and backlog. */
import type pg from 'pg';
import { pollerValues, toBacklog, toPoller, upsertPollerSql } from '../task-queue-rows.ts';
import type { PollerRecord, TaskQueueBacklog, TaskQueueRows } from '../types.ts';

const SQL = {
  upsert: upsertPollerSql(['$1', '$2', '$3', '$4', '$5', '$6']),
  pollersOf: `SELECT * FROM task_queue_pollers WHERE namespace = $1 AND task_queue = $2 AND last_access_time >= $3
    ORDER BY last_access_time DESC, kind, identity`,
  pollersAll: `SELECT * FROM task_queue_pollers WHERE namespace = $1 AND last_access_time >= $2
    ORDER BY last_access_time DESC, task_queue, kind, identity`,
  // tasks_by_queue
  backlog: `SELECT kind, COUNT(*) AS n, MIN(visible_at) AS oldest FROM tasks WHERE namespace = $1 AND task_queue = $2
    AND kind IN ('workflow', 'activity') AND visible_at <= $3 GROUP BY kind ORDER BY kind`,
  queues: `SELECT DISTINCT task_queue FROM tasks WHERE namespace = $1 AND kind IN ('workflow', 'activity')
    AND task_queue > $2 ORDER BY task_queue LIMIT $3`,
} as const;

type Query = (sql: string, params: unknown[]) => Promise<pg.QueryResult>;

/** The task queue statements over the store's pool. */
export class PostgresTaskQueues implements TaskQueueRows {
  constructor(private readonly query: Query) {}

  async recordPollers(rows: readonly PollerRecord[]): Promise<void> {
    for (const p of rows) await this.query(SQL.upsert, pollerValues(p));
  }

  async pollers(namespace: string, taskQueue: string | undefined, since: number): Promise<PollerRecord[]> {
    const r = taskQueue === undefined ? await this.query(SQL.pollersAll, [namespace, since]) : await this.query(SQL.pollersOf, [namespace, taskQueue, since]);
    return r.rows.map((row) => toPoller(row as Record<string, unknown>));
  }

  async backlog(namespace: string, taskQueue: string, now: number): Promise<TaskQueueBacklog[]> {
    return (await this.query(SQL.backlog, [namespace, taskQueue, now])).rows.map((row) => toBacklog(row as Record<string, unknown>));
  }

  async queuesWithTasks(namespace: string, afterName: string, limit: number): Promise<string[]> {
    return (await this.query(SQL.queues, [namespace, afterName, limit])).rows.map((r: { task_queue: string }) => r.task_queue);
  }
}
