import type { FailureInfo } from '../common/failure.ts';
import type { WireHeaders } from '../common/headers.ts';
import type { WorkflowExecutionStatus } from '../history/events.ts';
import type { UpdateOutcome } from '../history/message-types.ts';
import type { QueryRejectCondition, UpdateStage, UpdateWaitStage } from './enums.ts';
import type { ExecutionRequest, StartWorkflowExecutionRequest } from './executions.ts';

/* Signals, queries and updates: the requests and answers of their service calls. */

/** Sends a signal to a run. */
export interface SignalWorkflowRequest extends ExecutionRequest {
  /** The handler's name. */
  signalName: string;
  /** The handler's arguments. @default [] */
  args?: unknown[] | undefined;
  /** Who sent it, for history. */
  identity?: string | undefined;
  /** Deduplicates retries of the same signal. @default a random UUID (no deduplication) */
  requestId?: string | undefined;
  /** Headers of the call (Temporal's `Headers`, in wire form), handed to the workflow's inbound interceptors. */
  header?: WireHeaders | undefined;
}

/** Signals the open run of the workflow id, or starts a run with the signal as its first event. */
export interface SignalWithStartRequest extends StartWorkflowExecutionRequest {
  /** The handler's name. */
  signalName: string;
  /** The handler's arguments. @default [] */
  signalArgs?: unknown[] | undefined;
}

/** Asks a worker to answer a query from the run's state. */
export interface QueryWorkflowRequest extends ExecutionRequest {
  /** The handler's name (`__stack_trace` for the built-in one). */
  queryType: string;
  /** The handler's arguments. @default [] */
  args?: unknown[] | undefined;
  /** How long to wait for a worker's answer, ms. @default 10 000 */
  timeoutMs?: number | undefined;
  /** @default "None" */
  queryRejectCondition?: QueryRejectCondition | undefined;
  /** Headers of the call (Temporal's `Headers`, in wire form), handed to the workflow's inbound interceptors. */
  header?: WireHeaders | undefined;
  /**
   * Who asked. A query writes no history event (Temporal's QueryWorkflowRequest has no identity):
   * a query that names one is written to the engine's log as an audit line (`query … by <identity>`),
   * and with authentication on the server sets it to the credential's identity (an audited method).
   */
  identity?: string | undefined;
}

/** A query's answer: the handler's result, the failure the worker reported, or the rejection. */
export interface QueryWorkflowResponse {
  /** The handler's result. */
  result?: unknown | undefined;
  /** The handler threw, or no handler exists. */
  failure?: FailureInfo | undefined;
  /** Set when the request's queryRejectCondition refused the query: the run's status. */
  queryRejected?: { status: WorkflowExecutionStatus } | undefined;
}

/**
 * A query or an update validation for a worker. The worker answers from the run's state after
 * applying every event up to `lastEventId` (all events committed before the request arrived).
 */
export interface QueryTask {
  /** Opaque; hand it back with the answer. */
  taskToken: string;
  /** The run's namespace. */
  namespace: string;
  /** The workflow id. */
  workflowId: string;
  /** The run. */
  runId: string;
  /** The workflow function. */
  workflowType: string;
  /** The queue the task came from. */
  taskQueue: string;
  /** Answer from the state after this event. */
  lastEventId: number;
  /** Set for a query. */
  query?: { queryType: string; args: unknown[]; header?: WireHeaders } | undefined;
  /** Set for an update's validation: run the validator read-only, reject when it throws or no handler exists. */
  updateValidation?: { updateId: string; updateName: string; args: unknown[]; header?: WireHeaders } | undefined;
}

/** A worker's answer to a {@link QueryTask}. */
export interface RespondQueryTaskCompletedRequest {
  /** The task's token. */
  taskToken: string;
  /** The worker. */
  identity: string;
  /** The query's result (absent for an accepted validation). */
  result?: unknown | undefined;
  /** Set when the handler threw, was missing, or the validator rejected. */
  failure?: FailureInfo | undefined;
}

/** Sends an update: admitted, validated by a worker, accepted into history, then run. */
export interface UpdateWorkflowRequest extends ExecutionRequest {
  /** The handler's name. */
  updateName: string;
  /** The handler's arguments. @default [] */
  args?: unknown[] | undefined;
  /** Deduplicates: a repeated id returns the first update's outcome. @default a random UUID */
  updateId?: string | undefined;
  /** Who sent it, for history. */
  identity?: string | undefined;
  /** @default "Accepted" */
  waitForStage?: UpdateWaitStage | undefined;
  /** Bound on the validation round trip to a worker, ms. @default 10 000 */
  timeoutMs?: number | undefined;
  /** Headers of the call (Temporal's `Headers`, in wire form), handed to the workflow's inbound interceptors. */
  header?: WireHeaders | undefined;
}

/** Where an update is, and its outcome once it has one. */
export interface UpdateWorkflowResponse {
  /** The update's id (given or generated). */
  updateId: string;
  /** The run that took it. */
  runId: string;
  /** Rejected, Accepted or Completed. */
  stage: UpdateStage;
  /** Present when Rejected (the validator's failure) or Completed. */
  outcome?: UpdateOutcome | undefined;
}

/**
 * Update-with-start: in one transaction, starts a run under the request's id conflict and reuse
 * policies (or, with UseExisting, takes the running run) and admits the update to it
 * (WorkflowExecutionUpdateAdmitted), or writes nothing. The workflow task that delivers the
 * update runs its validator and handler; a rejection leaves the run started.
 */
export interface UpdateWithStartRequest extends StartWorkflowExecutionRequest {
  /** The update handler's name. */
  updateName: string;
  /** The update handler's arguments. @default [] */
  updateArgs?: unknown[] | undefined;
  /** Deduplicates: a repeated id answers the first update. @default a random UUID */
  updateId?: string | undefined;
  /** Headers of the update (Temporal's `Headers`, in wire form); `header` is the start's. */
  updateHeader?: WireHeaders | undefined;
  /** @default "Accepted" */
  waitForStage?: UpdateWaitStage | undefined;
  /**
   * How long the call waits for `waitForStage` after the admission, ms; it then answers the stage
   * reached (Admitted until a worker's workflow task delivered the update). @default 10 000 (the server's queryTimeoutMs)
   */
  timeoutMs?: number | undefined;
}

/** What an update-with-start did: the run it started or used, and where the update is. */
export interface UpdateWithStartResponse {
  /** The run that took the update. */
  runId: string;
  /** True when this request started the run. */
  started: boolean;
  /** The update: Admitted when the wait ended before a workflow task delivered it, else Accepted or Completed. */
  update: UpdateWorkflowResponse;
}

/** Waits for an accepted update's outcome. */
export interface PollUpdateRequest extends ExecutionRequest {
  /** The update's id. */
  updateId: string;
  /** @default 30 000 */
  waitTimeoutMs?: number | undefined;
  /** The stage to wait for: an admitted update's acceptance, or any update's completion. @default "Completed" */
  waitForStage?: UpdateWaitStage | undefined;
}
