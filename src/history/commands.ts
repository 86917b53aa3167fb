import type { FailureInfo } from '../common/failure.ts';
import type { PolicyData, RetryPolicyData } from '../retry/policy-data.ts';
import type { ActivityTimeouts } from './events.ts';
import type { ChildCommandAttributes } from './child-types.ts';
import type { SearchAttributesInput } from './search-attribute-values.ts';
import { MESSAGE_COMMAND_TYPES, type MessageCommandAttributes } from './message-types.ts';

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
  };
  RequestCancelActivityTask: { scheduledEventId: number };
  StartTimer: { timerId: string; startToFireTimeoutMs: number };
  CancelTimer: { timerId: string };
  RecordMarker: { markerName: string; details: Record<string, unknown>; failure?: FailureInfo };
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

export const COMMAND_TYPES: readonly CommandType[] = [
  'ScheduleActivityTask', 'RequestCancelActivityTask', 'StartTimer', 'CancelTimer', 'RecordMarker',
  'CompleteWorkflowExecution', 'FailWorkflowExecution', 'CancelWorkflowExecution', 'ContinueAsNewWorkflowExecution',
  'StartChildWorkflowExecution', 'RequestCancelExternalWorkflowExecution', 'ModifyWorkflowProperties', 'UpsertWorkflowSearchAttributes',
  ...MESSAGE_COMMAND_TYPES,
];

/** Commands that close the run; at most one per workflow task, and it must be the last. */
export const TERMINAL_COMMAND_TYPES: readonly CommandType[] = [
  'CompleteWorkflowExecution', 'FailWorkflowExecution', 'CancelWorkflowExecution', 'ContinueAsNewWorkflowExecution',
];
