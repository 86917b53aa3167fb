import type { HistoryEvent, WorkflowExecutionStatus } from '../history/events.ts';
import type { WorkflowIdReusePolicy } from '../history/id-reuse-policy.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import type { ResetType } from './enums.ts';
import type { SearchAttributeWireValue } from './visibility.ts';

/* Starting, reading, listing and ending workflow executions. */

/** Starts a workflow execution (the first run of a chain). */
export interface StartWorkflowExecutionRequest {
  /** @default "default" */
  namespace?: string;
  /** The workflow id: at most one open run has it. */
  workflowId: string;
  /** The workflow function's name, as the worker registered it. */
  workflowType: string;
  /** The task queue whose workers run the workflow. */
  taskQueue: string;
  /** The workflow function's arguments. @default [] */
  args?: unknown[];
  /** Data shown by describe and list, not indexed. */
  memo?: Record<string, unknown>;
  /** Workflows do not retry unless given a policy. */
  retryPolicy?: RetryPolicyData;
  /** Bound on the whole chain (retries, continue-as-new), ms. */
  workflowExecutionTimeoutMs?: number;
  /** Bound on one run, ms. @default the execution timeout */
  workflowRunTimeoutMs?: number;
  /** Bound on one workflow task, ms. @default 10 000 */
  workflowTaskTimeoutMs?: number;
  /** @default "AllowDuplicate" */
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
  /** Makes the start idempotent: a second start with the same id returns the first run. */
  requestId?: string;
  /** Who started it, for history. */
  identity?: string;
  /** Makes the workflow a cron job (classic five fields, `@every`, `CRON_TZ=`). */
  cronSchedule?: string;
  /**
   * Trace context to start the run under (W3C `traceparent`, `tracestate`): recorded in
   * WorkflowExecutionStarted and handed to the run's activity tasks, so the worker's spans join
   * the caller's trace. The client fills it from the active OpenTelemetry context.
   */
  header?: Record<string, string>;
  /** Custom search attributes registered in the namespace, by name (Datetime as ISO 8601). */
  searchAttributes?: Record<string, SearchAttributeWireValue>;
}

/** The answer to a start. */
export interface StartWorkflowExecutionResponse {
  /** The run started, or the run an earlier start with the same request id made. */
  runId: string;
  /** False when the request id matched an earlier start and no new run was made. */
  started: boolean;
}

/** Names a workflow execution: its latest run, or the run given. */
export interface ExecutionRequest {
  /** @default "default" */
  namespace?: string;
  /** The workflow id. */
  workflowId: string;
  /** @default the latest run */
  runId?: string;
}

/** Reads a run's history, a page at a time, or waits for its close. */
export interface GetHistoryRequest extends ExecutionRequest {
  /** @default 1000 */
  pageSize?: number;
  /** From the previous page's answer. */
  nextPageToken?: string;
  /** Return only the close event; with `waitForClose`, long-poll until the run closes. */
  closeEventOnly?: boolean;
  /** Long-poll (up to `waitTimeoutMs`) until the run has closed; answers `{ events: [] }` on timeout. */
  waitForClose?: boolean;
  /** @default 30 000 */
  waitTimeoutMs?: number;
}

/** One page of a run's history. */
export interface GetHistoryResponse {
  /** In event id order. */
  events: HistoryEvent[];
  /** Present when more events follow; pass it to read the next page. */
  nextPageToken?: string;
}

/** Lists runs by a query in the filter language, or by its shorthands. */
export interface ListWorkflowExecutionsRequest {
  /** @default "default" */
  namespace?: string;
  /**
   * The filter language (docs/visibility.md), e.g. `WorkflowType = 'order' ORDER BY StartTime DESC`.
   * The filters below are shorthands for it and cannot be combined with it.
   */
  query?: string;
  /** Runs of this workflow type. */
  workflowType?: string;
  /** Runs in this status. */
  status?: WorkflowExecutionStatus;
  /** Runs whose workflow id starts with this. */
  workflowIdPrefix?: string;
  /** ISO time bounding the start time from below, inclusive. */
  startTimeFrom?: string;
  /** ISO time bounding the start time from above, inclusive. */
  startTimeTo?: string;
  /** ISO time bounding the close time from below, inclusive. */
  closeTimeFrom?: string;
  /** ISO time bounding the close time from above, inclusive. */
  closeTimeTo?: string;
  /** @default 100 */
  pageSize?: number;
  /** From the previous page's answer. */
  nextPageToken?: string;
}

/** Asks the run to cancel: WorkflowExecutionCancelRequested, which the workflow code handles. */
export interface CancelWorkflowRequest extends ExecutionRequest {
  /** Recorded in the event. */
  reason?: string;
  /** Who asked, for history. */
  identity?: string;
  /** Makes a repeated request a no-op, also once the run closed because of it. */
  requestId?: string;
}

/** Ends the run at once (Terminated), without running workflow code. */
export interface TerminateWorkflowRequest extends ExecutionRequest {
  /** Recorded in the event. @default "" */
  reason?: string;
  /** Recorded in the event. */
  details?: unknown;
  /** Who asked, for history. */
  identity?: string;
  /** Makes a repeated request a no-op once the run is terminated by it. */
  requestId?: string;
}

/**
 * Resets a run to one of its WorkflowTaskCompleted events (`eventId`, or the first or last
 * one): the open run of the workflow is terminated, and a new run gets the history up to that
 * workflow task, replays it and carries on from there.
 */
export interface ResetWorkflowRequest extends ExecutionRequest {
  /** A WorkflowTaskCompleted event id of the run; or use `resetType`. */
  eventId?: number;
  /** The first or the last WorkflowTaskCompleted; or use `eventId`. */
  resetType?: ResetType;
  /** Recorded in the events. @default "" */
  reason?: string;
  /** Who asked, for history. */
  identity?: string;
  /** Re-apply signals received after the reset point to the new run. @default true */
  reapplySignals?: boolean;
}

/** The answer to a reset. */
export interface ResetWorkflowResponse {
  /** The new run. */
  runId: string;
}
