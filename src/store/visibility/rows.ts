import type { WorkflowExecutionStatus } from '../../history/events.ts';
import type { SearchAttributeValue } from '../../visibility/attributes.ts';
import { storedTextForm } from '../../visibility/values.ts';
import type { VisibilityDialect } from './dialect.ts';
import { type CustomAttributeColumn, customColumn, slotColumns, VISIBILITY_TABLE } from './layout.ts';
import { SEARCH_ATTRIBUTE_TYPES } from '../../visibility/types.ts';

/** One run as the visibility table holds it. Times are epoch milliseconds. */
export interface VisibilityRecord {
  namespace: string;
  runId: string;
  workflowId: string;
  workflowType: string;
  taskQueue: string;
  status: WorkflowExecutionStatus;
  startTime: number;
  executionTime: number;
  closeTime?: number;
  historyLength: number;
  scheduledById?: string;
  scheduledStartTime?: number;
  /** Custom attribute values as returned by validateSearchAttributes (Datetime as ISO strings), without nulls. */
  searchAttributes?: Record<string, SearchAttributeValue>;
}

const ALL_SLOTS = SEARCH_ATTRIBUTE_TYPES.flatMap((t) => slotColumns(t));

/**
 * The column values of a record. Every slot column is written, NULL when the namespace's
 * attribute in it has no value, so an upsert that removes an attribute clears its slot.
 * ExecutionDuration is close time minus execution time (0 when a run closed before its
 * first backoff ended), NULL while the run is open.
 */
export function visibilityRow(dialect: VisibilityDialect, record: VisibilityRecord, attributes: readonly CustomAttributeColumn[]): Record<string, unknown> {
  const row: Record<string, unknown> = {
    run_id: record.runId, namespace: record.namespace, workflow_id: record.workflowId, workflow_type: record.workflowType,
    status: record.status, task_queue: record.taskQueue, start_time: record.startTime, execution_time: record.executionTime,
    close_time: record.closeTime ?? null,
    execution_duration: record.closeTime === undefined ? null : Math.max(0, record.closeTime - record.executionTime),
    history_length: record.historyLength, scheduled_by_id: record.scheduledById ?? null,
    scheduled_start_time: record.scheduledStartTime ?? null,
    search_attributes: record.searchAttributes && Object.keys(record.searchAttributes).length > 0 ? JSON.stringify(record.searchAttributes) : null,
  };
  for (const slot of ALL_SLOTS) row[slot] = null;
  for (const a of attributes) {
    const v = record.searchAttributes?.[a.name];
    if (v === undefined || v === null) continue;
    row[customColumn(a)] = slotValue(dialect, a, v);
  }
  return row;
}

function slotValue(dialect: VisibilityDialect, a: CustomAttributeColumn, v: SearchAttributeValue): unknown {
  switch (a.type) {
    case 'Text': return storedTextForm(v as string);
    case 'Bool': return dialect.bool(v as boolean);
    case 'Datetime': return Date.parse(v as string);
    case 'KeywordList': return dialect.keywordList(v as string[]);
    default: return v;
  }
}

/** An insert-or-replace of one record by run id, for the transaction that writes the run. */
export function upsertVisibilitySql(dialect: VisibilityDialect, record: VisibilityRecord, attributes: readonly CustomAttributeColumn[]): { sql: string; params: unknown[] } {
  const row = visibilityRow(dialect, record, attributes);
  const columns = Object.keys(row);
  const values = columns.map((_, i) => dialect.placeholder(i + 1));
  const updates = columns.filter((c) => c !== 'run_id').map((c) => `${c} = excluded.${c}`);
  return {
    sql: `INSERT INTO ${VISIBILITY_TABLE} (${columns.join(', ')}) VALUES (${values.join(', ')}) ON CONFLICT (run_id) DO UPDATE SET ${updates.join(', ')}`,
    params: columns.map((c) => row[c]),
  };
}

const num = (v: unknown): number | undefined => (v === null || v === undefined ? undefined : Number(v));

/** A result row of either store back as a record (PostgreSQL bigints arrive as strings). */
export function readVisibilityRow(row: Record<string, unknown>): VisibilityRecord {
  const rec: VisibilityRecord = {
    namespace: String(row.namespace), runId: String(row.run_id), workflowId: String(row.workflow_id),
    workflowType: String(row.workflow_type), taskQueue: String(row.task_queue), status: row.status as WorkflowExecutionStatus,
    startTime: Number(row.start_time), executionTime: Number(row.execution_time), historyLength: Number(row.history_length),
  };
  const closeTime = num(row.close_time);
  if (closeTime !== undefined) rec.closeTime = closeTime;
  if (row.scheduled_by_id !== null && row.scheduled_by_id !== undefined) rec.scheduledById = String(row.scheduled_by_id);
  const scheduledStart = num(row.scheduled_start_time);
  if (scheduledStart !== undefined) rec.scheduledStartTime = scheduledStart;
  if (typeof row.search_attributes === 'string') rec.searchAttributes = JSON.parse(row.search_attributes) as Record<string, SearchAttributeValue>;
  return rec;
}
