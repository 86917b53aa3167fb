import type { FailureInfo, RetryState, TimeoutType } from '../common/failure.ts';
import type { SdkMetadata } from '../common/sdk-metadata.ts';
import type { WireHeaders } from '../common/headers.ts';
import type { PolicyData, RetryPolicyData } from '../retry/policy-data.ts';
import type { ChildEventAttributes } from './child-types.ts';
import type { MessageEventAttributes } from './message-types.ts';
import type { SearchAttributeStoredValue } from './search-attribute-values.ts';
import type { UserMetadata } from './user-metadata.ts';

/** Why a run closed and another run of the same chain started. */
export type ContinueAsNewInitiator = 'Workflow' | 'RetryPolicy' | 'CronSchedule';

/** Closed-or-open states of a run, as the seeds name them. */
export const WORKFLOW_STATUSES = [
  'Running', 'Completed', 'Failed', 'Canceled', 'Terminated', 'ContinuedAsNew', 'TimedOut',
] as const;

/** One of {@link WORKFLOW_STATUSES}. */
export type WorkflowExecutionStatus = (typeof WORKFLOW_STATUSES)[number];

/** Reference to the parent of a child workflow. */
export interface ParentExecutionRef {
  namespace: string;
  workflowId: string;
  runId: string;
  initiatedEventId: number;
}

/** Activity timeouts in ms, as resolved by the engine when the activity is scheduled. */
export interface ActivityTimeouts {
  scheduleToCloseTimeoutMs?: number;
  scheduleToStartTimeoutMs?: number;
  startToCloseTimeoutMs?: number;
  heartbeatTimeoutMs?: number;
}

/** Attributes of each event type, keyed by the seeds' event names. */
export interface EventAttributes extends ChildEventAttributes, MessageEventAttributes {
  WorkflowExecutionStarted: {
    workflowType: string;
    taskQueue: string;
    args: unknown[];
    memo?: Record<string, unknown>;
    retryPolicy?: RetryPolicyData;
    workflowExecutionTimeoutMs?: number;
    workflowRunTimeoutMs?: number;
    workflowTaskTimeoutMs: number;
    /** 1 for the first run; counts runs made by the workflow retry policy. */
    attempt: number;
    firstExecutionRunId: string;
    originalExecutionRunId: string;
    continuedExecutionRunId?: string;
    initiator?: ContinueAsNewInitiator;
    /** Delay before the run's first workflow task is dispatched (retry backoff, cron), ms. */
    firstWorkflowTaskBackoffMs?: number;
    /** When the chain's execution timeout ends it (ISO time). */
    workflowExecutionExpirationTime?: string;
    continuedFailure?: FailureInfo;
    lastCompletionResult?: unknown;
    parent?: ParentExecutionRef;
    cronSchedule?: string;
    identity?: string;
    requestId?: string;
    /** Headers of the start (Temporal's `Headers`, in wire form; the built-in tracing's context among them); continue-as-new carries them on unless it gives its own. */
    header?: WireHeaders;
    /** Custom search attributes the run starts with (Datetime as ISO 8601). */
    searchAttributes?: Record<string, SearchAttributeStoredValue>;
    /** The start's static summary and details (`staticSummary`, `staticDetails`); the runs of its chain keep them. */
    userMetadata?: UserMetadata;
  };
  WorkflowTaskScheduled: { taskQueue: string; startToCloseTimeoutMs: number; attempt: number };
  WorkflowTaskStarted: {
    scheduledEventId: number;
    identity: string;
    requestId: string;
    /** Set when the task started with the history past the engine's warning line (events or bytes): `workflowInfo().continueAsNewSuggested`. */
    suggestContinueAsNew?: boolean;
  };
  WorkflowTaskCompleted: {
    scheduledEventId: number;
    startedEventId: number;
    identity: string;
    /** The replay flags the task used first; absent in histories of format version 1 (see HISTORY_FORMAT_VERSION). */
    sdkMetadata?: SdkMetadata;
  };
  WorkflowTaskTimedOut: { scheduledEventId: number; startedEventId: number; timeoutType: TimeoutType };
  WorkflowTaskFailed: {
    scheduledEventId: number;
    startedEventId: number;
    cause: WorkflowTaskFailedCause;
    failure: FailureInfo;
    identity: string;
    /** For cause ResetWorkflow: the run the reset started from (Temporal's baseRunId). */
    baseRunId?: string;
    /** For cause ResetWorkflow: the run the reset made, whose history this is. */
    newRunId?: string;
  };
  ActivityTaskScheduled: ActivityTimeouts & {
    activityId: string;
    activityType: string;
    taskQueue: string;
    args: unknown[];
    /** The policy in force: Temporal's fields, or a horsies or Polly curve as versioned data. */
    retryPolicy: PolicyData;
    workflowTaskCompletedEventId: number;
    /** Headers the call carried (Temporal's `Headers`, in wire form): interceptors read them. */
    header?: WireHeaders;
    /** The call's `summary`. */
    userMetadata?: UserMetadata;
  };
  ActivityTaskStarted: {
    scheduledEventId: number;
    attempt: number;
    identity: string;
    requestId: string;
    lastFailure?: FailureInfo;
  };
  ActivityTaskCompleted: { scheduledEventId: number; startedEventId: number; result: unknown; identity: string };
  ActivityTaskFailed: {
    scheduledEventId: number;
    startedEventId: number;
    failure: FailureInfo;
    retryState: RetryState;
    identity: string;
  };
  ActivityTaskTimedOut: {
    scheduledEventId: number;
    startedEventId: number;
    failure: FailureInfo;
    retryState: RetryState;
  };
  ActivityTaskCancelRequested: { scheduledEventId: number; workflowTaskCompletedEventId: number };
  ActivityTaskCanceled: {
    scheduledEventId: number;
    startedEventId: number;
    latestCancelRequestedEventId: number;
    details?: unknown;
    identity: string;
  };
  TimerStarted: {
    timerId: string;
    startToFireTimeoutMs: number;
    workflowTaskCompletedEventId: number;
    /** The timer's `summary` (`sleep(duration, { summary })`). */
    userMetadata?: UserMetadata;
  };
  TimerFired: { timerId: string; startedEventId: number };
  TimerCanceled: { timerId: string; startedEventId: number; workflowTaskCompletedEventId: number };
  MarkerRecorded: {
    markerName: string;
    details: Record<string, unknown>;
    workflowTaskCompletedEventId: number;
    failure?: FailureInfo;
    /** A local activity's `summary`, on its marker. */
    userMetadata?: UserMetadata;
  };
  /**
   * The run's search attributes changed (UpsertWorkflowSearchAttributes): each value as stored
   * for its registered type (Datetime as ISO 8601), `null` for an attribute the upsert removed.
   */
  UpsertWorkflowSearchAttributes: { searchAttributes: Record<string, SearchAttributeStoredValue | null>; workflowTaskCompletedEventId: number };
  /** The memo changed (ModifyWorkflowProperties): `upsertedMemo` as the command gave it, `null` values removed keys. */
  WorkflowPropertiesModified: { upsertedMemo: Record<string, unknown>; workflowTaskCompletedEventId: number };
  WorkflowExecutionCancelRequested: { reason?: string; identity?: string };
  WorkflowExecutionCompleted: { result: unknown; workflowTaskCompletedEventId: number; newExecutionRunId?: string };
  WorkflowExecutionFailed: {
    failure: FailureInfo;
    retryState: RetryState;
    workflowTaskCompletedEventId: number;
    newExecutionRunId?: string;
  };
  WorkflowExecutionTimedOut: { retryState: RetryState; newExecutionRunId?: string };
  WorkflowExecutionCanceled: { details?: unknown; workflowTaskCompletedEventId: number };
  WorkflowExecutionTerminated: {
    reason: string;
    details?: unknown;
    identity?: string;
    /** The run a reset replaced this one with; its result is the workflow's. */
    newExecutionRunId?: string;
  };
  WorkflowExecutionContinuedAsNew: {
    newExecutionRunId: string;
    workflowType: string;
    taskQueue: string;
    args: unknown[];
    initiator: ContinueAsNewInitiator;
    workflowRunTimeoutMs?: number;
    workflowTaskTimeoutMs: number;
    backoffStartIntervalMs?: number;
    failure?: FailureInfo;
    lastCompletionResult?: unknown;
    workflowTaskCompletedEventId?: number;
  };
}

/** Why a workflow task failed. */
export const WORKFLOW_TASK_FAILED_CAUSES = [
  'NonDeterminism', 'WorkflowError', 'BadCommand', 'BadSearchAttributes', 'LimitExceeded', 'ResetWorkflow', 'UnhandledCommand',
] as const;

/** One of {@link WORKFLOW_TASK_FAILED_CAUSES}. */
export type WorkflowTaskFailedCause = (typeof WORKFLOW_TASK_FAILED_CAUSES)[number];

/** The name of an event type. */
export type EventType = keyof EventAttributes;

/** One entry of a run's append-only history. `eventId`s are 1, 2, 3, … with no gaps. */
export type HistoryEvent<T extends EventType = EventType> = {
  [K in T]: { eventId: number; eventType: K; eventTime: string; attributes: EventAttributes[K] };
}[T];

/**
 * A run's history as `handle.fetchHistory()`, `steadfast workflow history --json` and the web UI's
 * download give it: the events with the ids of the run, which the events do not carry, so a
 * Replayer sees the workflow id and run id the run saw.
 */
export interface WorkflowHistory {
  workflowId: string;
  runId: string;
  events: HistoryEvent[];
}

/** Event types that close a run. */
export const CLOSE_EVENT_TYPES = [
  'WorkflowExecutionCompleted',
  'WorkflowExecutionFailed',
  'WorkflowExecutionTimedOut',
  'WorkflowExecutionCanceled',
  'WorkflowExecutionTerminated',
  'WorkflowExecutionContinuedAsNew',
] as const satisfies readonly EventType[];

export type CloseEventType = (typeof CLOSE_EVENT_TYPES)[number];

/** True when the event closes its run. */
export function isCloseEvent(event: HistoryEvent): event is HistoryEvent<CloseEventType> {
  return (CLOSE_EVENT_TYPES as readonly string[]).includes(event.eventType);
}

/** Narrows an event to one type. */
export function isEventType<K extends EventType>(event: HistoryEvent, type: K): event is Extract<HistoryEvent, { eventType: K }> {
  return event.eventType === type;
}
