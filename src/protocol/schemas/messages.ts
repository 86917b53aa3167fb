import { z } from 'zod';
import { QUERY_REJECT_CONDITIONS, UPDATE_WAIT_STAGES } from '../enums.ts';
import { checkedLater, failure, headers, id, identity, int, oneOf, optional, payload, payloadArray, text } from '../fields.ts';
import { DEFAULT_LONG_POLL_MS, MAX_IDENTITY_LENGTH, MAX_QUERY_TIMEOUT_MS } from '../limits.ts';
import type {
  PollUpdateRequest, QueryWorkflowRequest, RespondQueryTaskCompletedRequest, SignalWithStartRequest, SignalWorkflowRequest,
  UpdateWithStartRequest, UpdateWorkflowRequest,
} from '../messages.ts';
import { schemaOf } from '../parse.ts';
import { executionRequestSchema, startWorkflowExecutionRequestSchema } from './executions.ts';

/* The schemas of the signal, query and update calls' requests (messages.ts). */

/** A signal, query or update name: at most MAX_IDENTITY_LENGTH characters. */
const handlerName = text(MAX_IDENTITY_LENGTH);

/** Schema of {@link SignalWorkflowRequest}. */
export const signalWorkflowRequestSchema = schemaOf<SignalWorkflowRequest>()(executionRequestSchema.extend({
  signalName: handlerName,
  args: payloadArray('args'),
  identity: optional(identity),
  requestId: optional(id),
  header: headers('header'),
}));

/** Schema of {@link SignalWithStartRequest}. */
export const signalWithStartRequestSchema = schemaOf<SignalWithStartRequest>()(startWorkflowExecutionRequestSchema.extend({
  signalName: handlerName,
  signalArgs: payloadArray('signalArgs'),
}));

/** Schema of {@link UpdateWithStartRequest}. */
export const updateWithStartRequestSchema = schemaOf<UpdateWithStartRequest>()(startWorkflowExecutionRequestSchema.extend({
  updateName: handlerName,
  updateArgs: payloadArray('updateArgs'),
  updateId: optional(id),
  updateHeader: headers('updateHeader'),
  waitForStage: optional(oneOf(UPDATE_WAIT_STAGES)).default('Accepted'),
  timeoutMs: optional(int(1, MAX_QUERY_TIMEOUT_MS)),
}));

/** Schema of {@link QueryWorkflowRequest}; the timeout's default is the server's (queryTimeoutMs). */
export const queryWorkflowRequestSchema = schemaOf<QueryWorkflowRequest>()(executionRequestSchema.extend({
  queryType: handlerName,
  args: payloadArray('args'),
  timeoutMs: optional(int(1, MAX_QUERY_TIMEOUT_MS)),
  queryRejectCondition: optional(oneOf(QUERY_REJECT_CONDITIONS)).default('None'),
  header: headers('header'),
  identity: optional(identity),
}));

/** Schema of {@link RespondQueryTaskCompletedRequest}. */
export const respondQueryTaskCompletedRequestSchema = schemaOf<RespondQueryTaskCompletedRequest>()(z.object({
  taskToken: checkedLater<string>(),
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
  header: headers('header'),
}));

/** Schema of {@link PollUpdateRequest}. */
export const pollUpdateRequestSchema = schemaOf<PollUpdateRequest>()(executionRequestSchema.extend({
  updateId: id,
  waitTimeoutMs: optional(int(0, MAX_QUERY_TIMEOUT_MS)).default(DEFAULT_LONG_POLL_MS),
  waitForStage: optional(oneOf(UPDATE_WAIT_STAGES)).default('Completed'),
}));
