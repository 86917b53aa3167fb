import { z } from 'zod';
import type { FailureInfo } from '../common/failure.ts';
import type { WorkflowExecutionStatus } from '../history/events.ts';
import type { UpdateOutcome } from '../history/message-types.ts';
import { QUERY_REJECT_CONDITIONS, UPDATE_WAIT_STAGES, type QueryRejectCondition, type UpdateStage, type UpdateWaitStage } from './enums.ts';
import { executionRequestSchema, startWorkflowExecutionRequestSchema, type ExecutionRequest, type StartWorkflowExecutionRequest } from './executions.ts';
import { failure, id, identity, int, oneOf, optional, payload, payloadArray, text } from './fields.ts';
import { DEFAULT_LONG_POLL_MS, MAX_IDENTITY_LENGTH, MAX_QUERY_TIMEOUT_MS } from './limits.ts';
import { schemaOf } from './parse.ts';

/* Signals, queries and updates: the requests and answers of their service calls. */

/** A signal name: at most MAX_IDENTITY_LENGTH characters, as query and update names. */
const handlerName = text(MAX_IDENTITY_LENGTH);

/** Sends a signal to a run. */
export interface SignalWorkflowRequest extends ExecutionRequest {
  /** The handler's name. */
  signalName: string;
  /** The handler's arguments. @default [] */
  args?: unknown[];
  /** Who sent it, for history. */
  identity?: string;
  /** Deduplicates retries of the same signal. @default a random UUID (no deduplication) */
  requestId?: string;
}

/** Signals the open run of the workflow id, or starts a run with the signal as its first event. */
export interface SignalWithStartRequest extends StartWorkflowExecutionRequest {
  /** The handler's name. */
  signalName: string;
  /** The handler's arguments. @default [] */
  signalArgs?: unknown[];
}

/** Asks a worker to answer a query from the run's state. */
export interface QueryWorkflowRequest extends ExecutionRequest {
  /** The handler's name (`__stack_trace` for the built-in one). */
  queryType: string;
  /** The handler's arguments. @default [] */
  args?: unknown[];
  /** How long to wait for a worker's answer, ms. @default 10 000 */
  timeoutMs?: number;
  /** @default "None" */
  queryRejectCondition?: QueryRejectCondition;
}

/** A query's answer: the handler's result, the failure the worker reported, or the rejection. */
export interface QueryWorkflowResponse {
  /** The handler's result. */
  result?: unknown;
  /** The handler threw, or no handler exists. */
  failure?: FailureInfo;
  /** Set when the request's queryRejectCondition refused the query: the run's status. */
  queryRejected?: { status: WorkflowExecutionStatus };
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
  query?: { queryType: string; args: unknown[] };
  /** Set for an update's validation: run the validator read-only, reject when it throws or no handler exists. */
  updateValidation?: { updateId: string; updateName: string; args: unknown[] };
}

/** A worker's answer to a {@link QueryTask}. */
export interface RespondQueryTaskCompletedRequest {
  /** The task's token. */
  taskToken: string;
  /** The worker. */
  identity: string;
  /** The query's result (absent for an accepted validation). */
  result?: unknown;
  /** Set when the handler threw, was missing, or the validator rejected. */
  failure?: FailureInfo;
}

/** Sends an update: admitted, validated by a worker, accepted into history, then run. */
export interface UpdateWorkflowRequest extends ExecutionRequest {
  /** The handler's name. */
  updateName: string;
  /** The handler's arguments. @default [] */
  args?: unknown[];
  /** Deduplicates: a repeated id returns the first update's outcome. @default a random UUID */
  updateId?: string;
  /** Who sent it, for history. */
  identity?: string;
  /** @default "Accepted" */
  waitForStage?: UpdateWaitStage;
  /** Bound on the validation round trip to a worker, ms. @default 10 000 */
  timeoutMs?: number;
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
  outcome?: UpdateOutcome;
}

/** Waits for an accepted update's outcome. */
export interface PollUpdateRequest extends ExecutionRequest {
  /** The update's id. */
  updateId: string;
  /** @default 30 000 */
  waitTimeoutMs?: number;
}

/** Schema of {@link SignalWorkflowRequest}. */
export const signalWorkflowRequestSchema = schemaOf<SignalWorkflowRequest>()(executionRequestSchema.extend({
  signalName: handlerName,
  args: payloadArray('args'),
  identity: optional(identity),
  requestId: optional(id),
}));

/** Schema of {@link SignalWithStartRequest}. */
export const signalWithStartRequestSchema = schemaOf<SignalWithStartRequest>()(startWorkflowExecutionRequestSchema.extend({
  signalName: handlerName,
  signalArgs: payloadArray('signalArgs'),
}));

/** Schema of {@link QueryWorkflowRequest}; the timeout's default is the server's (queryTimeoutMs). */
export const queryWorkflowRequestSchema = schemaOf<QueryWorkflowRequest>()(executionRequestSchema.extend({
  queryType: handlerName,
  args: payloadArray('args'),
  timeoutMs: optional(int(1, MAX_QUERY_TIMEOUT_MS)),
  queryRejectCondition: optional(oneOf(QUERY_REJECT_CONDITIONS)).default('None'),
}));

/** Schema of {@link RespondQueryTaskCompletedRequest}. */
export const respondQueryTaskCompletedRequestSchema = schemaOf<RespondQueryTaskCompletedRequest>()(z.object({
  taskToken: z.custom<string>(),
  identity,
  failure: failure('failure').optional(),
  result: payload('result'),
}));

/** Schema of {@link UpdateWorkflowRequest}; the timeout's default is the server's (queryTimeoutMs). */
export const updateWorkflowRequestSchema = schemaOf<UpdateWorkflowRequest>()(executionRequestSchema.extend({
  updateName: handlerName,
  args: payloadArray('args'),
  updateId: optional(id),
  identity: optional(identity),
  waitForStage: optional(oneOf(UPDATE_WAIT_STAGES)).default('Accepted'),
  timeoutMs: optional(int(1, MAX_QUERY_TIMEOUT_MS)),
}));

/** Schema of {@link PollUpdateRequest}. */
export const pollUpdateRequestSchema = schemaOf<PollUpdateRequest>()(executionRequestSchema.extend({
  updateId: id,
  waitTimeoutMs: optional(int(0, MAX_QUERY_TIMEOUT_MS)).default(DEFAULT_LONG_POLL_MS),
}));
