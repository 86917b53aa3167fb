import type { WireHeaders } from '../common/headers.ts';
import type { HistoryEvent, WorkflowExecutionStatus } from '../history/events.ts';
import type { WorkflowIdReusePolicy } from '../history/id-reuse-policy.ts';
import type { WorkflowIdConflictPolicy } from '../history/id-conflict-policy.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import type { ResetReapplyExcludeType, ResetType } from './enums.ts';
import type { SearchAttributeWireValue } from './visibility.ts';
import type { WorkflowTask } from './tasks.ts';
import type { UserMetadata } from '../history/user-metadata.ts';

/* Starting, reading, listing and ending workflow executions. */

/** Starts a workflow execution (the first run of a chain). */
export interface StartWorkflowExecutionRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** The workflow id: at most one open run has it. */
  workflowId: string;
  /** The workflow function's name, as the worker registered it. */
  workflowType: string;
  /** The task queue whose workers run the workflow. */
  taskQueue: string;
  /** The workflow function's arguments. @default [] */
  args?: unknown[] | undefined;
  /** Data shown by describe and list, not indexed. */
  memo?: Record<string, unknown> | undefined;
  /** Workflows do not retry unless given a policy. */
  retryPolicy?: RetryPolicyData | undefined;
  /** Bound on the whole chain (retries, continue-as-new), ms. */
  workflowExecutionTimeoutMs?: number | undefined;
  /** Bound on one run, ms. @default the execution timeout */
  workflowRunTimeoutMs?: number | undefined;
  /** Bound on one workflow task, ms. @default 10 000 */
  workflowTaskTimeoutMs?: number | undefined;
  /** @default "AllowDuplicate" */
  workflowIdReusePolicy?: WorkflowIdReusePolicy | undefined;
  /**
   * What to do when a run of the id is running: `Fail` (the start is refused), `UseExisting` (the
   * answer is that run, `started: false`), `TerminateExisting` (terminated in the start's
   * transaction). Left out: refused, or terminated under the reuse policy TerminateIfRunning; a
   * signal-with-start signals the running run.
   */
  workflowIdConflictPolicy?: WorkflowIdConflictPolicy | undefined;
  /**
   * How long the first workflow task waits (Temporal's `workflowStartDelay`): recorded as the
   * start's first workflow task backoff. A signal that reaches the run meanwhile ends the wait;
   * the signal of the signal-with-start that started it does not. Not with `cronSchedule`.
   */
  workflowStartDelayMs?: number | undefined;
  /** Makes the start idempotent: a second start with the same id returns the first run. */
  requestId?: string | undefined;
  /** Who started it, for history. */
  identity?: string | undefined;
  /** Makes the workflow a cron job (classic five fields, `@every`, `CRON_TZ=`). */
  cronSchedule?: string | undefined;
  /**
   * Headers of the start (Temporal's `Headers`, in wire form), recorded in
   * WorkflowExecutionStarted for the workflow's inbound interceptors. The client's interceptors
   * fill it; the built-in tracing puts the caller's trace context here.
   */
  header?: WireHeaders | undefined;
  /** Custom search attributes registered in the namespace, by name (Datetime as ISO 8601). */
  searchAttributes?: Record<string, SearchAttributeWireValue> | undefined;
  /**
   * Eager start (Temporal's `requestEagerExecution`): a new run's first workflow task is started
   * in the start's own transaction, for `identity`, and comes back in the answer instead of going
   * to a poll. Ignored when the task cannot run now (a start delay, a cron wait, no new run).
   */
  requestEagerExecution?: boolean | undefined;
  /**
   * The run's static summary (one line, at most 400 characters) and details (at most 20,000),
   * Temporal's `staticSummary` / `staticDetails`: shown by describe, the list and the web UI.
   */
  userMetadata?: UserMetadata | undefined;
}

/** The answer to a start. */
export interface StartWorkflowExecutionResponse {
  /** The run started, or the run an earlier start with the same request id made. */
  runId: string;
  /** False when the request id matched an earlier start and no new run was made. */
  started: boolean;
  /** With `requestEagerExecution`: the new run's first workflow task, started for the caller's worker. */
  eagerWorkflowTask?: WorkflowTask | undefined;
}

/** Names a workflow execution: its latest run, or the run given. */
export interface ExecutionRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** The workflow id. */
  workflowId: string;
  /** @default the latest run */
  runId?: string | undefined;
}

/** Reads a run's history, a page at a time, or waits for its close. */
export interface GetHistoryRequest extends ExecutionRequest {
  /** @default 1000 */
  pageSize?: number | undefined;
  /** From the previous page's answer. */
  nextPageToken?: string | undefined;
  /** Return only the close event; with `waitForClose`, long-poll until the run closes. */
  closeEventOnly?: boolean | undefined;
  /** Long-poll (up to `waitTimeoutMs`) until the run has closed; answers `{ events: [] }` on timeout. */
  waitForClose?: boolean | undefined;
  /** @default 30 000 */
  waitTimeoutMs?: number | undefined;
}

/** One page of a run's history. */
export interface GetHistoryResponse {
  /** In event id order. */
  events: HistoryEvent[];
  /** Present when more events follow; pass it to read the next page. */
  nextPageToken?: string | undefined;
}

/** Lists runs by a query in the filter language, or by its shorthands. */
export interface ListWorkflowExecutionsRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /**
   * The filter language (docs/visibility.md), e.g. `WorkflowType = 'order' ORDER BY StartTime DESC`.
   * The filters below are shorthands for it and cannot be combined with it.
   */
  query?: string | undefined;
  /** Runs of this workflow type. */
  workflowType?: string | undefined;
  /** Runs in this status. */
  status?: WorkflowExecutionStatus | undefined;
  /** Runs whose workflow id starts with this. */
  workflowIdPrefix?: string | undefined;
  /** ISO time bounding the start time from below, inclusive. */
  startTimeFrom?: string | undefined;
  /** ISO time bounding the start time from above, inclusive. */
  startTimeTo?: string | undefined;
  /** ISO time bounding the close time from below, inclusive. */
  closeTimeFrom?: string | undefined;
  /** ISO time bounding the close time from above, inclusive. */
  closeTimeTo?: string | undefined;
  /** @default 100 */
  pageSize?: number | undefined;
  /** From the previous page's answer. */
  nextPageToken?: string | undefined;
}

/** Asks the run to cancel: WorkflowExecutionCancelRequested, which the workflow code handles. */
export interface CancelWorkflowRequest extends ExecutionRequest {
  /** Recorded in the event. */
  reason?: string | undefined;
  /** Who asked, for history. */
  identity?: string | undefined;
  /** Makes a repeated request a no-op, also once the run closed because of it. */
  requestId?: string | undefined;
}

/** Ends the run at once (Terminated), without running workflow code. */
export interface TerminateWorkflowRequest extends ExecutionRequest {
  /** Recorded in the event. @default "" */
  reason?: string | undefined;
  /** Recorded in the event. */
  details?: unknown | undefined;
  /** Who asked, for history. */
  identity?: string | undefined;
  /** Makes a repeated request a no-op once the run is terminated by it. */
  requestId?: string | undefined;
}

/**
 * Resets a run to one of its WorkflowTaskCompleted events (`eventId`, or the first or last
 * one): the open run of the workflow is terminated, and a new run gets the history up to that
 * workflow task, replays it and carries on from there.
 */
export interface ResetWorkflowRequest extends ExecutionRequest {
  /** A WorkflowTaskCompleted event id of the run; or use `resetType`. */
  eventId?: number | undefined;
  /** The first or the last WorkflowTaskCompleted; or use `eventId`. */
  resetType?: ResetType | undefined;
  /** Recorded in the events. @default "" */
  reason?: string | undefined;
  /** Who asked, for history. */
  identity?: string | undefined;
  /**
   * Re-apply the signals and the accepted updates received after the reset point to the new run
   * (Temporal's ResetReapplyType ALL_ELIGIBLE); false re-applies neither (NONE), as
   * `resetReapplyExcludeTypes: ['Signal', 'Update']` does. @default true
   */
  reapplySignals?: boolean | undefined;
  /**
   * Kinds of events after the reset point not re-applied to the new run (Temporal's
   * `resetReapplyExcludeTypes`): `Signal` leaves out the signals, `Update` the accepted updates;
   * each kind at most once. @default [] (both re-applied)
   */
  resetReapplyExcludeTypes?: ResetReapplyExcludeType[] | undefined;
}

/** The answer to a reset. */
export interface ResetWorkflowResponse {
  /** The new run. */
  runId: string;
}
