/* What both stores share to keep executions_visibility in step with executions: the record a
 * run's visibility row is made of, the search_attribute_columns statements, and the page
 * order of a list answered in two reads. */
import { ValidationError } from '../errors/index.ts';
import type { SearchAttributeDefinition, SearchAttributeType } from '../visibility/types.ts';
import type { ExecutionRecord } from './types.ts';
import { assignAttributeColumn, type CustomAttributeColumn } from './visibility/layout.ts';
import type { VisibilityRecord } from './visibility/rows.ts';

/** The visibility row of a run as it is after a transition. */
export function visibilityRecordOf(rec: ExecutionRecord): VisibilityRecord {
  const v: VisibilityRecord = {
    namespace: rec.namespace, runId: rec.runId, workflowId: rec.workflowId, workflowType: rec.workflowType,
    taskQueue: rec.taskQueue, status: rec.status, startTime: rec.startTime, executionTime: rec.executionTime,
    historyLength: rec.nextEventId - 1,
  };
  if (rec.closeTime !== undefined) v.closeTime = rec.closeTime;
  if (rec.taskFailing === true) v.taskFailing = true;
  if (rec.scheduledById !== undefined) v.scheduledById = rec.scheduledById;
  if (rec.scheduledStartTime !== undefined) v.scheduledStartTime = rec.scheduledStartTime;
  if (rec.searchAttributes && Object.keys(rec.searchAttributes).length > 0) v.searchAttributes = rec.searchAttributes;
  return v;
}

/** True when a run has custom attributes, so its write needs the namespace's slot columns. */
export function hasSearchAttributes(rec: ExecutionRecord): boolean {
  return rec.searchAttributes !== undefined && Object.keys(rec.searchAttributes).length > 0;
}

/** A search_attribute_columns row as a column assignment. */
export function toAttributeColumn(row: Record<string, unknown>): CustomAttributeColumn {
  return { name: String(row.name), type: String(row.type) as SearchAttributeType, column: String(row.column_name) };
}

/**
 * The slot a new attribute gets among a namespace's registered ones.
 * @throws ValidationError when the name is registered already or the type has no free slot.
 */
export function newAttributeColumn(namespace: string, existing: readonly CustomAttributeColumn[], definition: SearchAttributeDefinition): CustomAttributeColumn {
  const same = existing.find((c) => c.name === definition.name);
  if (same) {
    throw new ValidationError('name', `must not be registered already in namespace ${namespace} (it is, as ${same.type})`, definition.name);
  }
  return assignAttributeColumn(existing, definition);
}

/** Puts the execution rows of a page in the page's order (the second read returns them unordered). */
export function inPageOrder(runIds: readonly string[], records: readonly ExecutionRecord[]): ExecutionRecord[] {
  const byId = new Map(records.map((r) => [r.runId, r]));
  return runIds.map((id) => byId.get(id)).filter((r): r is ExecutionRecord => r !== undefined);
}
