import type { FailureInfo } from '../common/failure.ts';
import type { WireHeaders } from '../common/headers.ts';
import type { PolicyData, RetryPolicyData } from '../retry/policy-data.ts';
import type { ActivityTimeouts } from './events.ts';
import type { ChildCommandAttributes } from './child-types.ts';
import type { SearchAttributesInput } from './search-attribute-values.ts';
import type { MessageCommandAttributes } from './message-types.ts';
import type { UserMetadata } from './user-metadata.ts';

/**
 * What a worker sends back at the end of a workflow task. The engine turns each command into
 * the matching history event (ScheduleActivityTask → ActivityTaskScheduled, …).
 */
export interface CommandAttributes extends ChildCommandAttributes, MessageCommandAttributes {
  ScheduleActivityTask: ActivityTimeouts & {
    activityId: string;
    activityType: string;
    /** @default the workflow's task queue */
    taskQueue?: string;
    args: unknown[];
    /**
     * Temporal's fields, or any other curve of `steadfast/retry` (horsies, Polly) as versioned data.
     * @default Temporal's default policy (1 s, ×2, 100 s, unlimited attempts)
     */
    retryPolicy?: PolicyData;
    /** Headers the call carried (Temporal's `Headers`, in wire form): interceptors read them. */
    header?: WireHeaders;
    /** The call's summary (`ActivityOptions.summary`); no details. */
    userMetadata?: UserMetadata;
  };
  RequestCancelActivityTask: { scheduledEventId: number };
  /** `userMetadata`: the timer's summary (`TimerOptions.summary`); no details. */
  StartTimer: { timerId: string; startToFireTimeoutMs: number; userMetadata?: UserMetadata };
  CancelTimer: { timerId: string };
  /** `userMetadata`: a local activity's summary. */
  RecordMarker: { markerName: string; details: Record<string, unknown>; failure?: FailureInfo; userMetadata?: UserMetadata };
  CompleteWorkflowExecution: { result: unknown };
  FailWorkflowExecution: { failure: FailureInfo };
  CancelWorkflowExecution: { details?: unknown };
  ContinueAsNewWorkflowExecution: {
    /** @default the current run's type */
    workflowType?: string;
    /** @default the current run's task queue */
    taskQueue?: string;
    args: unknown[];
    workflowRunTimeoutMs?: number;
    workflowTaskTimeoutMs?: number;
    memo?: Record<string, unknown>;
    /** The new run's search attributes, replacing the current run's. @default the current run's */
    searchAttributes?: SearchAttributesInput;
    retryPolicy?: RetryPolicyData;
    backoffStartIntervalMs?: number;
    /** The new run's headers. @default the current run's start headers */
    header?: WireHeaders;
  };
  /**
   * Changes the run's memo (Temporal's ModifyWorkflowProperties): each key is set, a `null`
   * value removes the key. Recorded as WorkflowPropertiesModified.
   */
  ModifyWorkflowProperties: { upsertedMemo: Record<string, unknown> };
  /**
   * Changes the run's custom search attributes (Temporal's UpsertWorkflowSearchAttributes):
   * each named attribute is set; `[]` or `null` removes it. Recorded as UpsertWorkflowSearchAttributes.
   */
  UpsertWorkflowSearchAttributes: { searchAttributes: SearchAttributesInput };
}

export type CommandType = keyof CommandAttributes;

/** One command, discriminated by `commandType`. */
export type Command<T extends CommandType = CommandType> = {
  [K in T]: { commandType: K; attributes: CommandAttributes[K] };
}[T];

/** Every command type once; mapped over {@link CommandType}, so a type left out does not compile. */
const EVERY_COMMAND_TYPE: { readonly [K in CommandType]: true } = {
  ScheduleActivityTask: true, RequestCancelActivityTask: true, StartTimer: true, CancelTimer: true, RecordMarker: true,
  CompleteWorkflowExecution: true, FailWorkflowExecution: true, CancelWorkflowExecution: true, ContinueAsNewWorkflowExecution: true,
  StartChildWorkflowExecution: true, RequestCancelExternalWorkflowExecution: true, ModifyWorkflowProperties: true,
  UpsertWorkflowSearchAttributes: true, SignalExternalWorkflowExecution: true, CompleteWorkflowExecutionUpdate: true,
};

/** The command types a workflow task may send: every key of {@link CommandAttributes}. */
export const COMMAND_TYPES: readonly CommandType[] = Object.keys(EVERY_COMMAND_TYPE) as CommandType[];

/** Commands that close the run; at most one per workflow task, and it must be the last. */
export const TERMINAL_COMMAND_TYPES: readonly CommandType[] = [
  'CompleteWorkflowExecution', 'FailWorkflowExecution', 'CancelWorkflowExecution', 'ContinueAsNewWorkflowExecution',
];
