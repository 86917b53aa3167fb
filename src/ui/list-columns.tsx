import type { ComponentChildren } from 'preact';
import type { WorkflowExecutionInfo } from '../protocol/index.ts';
import type { SearchAttributeTypeName } from '../protocol/index.ts';
import { formatDuration, formatTime } from './format.ts';
import { href } from './router.ts';
import { StatusBadge } from './status.tsx';
import { taskQueueLink } from './task-queue-page.tsx';

/** A column of the workflows list; `attribute` is the search attribute it sorts by, if any. */
export interface ListColumn {
  id: string;
  label: string;
  attribute?: string;
  cell: (r: WorkflowExecutionInfo, zone: 'utc' | 'local') => ComponentChildren;
}

// Run ids are time-ordered (their first digits are the start time), so the last ones tell runs apart.
const link = (r: WorkflowExecutionInfo) => href(`/workflows/${encodeURIComponent(r.workflowId)}/${r.runId}`, {});

/** The built-in columns, in their order on screen. */
export const BUILT_IN_COLUMNS: readonly ListColumn[] = [
  {
    id: 'status', label: 'Status', attribute: 'ExecutionStatus',
    cell: (r) => <><StatusBadge status={r.status} />{r.taskFailing && <span class="badge failing" data-testid="task-failing" title="its workflow task keeps failing">task failing</span>}</>,
  },
  { id: 'workflowId', label: 'Workflow ID', attribute: 'WorkflowId', cell: (r) => <a href={link(r)}>{r.workflowId}</a> },
  { id: 'runId', label: 'Run ID', attribute: 'RunId', cell: (r) => <span class="mono" title={r.runId}>…{r.runId.slice(-8)}</span> },
  { id: 'type', label: 'Type', attribute: 'WorkflowType', cell: (r) => r.workflowType },
  { id: 'summary', label: 'Summary', cell: (r) => <span class="summary" title={r.userMetadata?.summary}>{r.userMetadata?.summary ?? ''}</span> },
  { id: 'taskQueue', label: 'Task queue', attribute: 'TaskQueue', cell: (r) => taskQueueLink(r.taskQueue) },
  { id: 'start', label: 'Start', attribute: 'StartTime', cell: (r, z) => <span class="mono">{formatTime(r.startTime, z)}</span> },
  { id: 'execution', label: 'Execution time', attribute: 'ExecutionTime', cell: (r, z) => <span class="mono">{formatTime(r.executionTime, z)}</span> },
  { id: 'close', label: 'Close', attribute: 'CloseTime', cell: (r, z) => <span class="mono">{formatTime(r.closeTime, z)}</span> },
  {
    id: 'duration', label: 'Duration', attribute: 'ExecutionDuration',
    cell: (r) => r.closeTime ? formatDuration(Date.parse(r.closeTime) - Date.parse(r.executionTime)) : '',
  },
  { id: 'events', label: 'Events', attribute: 'HistoryLength', cell: (r) => <span class="num">{r.historyLength}</span> },
  { id: 'attempt', label: 'Attempt', cell: (r) => r.attempt },
];

/** The columns shown until a person picks others. */
const DEFAULT_COLUMNS = ['status', 'workflowId', 'runId', 'type', 'summary', 'taskQueue', 'start', 'close', 'events'];

const SORTABLE: readonly SearchAttributeTypeName[] = ['Keyword', 'Int', 'Double', 'Datetime', 'Bool'];

/** A column for a custom search attribute, sortable when its type can be ordered. */
export function attributeColumn(name: string, type: SearchAttributeTypeName): ListColumn {
  return {
    id: `sa:${name}`, label: name, ...(SORTABLE.includes(type) ? { attribute: name } : {}),
    cell: (r) => {
      const v = r.searchAttributes?.[name];
      return v === undefined ? '' : Array.isArray(v) ? v.join(', ') : String(v);
    },
  };
}

const KEY = 'steadfast.columns';

/** The chosen column ids, kept in localStorage. */
export function loadColumns(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    return Array.isArray(v) && v.every((x) => typeof x === 'string') && v.length ? v : DEFAULT_COLUMNS;
  } catch {
    return DEFAULT_COLUMNS;
  }
}

/** Saves the chosen column ids. */
export function saveColumns(ids: string[]): void {
  localStorage.setItem(KEY, JSON.stringify(ids));
}
