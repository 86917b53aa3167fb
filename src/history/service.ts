import type { FailureInfo } from '../common/failure.ts';
import type { SdkMetadata } from '../common/sdk-metadata.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import type { BackoffInfo } from '../retry/policy-model.ts';
import type { Command } from './commands.ts';
import { MESSAGE_LONG_POLL_METHODS, MESSAGE_SERVICE_METHODS, type MessageService } from './message-types.ts';
import { SCHEDULE_SERVICE_METHODS, type ScheduleService } from './schedule-types.ts';
import type {
  HistoryEvent, ParentExecutionRef, WorkflowExecutionStatus, WorkflowTaskFailedCause,
} from './events.ts';
import type { WorkflowTaskFailureInfo } from './workflow-task-failure.ts';
import { VISIBILITY_SERVICE_METHODS, type SearchAttributeWireValue, type VisibilityService } from './visibility-types.ts';

/**
 * The service contract between the engine and everything that talks to it: the HTTP server
 * exposes exactly these calls, the HTTP client transport implements them, and the worker and
 * `Client` use them without knowing which side of a socket the engine is on.
 *
 * Times are ISO-8601 strings; durations are milliseconds in fields ending in `Ms`.
 */
export interface WorkflowService extends MessageService, ScheduleService, VisibilityService {
  startWorkflowExecution(req: StartWorkflowExecutionRequest): Promise<StartWorkflowExecutionResponse>;
  describeWorkflowExecution(req: ExecutionRequest): Promise<WorkflowExecutionDescription>;
  getWorkflowExecutionHistory(req: GetHistoryRequest, opts?: CallOptions): Promise<GetHistoryResponse>;
  listWorkflowExecutions(req: ListWorkflowExecutionsRequest): Promise<ListWorkflowExecutionsResponse>;
  requestCancelWorkflowExecution(req: CancelWorkflowRequest): Promise<void>;
  terminateWorkflowExecution(req: TerminateWorkflowRequest): Promise<void>;
  resetWorkflowExecution(req: ResetWorkflowRequest): Promise<ResetWorkflowResponse>;

  pollWorkflowTaskQueue(req: PollRequest, opts?: CallOptions): Promise<WorkflowTask | null>;
  respondWorkflowTaskCompleted(req: RespondWorkflowTaskCompletedRequest): Promise<void>;
  respondWorkflowTaskFailed(req: RespondWorkflowTaskFailedRequest): Promise<void>;

  pollActivityTaskQueue(req: PollRequest, opts?: CallOptions): Promise<ActivityTask | null>;
  /**
   * A worker is stopping: its waiting polls are answered empty now, and late ones at once, so it
   * can let its polls finish rather than cut them (a task handed out meanwhile still reaches it).
   */
  shutdownWorker?(req: ShutdownWorkerRequest): Promise<void>;
  /**
   * Gives back a task a poll produced for a caller that was gone before the answer could be
   * delivered (the HTTP server calls it when the client's connection closed first), so it is
   * handed out again now instead of after its timeout. Not an HTTP call: in-process only.
   */
  returnUndeliveredTask?(task: { taskToken: string; activityId?: string }): Promise<void>;

  recordActivityTaskHeartbeat(req: RecordHeartbeatRequest): Promise<RecordHeartbeatResponse>;
  respondActivityTaskCompleted(req: RespondActivityTaskCompletedRequest): Promise<void>;
  respondActivityTaskFailed(req: RespondActivityTaskFailedRequest): Promise<void>;
  respondActivityTaskCanceled(req: RespondActivityTaskCanceledRequest): Promise<void>;
}

/** Per-call options that do not travel in the request body. */
export interface CallOptions {
  /** Ends a long poll early; the call then resolves with its empty answer. */
  signal?: AbortSignal;
}

export type WorkflowIdReusePolicy =
  | 'AllowDuplicate'
  | 'AllowDuplicateFailedOnly'
  | 'RejectDuplicate'
  | 'TerminateIfRunning';

export const WORKFLOW_ID_REUSE_POLICIES: readonly WorkflowIdReusePolicy[] = [
  'AllowDuplicate', 'AllowDuplicateFailedOnly', 'RejectDuplicate', 'TerminateIfRunning',
];

export interface StartWorkflowExecutionRequest {
  /** @default "default" */
  namespace?: string;
  workflowId: string;
  workflowType: string;
  taskQueue: string;
  args?: unknown[];
  memo?: Record<string, unknown>;
  /** Workflows do not retry unless given a policy. */
  retryPolicy?: RetryPolicyData;
  workflowExecutionTimeoutMs?: number;
  /** @default the execution timeout */
  workflowRunTimeoutMs?: number;
  /** @default 10 000 */
  workflowTaskTimeoutMs?: number;
  /** @default "AllowDuplicate" */
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
  /** Makes the start idempotent: a second start with the same id returns the first run. */
  requestId?: string;
  identity?: string;
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

export interface StartWorkflowExecutionResponse {
  runId: string;
  /** False when the request id matched an earlier start and no new run was made. */
  started: boolean;
}

export interface ExecutionRequest {
  namespace?: string;
  workflowId: string;
  /** @default the latest run */
  runId?: string;
}

export interface GetHistoryRequest extends ExecutionRequest {
  /** @default 1000 */
  pageSize?: number;
  nextPageToken?: string;
  /** Return only the close event; with `waitForClose`, long-poll until the run closes. */
  closeEventOnly?: boolean;
  /** Long-poll (up to `waitTimeoutMs`) until the run has closed; answers `{ events: [] }` on timeout. */
  waitForClose?: boolean;
  /** @default 30 000 */
  waitTimeoutMs?: number;
}

export interface GetHistoryResponse {
  events: HistoryEvent[];
  nextPageToken?: string;
}

export interface ListWorkflowExecutionsRequest {
  namespace?: string;
  /**
   * The filter language (docs/visibility.md), e.g. `WorkflowType = 'order' ORDER BY StartTime DESC`.
   * The filters below are shorthands for it and cannot be combined with it.
   */
  query?: string;
  workflowType?: string;
  status?: WorkflowExecutionStatus;
  workflowIdPrefix?: string;
  /** ISO times bounding the start time, inclusive. */
  startTimeFrom?: string;
  startTimeTo?: string;
  /** ISO times bounding the close time, inclusive. */
  closeTimeFrom?: string;
  closeTimeTo?: string;
  /** @default 100 */
  pageSize?: number;
  nextPageToken?: string;
}

export interface ListWorkflowExecutionsResponse {
  executions: WorkflowExecutionInfo[];
  nextPageToken?: string;
}

export interface WorkflowExecutionInfo {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  status: WorkflowExecutionStatus;
  startTime: string;
  /** When the first workflow task may run (start time + firstWorkflowTaskBackoff). */
  executionTime: string;
  closeTime?: string;
  historyLength: number;
  /** Bytes of the run's history (its events as UTF-8 JSON), as the history size limits count them. */
  historySizeBytes?: number;
  memo?: Record<string, unknown>;
  attempt: number;
  firstExecutionRunId: string;
  originalExecutionRunId: string;
  parent?: ParentExecutionRef;
  /** Custom search attributes, and TemporalScheduledById/StartTime for a run a schedule started. */
  searchAttributes?: Record<string, SearchAttributeWireValue>;
}

export interface PendingActivityInfo {
  activityId: string;
  activityType: string;
  scheduledEventId: number;
  state: 'Scheduled' | 'Started' | 'CancelRequested';
  /** The attempt running now, or the next one during a backoff. */
  attempt: number;
  maximumAttempts: number;
  /** The backoff curve in force (Temporal's exponential, a horsies list, a Polly curve) and its summary. */
  backoff: BackoffInfo;
  scheduledTime: string;
  lastStartedTime?: string;
  /** During a retry backoff: when the next attempt is dispatched. */
  nextAttemptScheduleTime?: string;
  lastFailure?: FailureInfo;
  lastHeartbeatTime?: string;
  heartbeatDetails?: unknown;
  /** Schedule-to-close deadline. */
  expirationTime?: string;
  lastWorkerIdentity?: string;
}

export interface PendingChildInfo {
  workflowId: string;
  runId?: string;
  workflowType: string;
  initiatedEventId: number;
  parentClosePolicy: 'Terminate' | 'RequestCancel' | 'Abandon';
}

export interface WorkflowExecutionDescription {
  execution: WorkflowExecutionInfo;
  config: {
    workflowExecutionTimeoutMs?: number;
    workflowRunTimeoutMs?: number;
    workflowTaskTimeoutMs: number;
    retryPolicy?: RetryPolicyData;
    /** The spec of a cron job, as given at start. */
    cronSchedule?: string;
  };
  pendingActivities: PendingActivityInfo[];
  pendingChildren: PendingChildInfo[];
  pendingWorkflowTask?: {
    state: 'Scheduled' | 'Started';
    /** 1, then 2, 3, … while attempts keep failing or timing out. */
    attempt: number;
    scheduledTime: string;
    startedTime?: string;
    /** Why the previous attempt failed, while attempts keep failing; absent once one completes. */
    lastFailure?: WorkflowTaskFailureInfo;
  };
  /** Links of the run chain. */
  continuedFromRunId?: string;
  continuedAsNewToRunId?: string;
}

export interface CancelWorkflowRequest extends ExecutionRequest {
  reason?: string;
  identity?: string;
  /** Makes a repeated request a no-op, also once the run closed because of it. */
  requestId?: string;
}

export interface TerminateWorkflowRequest extends ExecutionRequest {
  reason?: string;
  details?: unknown;
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
  resetType?: 'FirstWorkflowTask' | 'LastWorkflowTask';
  reason?: string;
  identity?: string;
  /** Re-apply signals received after the reset point to the new run. @default true */
  reapplySignals?: boolean;
}

export interface ResetWorkflowResponse {
  /** The new run. */
  runId: string;
}

export interface PollRequest {
  namespace?: string;
  taskQueue: string;
  identity: string;
  /** How long to hold the poll open when there is no task. @default 30 000 */
  pollTimeoutMs?: number;
  /**
   * Tells apart workers that share an identity (several in one process); `shutdownWorker`
   * ends the polls of this instance only.
   */
  workerInstanceId?: string;
  /**
   * Most tasks one answer may carry: the task itself plus up to `maxTasks - 1` more in its
   * `moreTasks`, taken only when they are ready at once (a poll never waits to fill up).
   * @default 1
   */
  maxTasks?: number;
}

export interface ShutdownWorkerRequest {
  namespace?: string;
  taskQueue: string;
  identity: string;
  workerInstanceId?: string;
}

export interface WorkflowTask {
  /** Opaque; hand it back with the response. */
  taskToken: string;
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  /** Workflow task attempt: 1, then 2, 3, … after failures or timeouts. */
  attempt: number;
  /**
   * Started-event id of the last workflow task that completed; 0 for a run's first task.
   * `history` holds every event after it. A worker whose cached state of this run is not at
   * exactly this event id fetches the whole history instead.
   */
  previousStartedEventId: number;
  startedEventId: number;
  history: HistoryEvent[];
  /** How long the worker has to answer before the task times out, ms (the run's workflowTaskTimeout). */
  workflowTaskTimeoutMs?: number;
  /** Further tasks started for the same poll (see PollRequest.maxTasks); each is answered on its own. */
  moreTasks?: WorkflowTask[];
}

export interface RespondWorkflowTaskCompletedRequest {
  taskToken: string;
  commands: Command[];
  identity: string;
  /** Recorded on the task's WorkflowTaskCompleted event: the replay flags the task used first. */
  sdkMetadata?: SdkMetadata;
}

export interface RespondWorkflowTaskFailedRequest {
  taskToken: string;
  cause: WorkflowTaskFailedCause;
  failure: FailureInfo;
  identity: string;
}

export interface ActivityTask {
  taskToken: string;
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  activityId: string;
  activityType: string;
  taskQueue: string;
  args: unknown[];
  attempt: number;
  scheduledEventId: number;
  scheduledTime: string;
  currentAttemptScheduledTime: string;
  startedTime: string;
  /** Details of the last heartbeat of an earlier attempt (or this one). */
  heartbeatDetails?: unknown;
  heartbeatTimeoutMs?: number;
  startToCloseTimeoutMs?: number;
  scheduleToCloseTimeoutMs?: number;
  /** Further tasks started for the same poll (see PollRequest.maxTasks); each is answered on its own. */
  moreTasks?: ActivityTask[];
  /** Trace context of the run's start (see StartWorkflowExecutionRequest.header). */
  header?: Record<string, string>;
}

export interface RecordHeartbeatRequest {
  taskToken: string;
  details?: unknown;
  identity?: string;
}

export interface RecordHeartbeatResponse {
  /** The workflow asked for this activity to be cancelled. */
  cancelRequested: boolean;
}

export interface RespondActivityTaskCompletedRequest {
  taskToken: string;
  result?: unknown;
  identity: string;
}

export interface RespondActivityTaskFailedRequest {
  taskToken: string;
  failure: FailureInfo;
  identity: string;
  lastHeartbeatDetails?: unknown;
}

export interface RespondActivityTaskCanceledRequest {
  taskToken: string;
  details?: unknown;
  identity: string;
}

/** Every call of the contract, in the order the HTTP API lists them. */
export const WORKFLOW_SERVICE_METHODS = [
  'startWorkflowExecution',
  'describeWorkflowExecution',
  'getWorkflowExecutionHistory',
  'listWorkflowExecutions',
  'requestCancelWorkflowExecution',
  'terminateWorkflowExecution',
  'resetWorkflowExecution',
  'pollWorkflowTaskQueue',
  'respondWorkflowTaskCompleted',
  'respondWorkflowTaskFailed',
  'pollActivityTaskQueue',
  'shutdownWorker',
  'recordActivityTaskHeartbeat',
  'respondActivityTaskCompleted',
  'respondActivityTaskFailed',
  'respondActivityTaskCanceled',
  ...MESSAGE_SERVICE_METHODS,
  ...SCHEDULE_SERVICE_METHODS,
  ...VISIBILITY_SERVICE_METHODS,
] as const satisfies readonly (keyof WorkflowService)[];

export type WorkflowServiceMethod = (typeof WORKFLOW_SERVICE_METHODS)[number];

/** Calls that may hold the request open (long polls); they take CallOptions. */
export const LONG_POLL_METHODS: readonly WorkflowServiceMethod[] = [
  'getWorkflowExecutionHistory', 'pollWorkflowTaskQueue', 'pollActivityTaskQueue', ...MESSAGE_LONG_POLL_METHODS,
];
