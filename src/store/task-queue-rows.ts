/* What both stores share of the task queue rows: the statements' shape and the row mapping. */
import type { PollerRecord, TaskQueueBacklog } from './types.ts';

/** A task_queue_pollers row back as a record (PostgreSQL bigints arrive as strings). */
export function toPoller(row: Record<string, unknown>): PollerRecord {
  return {
    namespace: String(row.namespace), taskQueue: String(row.task_queue), kind: row.kind as PollerRecord['kind'],
    identity: String(row.identity), lastAccessTime: Number(row.last_access_time), ratePerSecond: Number(row.rate_per_second),
  };
}

/** A backlog row (`kind`, `n`, `oldest`) back as a backlog. */
export function toBacklog(row: Record<string, unknown>): TaskQueueBacklog {
  const b: TaskQueueBacklog = { kind: row.kind as TaskQueueBacklog['kind'], count: Number(row.n) };
  if (row.oldest !== null && row.oldest !== undefined) b.oldestVisibleAt = Number(row.oldest);
  return b;
}

/** The values of a poller row, in the order of the insert's columns. */
export const pollerValues = (p: PollerRecord): unknown[] => [p.namespace, p.taskQueue, p.kind, p.identity, p.lastAccessTime, p.ratePerSecond];

/** The upsert of a poller: a later access time wins. */
export function upsertPollerSql(placeholders: readonly string[]): string {
  return `INSERT INTO task_queue_pollers (namespace, task_queue, kind, identity, last_access_time, rate_per_second)
    VALUES (${placeholders.join(', ')}) ON CONFLICT (namespace, task_queue, kind, identity) DO UPDATE SET
    last_access_time = excluded.last_access_time, rate_per_second = excluded.rate_per_second
    WHERE excluded.last_access_time >= task_queue_pollers.last_access_time`;
}
