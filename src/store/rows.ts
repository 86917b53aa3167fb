import type { EventType, HistoryEvent, WorkflowExecutionStatus } from '../history/events.ts';
import type { TimerRowKind } from '../history/timer-kinds.ts';
import type { SearchAttributeValue } from '../visibility/attributes.ts';
import type { ExecutionRecord, QueueRef, TaskKind, TaskRecord, TimerRecord } from './types.ts';
import { EXECUTION_UPDATES, EXECUTIONS, HISTORY_EVENTS, NEW_TASKS, NEW_TIMERS, type ColumnName } from './columns.ts';

/* Row ⇄ record mapping shared by both dialects: the column names are the same, and PostgreSQL
 * returns BIGINT columns as strings, hence the Number() on every integer. */

type Row = Record<string, unknown>;

function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}

function optNum(v: unknown): number | undefined {
  return v === null || v === undefined ? undefined : num(v);
}

function optStr(v: unknown): string | undefined {
  return v === null || v === undefined ? undefined : String(v);
}

/** An executions row as a record. */
export function toExecution(row: Row): ExecutionRecord {
  const rec: ExecutionRecord = {
    namespace: String(row.namespace),
    workflowId: String(row.workflow_id),
    runId: String(row.run_id),
    workflowType: String(row.workflow_type),
    taskQueue: String(row.task_queue),
    status: row.status as WorkflowExecutionStatus,
    startTime: num(row.start_time),
    executionTime: num(row.execution_time),
    nextEventId: num(row.next_event_id),
    attempt: num(row.attempt),
    firstExecutionRunId: String(row.first_execution_run_id),
    originalExecutionRunId: String(row.original_execution_run_id),
    version: num(row.version),
    state: JSON.parse(String(row.state)),
    seq: num(row.seq),
  };
  const closeTime = optNum(row.close_time);
  if (closeTime !== undefined) rec.closeTime = closeTime;
  const requestId = optStr(row.request_id);
  if (requestId !== undefined) rec.requestId = requestId;
  if (row.memo !== null && row.memo !== undefined) rec.memo = JSON.parse(String(row.memo)) as Record<string, unknown>;
  if (row.search_attributes !== null && row.search_attributes !== undefined) {
    rec.searchAttributes = JSON.parse(String(row.search_attributes)) as Record<string, SearchAttributeValue>;
  }
  const scheduledById = optStr(row.scheduled_by_id);
  if (scheduledById !== undefined) rec.scheduledById = scheduledById;
  const scheduledStartTime = optNum(row.scheduled_start_time);
  if (scheduledStartTime !== undefined) rec.scheduledStartTime = scheduledStartTime;
  return rec;
}

/** An execution record's column values by column; a column of {@link EXECUTIONS} without its value does not compile. */
function executionRow(rec: ExecutionRecord): Record<ColumnName<typeof EXECUTIONS>, unknown> {
  return {
    run_id: rec.runId, namespace: rec.namespace, workflow_id: rec.workflowId, workflow_type: rec.workflowType, task_queue: rec.taskQueue,
    status: rec.status, start_time: rec.startTime, execution_time: rec.executionTime, close_time: rec.closeTime ?? null,
    next_event_id: rec.nextEventId, attempt: rec.attempt, first_execution_run_id: rec.firstExecutionRunId,
    original_execution_run_id: rec.originalExecutionRunId, request_id: rec.requestId ?? null,
    memo: rec.memo === undefined ? null : JSON.stringify(rec.memo), state: JSON.stringify(rec.state), version: rec.version,
    search_attributes: searchAttributesJson(rec), scheduled_by_id: rec.scheduledById ?? null, scheduled_start_time: rec.scheduledStartTime ?? null,
  };
}

/** The column values of an execution record, in the order of {@link EXECUTIONS}. */
export function executionValues(rec: ExecutionRecord): unknown[] {
  const row = executionRow(rec);
  return EXECUTIONS.map((c) => row[c.column]);
}

/** The values a transition of an existing run writes, in the order of {@link EXECUTION_UPDATES}. */
export function executionUpdateValues(rec: ExecutionRecord): unknown[] {
  const row = executionRow(rec);
  return EXECUTION_UPDATES.map((c) => row[c.column]);
}

/** An event's history_events values, in the order of {@link HISTORY_EVENTS}. */
export function eventValues(runId: string, e: HistoryEvent): unknown[] {
  const row: Record<ColumnName<typeof HISTORY_EVENTS>, unknown> = {
    run_id: runId, event_id: e.eventId, event_type: e.eventType, event_time: e.eventTime, attributes: JSON.stringify(e.attributes),
  };
  return HISTORY_EVENTS.map((c) => row[c.column]);
}

/** A new task's values, in the order of {@link NEW_TASKS}. */
export function newTaskValues(k: TaskRecord): unknown[] {
  const row: Record<(typeof NEW_TASKS)[number]['column'], unknown> = {
    id: k.id, namespace: k.namespace, task_queue: k.taskQueue, kind: k.kind, run_id: k.runId, visible_at: k.visibleAt, data: JSON.stringify(k.data),
  };
  return NEW_TASKS.map((c) => row[c.column]);
}

/** A new timer's values, in the order of {@link NEW_TIMERS}. */
export function newTimerValues(k: TimerRecord): unknown[] {
  const row: Record<(typeof NEW_TIMERS)[number]['column'], unknown> = {
    id: k.id, namespace: k.namespace, run_id: k.runId, kind: k.kind, due_at: k.dueAt, data: JSON.stringify(k.data),
  };
  return NEW_TIMERS.map((c) => row[c.column]);
}

/** The search_attributes column of a record: its custom attributes as JSON, NULL when it has none. */
function searchAttributesJson(rec: ExecutionRecord): string | null {
  return rec.searchAttributes && Object.keys(rec.searchAttributes).length > 0 ? JSON.stringify(rec.searchAttributes) : null;
}

/** A history_events row as an event. */
export function toEvent(row: Row): HistoryEvent {
  return {
    eventId: num(row.event_id),
    eventType: row.event_type as EventType,
    eventTime: String(row.event_time),
    attributes: JSON.parse(String(row.attributes)),
  } as HistoryEvent;
}

/** A tasks row as a record. */
export function toTask(row: Row): TaskRecord {
  const rec: TaskRecord = {
    id: String(row.id),
    namespace: String(row.namespace),
    taskQueue: String(row.task_queue),
    kind: row.kind as TaskKind,
    runId: String(row.run_id),
    visibleAt: num(row.visible_at),
    data: JSON.parse(String(row.data)),
  };
  return withLease(rec, row);
}

/** A timers row as a record. */
export function toTimer(row: Row): TimerRecord {
  const rec: TimerRecord = {
    id: String(row.id),
    namespace: String(row.namespace),
    runId: String(row.run_id),
    // The store does not check kinds: a row of a kind this engine does not know is logged and consumed when it fires.
    kind: String(row.kind) as TimerRowKind,
    dueAt: num(row.due_at),
    data: JSON.parse(String(row.data)),
  };
  return withLease(rec, row);
}

/** A queue reference from a row with namespace, task_queue, kind. */
export function toQueueRef(row: Row): QueueRef & { count: number } {
  return { namespace: String(row.namespace), taskQueue: String(row.task_queue), kind: row.kind as TaskKind, count: num(row.count) };
}

/** Encodes a list cursor (the seq of the last run of a page). */
export function encodeSeqToken(seq: number): string {
  return Buffer.from(JSON.stringify({ seq }), 'utf8').toString('base64url');
}

/** Decodes a list cursor; undefined when the token is not one of ours. */
export function decodeSeqToken(token: string): number | undefined {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { seq?: unknown };
    return typeof v.seq === 'number' && Number.isInteger(v.seq) ? v.seq : undefined;
  } catch {
    return undefined;
  }
}

/** Copies a row's lease columns, when set, onto its task or timer record. */
function withLease<T extends { leaseUntil?: number; leaseOwner?: string }>(rec: T, row: Row): T {
  const leaseUntil = optNum(row.lease_until);
  if (leaseUntil !== undefined) rec.leaseUntil = leaseUntil;
  const owner = optStr(row.lease_owner);
  if (owner !== undefined) rec.leaseOwner = owner;
  return rec;
}
