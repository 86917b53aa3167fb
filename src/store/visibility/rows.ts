import type { WorkflowExecutionStatus } from '../../history/events.ts';
import type { SearchAttributeValue } from '../../visibility/attributes.ts';
import { storedTextForm } from '../../visibility/values.ts';
import type { VisibilityDialect } from './dialect.ts';
import { type CustomAttributeColumn, customColumn, slotColumns, VISIBILITY_TABLE } from './layout.ts';
import { SEARCH_ATTRIBUTE_TYPES } from '../../visibility/types.ts';
import { type ColumnName, VISIBILITY_BUILT_INS } from '../columns.ts';

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
  /** TaskFailing: the run's workflow task keeps failing. */
  taskFailing?: boolean;
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
    ...builtInRow(record, dialect.bool),
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

/** The built-in attributes' columns of a record; a column of {@link VISIBILITY_BUILT_INS} without its value does not compile. */
function builtInRow(record: VisibilityRecord, bool: (v: boolean) => unknown = (v) => v): Record<ColumnName<typeof VISIBILITY_BUILT_INS>, unknown> {
  return {
    run_id: record.runId, namespace: record.namespace, workflow_id: record.workflowId, workflow_type: record.workflowType,
    status: record.status, task_queue: record.taskQueue, start_time: record.startTime, execution_time: record.executionTime,
    close_time: record.closeTime ?? null,
    execution_duration: record.closeTime === undefined ? null : Math.max(0, record.closeTime - record.executionTime),
    history_length: record.historyLength, scheduled_by_id: record.scheduledById ?? null,
    scheduled_start_time: record.scheduledStartTime ?? null, task_failing: bool(record.taskFailing === true),
  };
}

/** The values of a record's built-in attribute columns, in the order of {@link VISIBILITY_BUILT_INS}. */
export function builtInVisibilityValues(record: VisibilityRecord): unknown[] {
  const row = builtInRow(record);
  return VISIBILITY_BUILT_INS.map((c) => row[c.column]);
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

/** The columns of a visibility row, in the order {@link visibilityRow} writes them. */
const ROW_COLUMNS = [...VISIBILITY_BUILT_INS.map((c) => c.column), 'search_attributes', ...ALL_SLOTS];

/** The columns a run's later transitions change when it has no custom attributes. */
const PROGRESS_COLUMNS = [
  'status', 'workflow_type', 'task_queue', 'execution_time', 'close_time', 'execution_duration', 'history_length', 'task_failing',
] as const satisfies readonly ColumnName<typeof VISIBILITY_BUILT_INS>[];

/** Upsert and progress statements of one dialect, built once: the text is the same for every row. */
export interface VisibilityWrites {
  /** Insert-or-replace of a whole row by run id; parameters from {@link VisibilityWrites.upsertParams}. */
  upsertSql: string;
  upsertParams(record: VisibilityRecord, attributes: readonly CustomAttributeColumn[]): unknown[];
  /**
   * Updates only what a transition of a run without custom attributes changes, and only while
   * its stored row has none either (`search_attributes IS NULL`): 0 rows changed means the whole
   * row must be upserted. Between them this is the common write, 7 columns instead of 40-odd.
   */
  progressSql: string;
  progressParams(record: VisibilityRecord): unknown[];
}

const writesByDialect = new Map<VisibilityDialect, VisibilityWrites>();

/** The dialect's visibility writes (memoized). */
export function visibilityWrites(dialect: VisibilityDialect): VisibilityWrites {
  let w = writesByDialect.get(dialect);
  if (w) return w;
  const values = ROW_COLUMNS.map((_, i) => dialect.placeholder(i + 1));
  const updates = ROW_COLUMNS.filter((c) => c !== 'run_id').map((c) => `${c} = excluded.${c}`);
  const sets = PROGRESS_COLUMNS.map((c, i) => `${c} = ${dialect.placeholder(i + 1)}`);
  w = {
    upsertSql: `INSERT INTO ${VISIBILITY_TABLE} (${ROW_COLUMNS.join(', ')}) VALUES (${values.join(', ')}) ON CONFLICT (run_id) DO UPDATE SET ${updates.join(', ')}`,
    upsertParams(record, attributes) {
      const row = visibilityRow(dialect, record, attributes);
      return ROW_COLUMNS.map((c) => row[c]);
    },
    progressSql: `UPDATE ${VISIBILITY_TABLE} SET ${sets.join(', ')} WHERE run_id = ${dialect.placeholder(PROGRESS_COLUMNS.length + 1)} AND search_attributes IS NULL`,
    progressParams(r) {
      const row = builtInRow(r, dialect.bool);
      return [...PROGRESS_COLUMNS.map((c) => row[c]), r.runId];
    },
  };
  writesByDialect.set(dialect, w);
  return w;
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
  if (row.task_failing === true || row.task_failing === 1) rec.taskFailing = true;
  if (typeof row.search_attributes === 'string') rec.searchAttributes = JSON.parse(row.search_attributes) as Record<string, SearchAttributeValue>;
  return rec;
}
