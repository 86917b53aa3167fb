import type { FailureInfo, RetryState } from '../common/failure.ts';
import type { WireHeaders } from '../common/headers.ts';
import { resolveSpelling, temporalSpellings } from '../common/temporal-names.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import type { WorkflowIdReusePolicy } from './id-reuse-policy.ts';
import type { WorkflowIdConflictPolicy } from './id-conflict-policy.ts';
import type { SearchAttributesInput } from './search-attribute-values.ts';
import type { UserMetadata } from './user-metadata.ts';

/** What happens to a child workflow when its parent closes. */
export const PARENT_CLOSE_POLICIES = ['Terminate', 'RequestCancel', 'Abandon'] as const;

/** One of {@link PARENT_CLOSE_POLICIES}. @default "Terminate" */
export type ParentClosePolicy = (typeof PARENT_CLOSE_POLICIES)[number];

/**
 * Temporal's spellings of the parent close policies, each mapped to steadfast's name:
 * `ParentClosePolicy.ABANDON` and `ParentClosePolicy.PARENT_CLOSE_POLICY_ABANDON` are `"Abandon"`.
 */
export const ParentClosePolicy = temporalSpellings('PARENT_CLOSE_POLICY_', {
  TERMINATE: 'Terminate',
  ABANDON: 'Abandon',
  REQUEST_CANCEL: 'RequestCancel',
} satisfies Record<string, ParentClosePolicy>);

/** A parent close policy as an option takes it: steadfast's name or Temporal's spelling. */
export type ParentClosePolicyOption = ParentClosePolicy | keyof typeof ParentClosePolicy;

/** steadfast's name of a parent close policy given in either spelling. @throws ValidationError naming `field`. */
export function resolveParentClosePolicy(field: string, value: unknown): ParentClosePolicy {
  return resolveSpelling(field, value, PARENT_CLOSE_POLICIES, ParentClosePolicy, 'PARENT_CLOSE_POLICY_');
}

/**
 * What cancelling the scope of a child workflow does, with Temporal's names and values (they
 * live only in workflow code, so there is no second spelling).
 */
export const ChildWorkflowCancellationType = Object.freeze({
  /** Send no cancel request; `result()` rejects at once with a cancellation. */
  ABANDON: 'ABANDON',
  /** Send the cancel request; `result()` rejects at once with a cancellation. */
  TRY_CANCEL: 'TRY_CANCEL',
  /** Send the cancel request; `result()` settles as the child closes, which may be otherwise than canceled. The default. */
  WAIT_CANCELLATION_COMPLETED: 'WAIT_CANCELLATION_COMPLETED',
  /** Send the cancel request; `result()` rejects with a cancellation once the child's history records the request. */
  WAIT_CANCELLATION_REQUESTED: 'WAIT_CANCELLATION_REQUESTED',
} as const);

/** One of {@link ChildWorkflowCancellationType}'s values. @default "WAIT_CANCELLATION_COMPLETED" */
export type ChildWorkflowCancellationType = (typeof ChildWorkflowCancellationType)[keyof typeof ChildWorkflowCancellationType];

/** Every child cancellation type, for validation. */
export const CHILD_WORKFLOW_CANCELLATION_TYPES: readonly ChildWorkflowCancellationType[] = Object.values(ChildWorkflowCancellationType);

/** The start parameters of a child, as the command carries them and the Initiated event records them. */
export interface ChildStartAttributes {
  /** @default the parent's namespace */
  namespace?: string;
  workflowId: string;
  workflowType: string;
  /** @default the parent's task queue */
  taskQueue?: string;
  args: unknown[];
  /** Headers of the child's start (Temporal's `Headers`, in wire form). */
  header?: WireHeaders;
  workflowExecutionTimeoutMs?: number;
  workflowRunTimeoutMs?: number;
  workflowTaskTimeoutMs?: number;
  /** Children do not retry unless given a policy. */
  retryPolicy?: RetryPolicyData;
  /** @default "Terminate" */
  parentClosePolicy?: ParentClosePolicy;
  memo?: Record<string, unknown>;
  /**
   * The child's custom search attributes: as the workflow gave them in the command, as stored for
   * their registered types in the Initiated event.
   */
  searchAttributes?: SearchAttributesInput;
  /** Whether the child may reuse the id of an earlier workflow. @default "AllowDuplicate" */
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
  /** What to do when a workflow with the child's id is running (Fail or TerminateExisting). @default refused, as Fail */
  workflowIdConflictPolicy?: WorkflowIdConflictPolicy;
  /** Makes the child a cron job (seed: "What is a Temporal Cron Job?"); its chain closes for the parent only when it ends. */
  cronSchedule?: string;
  /** Opaque to the engine; the worker's correlation key (the child's sequence number in the run). */
  control?: string;
  /** The child's static summary and details (`staticSummary`, `staticDetails`), recorded in its WorkflowExecutionStarted. */
  userMetadata?: UserMetadata;
}

/** Commands of child workflows and external cancellation. */
export interface ChildCommandAttributes {
  StartChildWorkflowExecution: ChildStartAttributes;
  RequestCancelExternalWorkflowExecution: {
    /** @default the run's namespace */
    namespace?: string;
    workflowId: string;
    runId?: string;
    /** Only cancel a workflow that is a child of this run. */
    childWorkflowOnly?: boolean;
    control?: string;
  };
}

/** Fields every event about a started child carries. */
interface ChildRef {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  initiatedEventId: number;
}

/** Events of child workflows and external cancellation. */
export interface ChildEventAttributes {
  StartChildWorkflowExecutionInitiated: ChildStartAttributes & {
    namespace: string;
    taskQueue: string;
    parentClosePolicy: ParentClosePolicy;
    workflowTaskCompletedEventId: number;
  };
  StartChildWorkflowExecutionFailed: {
    namespace: string;
    workflowId: string;
    workflowType: string;
    cause: 'WorkflowAlreadyExists';
    initiatedEventId: number;
    control?: string;
  };
  ChildWorkflowExecutionStarted: ChildRef;
  ChildWorkflowExecutionCompleted: ChildRef & { result: unknown };
  ChildWorkflowExecutionFailed: ChildRef & { failure: FailureInfo; retryState: RetryState };
  ChildWorkflowExecutionCanceled: ChildRef & { details?: unknown };
  ChildWorkflowExecutionTimedOut: ChildRef & { retryState: RetryState };
  ChildWorkflowExecutionTerminated: ChildRef & { reason?: string };
  RequestCancelExternalWorkflowExecutionInitiated: {
    namespace: string;
    workflowId: string;
    runId?: string;
    childWorkflowOnly: boolean;
    control?: string;
    workflowTaskCompletedEventId: number;
  };
  ExternalWorkflowExecutionCancelRequested: { initiatedEventId: number; namespace: string; workflowId: string; runId: string };
  RequestCancelExternalWorkflowExecutionFailed: {
    initiatedEventId: number;
    namespace: string;
    workflowId: string;
    runId?: string;
    cause: 'ExternalWorkflowExecutionNotFound';
    control?: string;
  };
}

/** Child close event types, each the outcome of one child execution (its whole run chain). */
export const CHILD_CLOSE_EVENT_TYPES = [
  'ChildWorkflowExecutionCompleted', 'ChildWorkflowExecutionFailed', 'ChildWorkflowExecutionCanceled',
  'ChildWorkflowExecutionTimedOut', 'ChildWorkflowExecutionTerminated',
] as const;
