import type { UserMetadata } from '../history/user-metadata.ts';
import type { UnpolledTaskQueue } from './task-queues.ts';
import type { FailureInfo } from '../common/failure.ts';
import type { ParentClosePolicy } from '../history/child-types.ts';
import type { ParentExecutionRef, WorkflowExecutionStatus } from '../history/events.ts';
import type { WorkflowTaskFailureInfo } from '../history/workflow-task-failure.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import type { BackoffInfo } from '../retry/policy-model.ts';
import type { PendingActivityState, PendingWorkflowTaskState } from './enums.ts';
import type { SearchAttributeWireValue } from './visibility.ts';

/* What describe and list answer about runs. Times are ISO-8601 strings. */

/** One run as list and describe show it. */
export interface WorkflowExecutionInfo {
  /** The run's namespace. */
  namespace: string;
  /** The workflow id. */
  workflowId: string;
  /** The run. */
  runId: string;
  /** The workflow function's name. */
  workflowType: string;
  /** The task queue its workflow tasks go to. */
  taskQueue: string;
  /** Running, or how it closed. */
  status: WorkflowExecutionStatus;
  /** When the run was created. */
  startTime: string;
  /** When the first workflow task may run (start time + firstWorkflowTaskBackoff). */
  executionTime: string;
  /** When the run closed. */
  closeTime?: string | undefined;
  /** Events in the run's history. */
  historyLength: number;
  /** Bytes of the run's history (its events as UTF-8 JSON), as the history size limits count them. */
  historySizeBytes?: number | undefined;
  /** The memo, as started or last modified. */
  memo?: Record<string, unknown> | undefined;
  /** 1 for the first run; counts runs made by the workflow retry policy. */
  attempt: number;
  /** The first run of the chain (retries, cron, continue-as-new). */
  firstExecutionRunId: string;
  /** The run a reset started from, or the first run. */
  originalExecutionRunId: string;
  /** The parent, for a child workflow. */
  parent?: ParentExecutionRef | undefined;
  /** Custom search attributes, and TemporalScheduledById/StartTime for a run a schedule started. */
  searchAttributes?: Record<string, SearchAttributeWireValue> | undefined;
  /** Present (true) while the open run's workflow task keeps failing: the TaskFailing search attribute. */
  taskFailing?: true | undefined;
  /** The start's static summary and details (Temporal's `staticSummary`, `staticDetails`), when it gave them. */
  userMetadata?: UserMetadata | undefined;
}

/** One page of runs. */
export interface ListWorkflowExecutionsResponse {
  /** In the query's order (start time, newest first, by default). */
  executions: WorkflowExecutionInfo[];
  /** Present when more runs follow; pass it to read the next page. */
  nextPageToken?: string | undefined;
}

/** An activity of a run that has not closed, as describe shows it. */
export interface PendingActivityInfo {
  /** The id the workflow gave it (its sequence number, unless given). */
  activityId: string;
  /** The activity function's name. */
  activityType: string;
  /** The ActivityTaskScheduled event's id. */
  scheduledEventId: number;
  /** Where the current attempt is. */
  state: PendingActivityState;
  /** The attempt running now, or the next one during a backoff. */
  attempt: number;
  /** From the retry policy; 0 = unlimited. */
  maximumAttempts: number;
  /** The backoff curve in force (Temporal's exponential, a horsies list, a Polly curve) and its summary. */
  backoff: BackoffInfo;
  /** When the activity was scheduled. */
  scheduledTime: string;
  /** When the last attempt started. */
  lastStartedTime?: string | undefined;
  /** During a retry backoff: when the next attempt is dispatched. */
  nextAttemptScheduleTime?: string | undefined;
  /** How the previous attempt failed. */
  lastFailure?: FailureInfo | undefined;
  /** When the last heartbeat came. */
  lastHeartbeatTime?: string | undefined;
  /** What the last heartbeat carried; the next attempt gets it. */
  heartbeatDetails?: unknown | undefined;
  /** Schedule-to-close deadline. */
  expirationTime?: string | undefined;
  /** The worker that took the last attempt. */
  lastWorkerIdentity?: string | undefined;
  /** The summary the workflow gave the activity (`summary` in its options, Temporal's user metadata). */
  summary?: string | undefined;
}

/**
 * A local activity running in the worker that runs the run's workflow task, as that worker last
 * reported it: a task whose local activities outlast most of its timeout completes with
 * forceCreateNewWorkflowTask and reports them. Shorter ones are not seen here.
 */
export interface PendingLocalActivityInfo {
  activityId: string;
  activityType: string;
  /** The attempt running (or waiting for its retry in the worker). */
  attempt: number;
  /** When the first attempt was scheduled. */
  scheduledTime: string;
  /** When the current attempt started. */
  lastStartedTime?: string | undefined;
  /** How the previous attempt failed. */
  lastFailure?: FailureInfo | undefined;
  /** When the worker reported it. */
  reportedTime: string;
  /** The worker running it. */
  lastWorkerIdentity: string;
}

/** A child workflow a run started and that has not closed. */
export interface PendingChildInfo {
  /** The child's workflow id. */
  workflowId: string;
  /** The child's run, once started. */
  runId?: string | undefined;
  /** The child's workflow type. */
  workflowType: string;
  /** The StartChildWorkflowExecutionInitiated event's id. */
  initiatedEventId: number;
  /** What happens to the child when this run closes. */
  parentClosePolicy: ParentClosePolicy;
}

/** The answer to describeWorkflowExecution. */
export interface WorkflowExecutionDescription {
  /** The run, as list shows it. */
  execution: WorkflowExecutionInfo;
  /** The run's settings, as resolved at start. */
  config: {
    workflowExecutionTimeoutMs?: number | undefined;
    workflowRunTimeoutMs?: number | undefined;
    workflowTaskTimeoutMs: number;
    retryPolicy?: RetryPolicyData | undefined;
    /** The spec of a cron job, as given at start. */
    cronSchedule?: string | undefined;
  };
  /** In scheduled order. */
  pendingActivities: PendingActivityInfo[];
  /** Local activities running in the worker, as it last reported them; absent when none were reported. */
  pendingLocalActivities?: PendingLocalActivityInfo[] | undefined;
  /** In initiated order. */
  pendingChildren: PendingChildInfo[];
  /** The workflow task scheduled or running, if any. */
  pendingWorkflowTask?: {
    state: PendingWorkflowTaskState;
    /** 1, then 2, 3, … while attempts keep failing or timing out. */
    attempt: number;
    scheduledTime: string;
    startedTime?: string | undefined;
    /** Why the previous attempt failed, while attempts keep failing; absent once one completes. */
    lastFailure?: WorkflowTaskFailureInfo | undefined;
  } | undefined;
  /** The run this one continued (retry, cron, continue-as-new). */
  continuedFromRunId?: string | undefined;
  /** The run that continued this one. */
  continuedAsNewToRunId?: string | undefined;
  /** Present while the open run's task queue has had no poller for a while: nothing can move it. */
  taskQueueUnpolled?: UnpolledTaskQueue | undefined;
}
