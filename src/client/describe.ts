import type { WorkflowExecutionStatus } from '../history/events.ts';
import type {
  PendingActivityInfo, PendingChildInfo, PendingLocalActivityInfo, WorkflowExecutionDescription as WireDescription,
  WorkflowExecutionInfo as WireExecutionInfo,
} from '../protocol/index.ts';

/**
 * One run as `client.workflow.list()` yields it, in the shape of Temporal's
 * `WorkflowExecutionInfo`: ids, type, task queue, status, history length and size, times as
 * `Date`, memo, search attributes, parent; beside them the fields of the service's list entry
 * (`workflowType`, `namespace`, `attempt`, …), and `raw`, the entry as it came. As in describe,
 * `status` is steadfast's status name (`"Running"`, …), not `{ code, name }`.
 */
export interface WorkflowExecutionInfo extends Omit<WireExecutionInfo, 'startTime' | 'executionTime' | 'closeTime' | 'searchAttributes'> {
  /** The workflow type's name (the same as `workflowType`). */
  type: string;
  /** Bytes of the run's history (its events as UTF-8 JSON); absent when the server does not report it. */
  historySize?: number;
  startTime: Date;
  /** When the run's first workflow task could run (start time plus a retry or cron backoff). */
  executionTime: Date;
  /** Set once the run has closed. */
  closeTime?: Date;
  /** Custom search attributes of the run (Datetime values as ISO 8601 strings); `{}` when it has none. */
  searchAttributes: NonNullable<WireExecutionInfo['searchAttributes']>;
  /** The parent run, for a child workflow. */
  parentExecution?: { workflowId: string; runId: string };
  /** The service's entry as it came over the wire. */
  raw: WireExecutionInfo;
}

/** The flat, Temporal-shaped form of a service's list entry. */
export function toExecutionInfo(raw: WireExecutionInfo): WorkflowExecutionInfo {
  const { startTime, executionTime, closeTime, searchAttributes, ...rest } = raw;
  const info: WorkflowExecutionInfo = {
    ...rest,
    type: raw.workflowType,
    startTime: new Date(startTime),
    executionTime: new Date(executionTime),
    searchAttributes: searchAttributes ?? {},
    raw,
  };
  if (raw.historySizeBytes !== undefined) info.historySize = raw.historySizeBytes;
  if (closeTime !== undefined) info.closeTime = new Date(closeTime);
  if (raw.parent) info.parentExecution = { workflowId: raw.parent.workflowId, runId: raw.parent.runId };
  return info;
}

/**
 * What `handle.describe()` returns, shaped like Temporal's `WorkflowExecutionDescription`: the
 * run's ids, type, status, times as `Date`, memo and parent at the top level, the pending
 * activities and children, and `raw`, the service's answer as it came over the wire (with
 * every field it carries, such as the run's configuration and its pending workflow task).
 * Unlike Temporal, `status` is steadfast's status name (`"Running"`, `"Completed"`, …), not
 * `{ code, name }`.
 */
export interface WorkflowExecutionDescription {
  /** The workflow type's name. */
  type: string;
  workflowId: string;
  runId: string;
  taskQueue: string;
  status: WorkflowExecutionStatus;
  /** Events in the run's history. */
  historyLength: number;
  /** Bytes of the run's history (its events as UTF-8 JSON); absent when the server does not report it. */
  historySize?: number;
  startTime: Date;
  /** When the run's first workflow task could run (start time plus a retry or cron backoff). */
  executionTime: Date;
  /** Set once the run has closed. */
  closeTime?: Date;
  memo?: Record<string, unknown>;
  /** The parent run, for a child workflow. */
  parentExecution?: { workflowId: string; runId: string };
  /** The spec of a cron job's runs. */
  cronSchedule?: string;
  /** The run's attempt under the workflow retry policy: 1 for the first run. */
  attempt: number;
  /** Pending activities: attempt, state, last failure, next attempt time, last heartbeat (times as ISO strings). */
  pendingActivities: PendingActivityInfo[];
  /**
   * Local activities running in the worker, as it last reported them: a workflow task whose
   * local activities outlast most of its timeout reports them when it asks for the next task.
   */
  pendingLocalActivities: PendingLocalActivityInfo[];
  /** Child workflows started and not yet closed. */
  pendingChildren: PendingChildInfo[];
  /**
   * The run's workflow task while one is scheduled or started: its attempt and, while attempts
   * keep failing, the last failure (cause, type, message, the stack's first frames).
   */
  pendingWorkflowTask?: WireDescription['pendingWorkflowTask'];
  /** Custom search attributes of the run (Datetime values as ISO 8601 strings). */
  searchAttributes?: WireDescription['execution']['searchAttributes'];
  /** The start's `staticSummary`, as Temporal's describe gives it (a function resolving to the text, or undefined). */
  staticSummary: () => Promise<string | undefined>;
  /** The start's `staticDetails`, as Temporal's describe gives it (a function resolving to the text, or undefined). */
  staticDetails: () => Promise<string | undefined>;
  /** The service's answer as it came over the wire. */
  raw: WireDescription;
}

/** The flat description of a wire answer. */
export function toDescription(raw: WireDescription): WorkflowExecutionDescription {
  const e = raw.execution;
  const d: WorkflowExecutionDescription = {
    type: e.workflowType,
    workflowId: e.workflowId,
    runId: e.runId,
    taskQueue: e.taskQueue,
    status: e.status,
    historyLength: e.historyLength,
    startTime: new Date(e.startTime),
    executionTime: new Date(e.executionTime),
    attempt: e.attempt,
    pendingActivities: raw.pendingActivities,
    pendingLocalActivities: raw.pendingLocalActivities ?? [],
    pendingChildren: raw.pendingChildren,
    staticSummary: () => Promise.resolve(e.userMetadata?.summary),
    staticDetails: () => Promise.resolve(e.userMetadata?.details),
    raw,
  };
  if (e.historySizeBytes !== undefined) d.historySize = e.historySizeBytes;
  if (e.closeTime !== undefined) d.closeTime = new Date(e.closeTime);
  if (raw.pendingWorkflowTask !== undefined) d.pendingWorkflowTask = raw.pendingWorkflowTask;
  if (e.searchAttributes !== undefined) d.searchAttributes = e.searchAttributes;
  if (e.memo !== undefined) d.memo = e.memo;
  if (e.parent) d.parentExecution = { workflowId: e.parent.workflowId, runId: e.parent.runId };
  if (raw.config.cronSchedule !== undefined) d.cronSchedule = raw.config.cronSchedule;
  return d;
}
