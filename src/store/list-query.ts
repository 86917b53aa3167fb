import type { ExecutionQuery } from './types.ts';

/**
 * The visibility list query, shared by both dialects (they differ only in placeholders:
 * `?` for SQLite, `$n` for PostgreSQL). Newest first; `beforeSeq` is the page cursor.
 */
export function buildListQuery(q: ExecutionQuery, placeholder: (index: number) => string): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replace('?', placeholder(params.length)));
  };
  add('namespace = ?', q.namespace);
  if (q.workflowType !== undefined) add('workflow_type = ?', q.workflowType);
  if (q.status !== undefined) add('status = ?', q.status);
  if (q.workflowIdPrefix !== undefined) {
    // A range instead of LIKE: no escaping of % and _, and the workflow-id index applies.
    add('workflow_id >= ?', q.workflowIdPrefix);
    add('workflow_id < ?', `${q.workflowIdPrefix}\u{10FFFF}`);
  }
  if (q.startTimeFrom !== undefined) add('start_time >= ?', q.startTimeFrom);
  if (q.startTimeTo !== undefined) add('start_time <= ?', q.startTimeTo);
  if (q.closeTimeFrom !== undefined) add('close_time >= ?', q.closeTimeFrom);
  if (q.closeTimeTo !== undefined) add('close_time <= ?', q.closeTimeTo);
  if (q.beforeSeq !== undefined) add('seq < ?', q.beforeSeq);
  params.push(q.limit);
  const sql = `SELECT * FROM executions WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ${placeholder(params.length)}`;
  return { sql, params };
}
