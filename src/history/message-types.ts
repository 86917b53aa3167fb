import type { FailureInfo } from '../common/failure.ts';
import type { WorkflowExecutionStatus } from './events.ts';
import type {
  CallOptions, ExecutionRequest, PollRequest, StartWorkflowExecutionRequest, StartWorkflowExecutionResponse,
} from './service.ts';

/**
 * History events, commands and service messages of signals, queries and updates. Kept apart
 * from events.ts / commands.ts / service.ts, which extend these interfaces.
 */

/** How an update ended: its handler's result, or the failure it threw. */
export type UpdateOutcome = { result: unknown; failure?: never } | { failure: FailureInfo; result?: never };

/** Why a signal to another workflow was not delivered. */
export type SignalExternalFailedCause = 'ExternalWorkflowExecutionNotFound' | 'SignalCountLimitExceeded';

/** Event attributes of signals and updates. */
export interface MessageEventAttributes {
  /** A signal reached the run (from a client, signal-with-start, or another workflow). */
  WorkflowExecutionSignaled: {
    signalName: string;
    args: unknown[];
    identity?: string;
    /** Deduplicates a repeated signal request. */
    requestId?: string;
    /** Set when another workflow sent the signal. */
    externalWorkflowExecution?: { namespace: string; workflowId: string; runId: string };
  };
  /** The run asked to signal another workflow (SignalExternalWorkflowExecution command). */
  SignalExternalWorkflowExecutionInitiated: {
    /** Per-run sequence number the workflow code gave the signal; links the result events. */
    signalId: string;
    namespace: string;
    workflowId: string;
    runId?: string;
    signalName: string;
    args: unknown[];
    workflowTaskCompletedEventId: number;
  };
  /** The signal of an Initiated event reached its target. */
  ExternalWorkflowExecutionSignaled: { initiatedEventId: number; signalId: string; namespace: string; workflowId: string; runId: string };
  /** The signal of an Initiated event could not be delivered. */
  SignalExternalWorkflowExecutionFailed: {
    initiatedEventId: number;
    signalId: string;
    namespace: string;
    workflowId: string;
    runId?: string;
    cause: SignalExternalFailedCause;
    message: string;
  };
  /** An update passed admission and validation; its handler runs in the next workflow task. */
  WorkflowExecutionUpdateAccepted: { updateId: string; updateName: string; args: unknown[]; identity?: string };
  /** An update's handler finished (CompleteWorkflowExecutionUpdate command). */
  WorkflowExecutionUpdateCompleted: {
    updateId: string;
    acceptedEventId: number;
    outcome: UpdateOutcome;
    workflowTaskCompletedEventId: number;
  };
}

/** Command attributes of external signals and updates. */
export interface MessageCommandAttributes {
  /** Signals another workflow; answered by ExternalWorkflowExecutionSignaled or SignalExternalWorkflowExecutionFailed. */
  SignalExternalWorkflowExecution: {
    /** Per-run sequence number chosen by the workflow code. */
    signalId: string;
    /** @default the run's namespace */
    namespace?: string;
    workflowId: string;
    /** @default the target's latest run */
    runId?: string;
    signalName: string;
    args: unknown[];
  };
  /** An accepted update's handler finished. */
  CompleteWorkflowExecutionUpdate: { updateId: string; acceptedEventId: number; outcome: UpdateOutcome };
}

/** Command types of this file, listed in COMMAND_TYPES. */
export const MESSAGE_COMMAND_TYPES = ['SignalExternalWorkflowExecution', 'CompleteWorkflowExecutionUpdate'] as const;

/** Service calls of signals, queries and updates; part of WorkflowService. */
export interface MessageService {
  /** Persists a signal (WorkflowExecutionSignaled) before it returns; a repeated request id is a no-op. */
  signalWorkflowExecution(req: SignalWorkflowRequest): Promise<void>;
  /** Signals the open run of the workflow id, or starts a run with the signal as its first event. */
  signalWithStartWorkflowExecution(req: SignalWithStartRequest): Promise<StartWorkflowExecutionResponse>;
  /** Asks a worker to answer a query from the run's state; nothing is written to history. */
  queryWorkflow(req: QueryWorkflowRequest): Promise<QueryWorkflowResponse>;
  /** Long-polls for queries (and update validations) addressed to runs of a task queue. */
  pollQueryTaskQueue(req: PollRequest, opts?: CallOptions): Promise<QueryTask | null>;
  /** A worker's answer to a {@link QueryTask}. */
  respondQueryTaskCompleted(req: RespondQueryTaskCompletedRequest): Promise<void>;
  /** Admits, validates and accepts an update; with `waitForStage: "Completed"` also waits for its outcome. */
  updateWorkflowExecution(req: UpdateWorkflowRequest): Promise<UpdateWorkflowResponse>;
  /** Long-polls until an accepted update completes (or the wait ends). */
  pollWorkflowExecutionUpdate(req: PollUpdateRequest, opts?: CallOptions): Promise<UpdateWorkflowResponse>;
}

/** Calls of {@link MessageService}, listed in WORKFLOW_SERVICE_METHODS. */
export const MESSAGE_SERVICE_METHODS = [
  'signalWorkflowExecution', 'signalWithStartWorkflowExecution', 'queryWorkflow', 'pollQueryTaskQueue',
  'respondQueryTaskCompleted', 'updateWorkflowExecution', 'pollWorkflowExecutionUpdate',
] as const;

/** Long polls among {@link MESSAGE_SERVICE_METHODS}. */
export const MESSAGE_LONG_POLL_METHODS = ['pollQueryTaskQueue', 'pollWorkflowExecutionUpdate'] as const;

export interface SignalWorkflowRequest extends ExecutionRequest {
  signalName: string;
  args?: unknown[];
  identity?: string;
  /** Deduplicates retries of the same signal. @default a random UUID (no deduplication) */
  requestId?: string;
}

export interface SignalWithStartRequest extends StartWorkflowExecutionRequest {
  signalName: string;
  signalArgs?: unknown[];
}

/**
 * When a query is refused without asking a worker (Temporal's QueryRejectCondition):
 * `NotOpen` refuses any closed run, `NotCompletedCleanly` any run closed otherwise than
 * Completed; `None` refuses nothing.
 */
export type QueryRejectCondition = 'None' | 'NotOpen' | 'NotCompletedCleanly';

export const QUERY_REJECT_CONDITIONS: readonly QueryRejectCondition[] = ['None', 'NotOpen', 'NotCompletedCleanly'];

export interface QueryWorkflowRequest extends ExecutionRequest {
  queryType: string;
  args?: unknown[];
  /** How long to wait for a worker's answer, ms. @default 10 000 */
  timeoutMs?: number;
  /** @default "None" */
  queryRejectCondition?: QueryRejectCondition;
}

/** A query's answer: the handler's result, the failure the worker reported, or the rejection. */
export interface QueryWorkflowResponse {
  result?: unknown;
  failure?: FailureInfo;
  /** Set when the request's queryRejectCondition refused the query: the run's status. */
  queryRejected?: { status: WorkflowExecutionStatus };
}

/**
 * A query or an update validation for a worker. The worker answers from the run's state after
 * applying every event up to `lastEventId` (all events committed before the request arrived).
 */
export interface QueryTask {
  taskToken: string;
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  lastEventId: number;
  /** Set for a query. */
  query?: { queryType: string; args: unknown[] };
  /** Set for an update's validation: run the validator read-only, reject when it throws or no handler exists. */
  updateValidation?: { updateId: string; updateName: string; args: unknown[] };
}

export interface RespondQueryTaskCompletedRequest {
  taskToken: string;
  identity: string;
  /** The query's result (absent for an accepted validation). */
  result?: unknown;
  /** Set when the handler threw, was missing, or the validator rejected. */
  failure?: FailureInfo;
}

/** Stages an update goes through, as callers see them. */
export type UpdateStage = 'Rejected' | 'Accepted' | 'Completed';

export interface UpdateWorkflowRequest extends ExecutionRequest {
  updateName: string;
  args?: unknown[];
  /** Deduplicates: a repeated id returns the first update's outcome. @default a random UUID */
  updateId?: string;
  identity?: string;
  /** @default "Accepted" */
  waitForStage?: 'Accepted' | 'Completed';
  /** Bound on the validation round trip to a worker, ms. @default 10 000 */
  timeoutMs?: number;
}

export interface UpdateWorkflowResponse {
  updateId: string;
  runId: string;
  stage: UpdateStage;
  /** Present when Rejected (the validator's failure) or Completed. */
  outcome?: UpdateOutcome;
}

export interface PollUpdateRequest extends ExecutionRequest {
  updateId: string;
  /** @default 30 000 */
  waitTimeoutMs?: number;
}
