import { z } from 'zod';
import { WORKFLOW_STATUSES } from '../../history/events.ts';
import { WORKFLOW_ID_REUSE_POLICIES } from '../../history/id-reuse-policy.ts';
import { WORKFLOW_ID_CONFLICT_POLICIES } from '../../history/id-conflict-policy.ts';
import { RESET_REAPPLY_EXCLUDE_TYPES, RESET_TYPES } from '../enums.ts';
import type {
  CancelWorkflowRequest, ExecutionRequest, GetHistoryRequest, ListWorkflowExecutionsRequest, ResetWorkflowRequest,
  StartWorkflowExecutionRequest, TerminateWorkflowRequest,
} from '../executions.ts';
import {
  bool, checkedLater, headers, id, identity, int, namespace, oneOf, optional, payload, payloadArray, payloadRecord, retryPolicy, runId, text, timeoutMs, userMetadata,
} from '../fields.ts';
import {
  DEFAULT_HISTORY_PAGE_SIZE, DEFAULT_LIST_PAGE_SIZE, DEFAULT_LONG_POLL_MS, MAX_HISTORY_PAGE_SIZE, MAX_ID_LENGTH, MAX_LIST_PAGE_SIZE,
  MAX_LONG_POLL_MS, MAX_REASON_LENGTH,
} from '../limits.ts';
import { schemaOf } from '../parse.ts';
import type { SearchAttributeWireValue } from '../visibility.ts';

/* The schemas of the execution calls' requests (executions.ts), each the validator the engine uses. */

/** Schema of {@link StartWorkflowExecutionRequest}; the cron spec and the search attributes are checked by the engine (later layers own them). */
export const startWorkflowExecutionRequestSchema = schemaOf<StartWorkflowExecutionRequest>()(z.object({
  args: payloadArray('args'),
  memo: payloadRecord('memo'),
  namespace,
  workflowId: text(),
  workflowType: text(),
  taskQueue: text(),
  workflowTaskTimeoutMs: optional(timeoutMs),
  workflowIdReusePolicy: optional(oneOf(WORKFLOW_ID_REUSE_POLICIES)).default('AllowDuplicate'),
  workflowIdConflictPolicy: optional(oneOf(WORKFLOW_ID_CONFLICT_POLICIES)),
  workflowStartDelayMs: optional(timeoutMs),
  retryPolicy: retryPolicy('retryPolicy'),
  workflowExecutionTimeoutMs: optional(timeoutMs),
  workflowRunTimeoutMs: optional(timeoutMs),
  requestId: optional(id),
  identity: optional(identity),
  header: headers('header'),
  cronSchedule: optional(checkedLater<string>()),
  searchAttributes: checkedLater<Record<string, SearchAttributeWireValue>>(),
  requestEagerExecution: optional(z.boolean()),
  userMetadata: userMetadata('userMetadata'),
}));

/** Schema of {@link ExecutionRequest}. */
export const executionRequestSchema = schemaOf<ExecutionRequest>()(z.object({
  namespace,
  workflowId: text(),
  runId: optional(runId),
}));

/** Schema of {@link GetHistoryRequest}. */
export const getHistoryRequestSchema = schemaOf<GetHistoryRequest>()(executionRequestSchema.extend({
  pageSize: optional(int(1, MAX_HISTORY_PAGE_SIZE)).default(DEFAULT_HISTORY_PAGE_SIZE),
  closeEventOnly: optional(bool).default(false),
  waitForClose: optional(bool).default(false),
  waitTimeoutMs: optional(int(0, MAX_LONG_POLL_MS)).default(DEFAULT_LONG_POLL_MS),
  nextPageToken: optional(text()),
}));

/** Schema of {@link ListWorkflowExecutionsRequest}; the query text is checked by its parser (visibility/, a later layer). */
export const listWorkflowExecutionsRequestSchema = schemaOf<ListWorkflowExecutionsRequest>()(z.object({
  namespace,
  pageSize: optional(int(1, MAX_LIST_PAGE_SIZE)).default(DEFAULT_LIST_PAGE_SIZE),
  query: optional(checkedLater<string>()),
  workflowType: optional(text()),
  status: optional(oneOf(WORKFLOW_STATUSES)),
  workflowIdPrefix: optional(text()),
  startTimeFrom: optional(isoTime()),
  startTimeTo: optional(isoTime()),
  closeTimeFrom: optional(isoTime()),
  closeTimeTo: optional(isoTime()),
  nextPageToken: optional(text()),
}));

/** An ISO-8601 time. */
function isoTime() {
  return z.string({ error: 'must be an ISO-8601 time' }).refine((s) => Number.isFinite(Date.parse(s)), 'must be an ISO-8601 time');
}

/** Schema of {@link CancelWorkflowRequest}. */
export const cancelWorkflowRequestSchema = schemaOf<CancelWorkflowRequest>()(executionRequestSchema.extend({
  reason: optional(text(MAX_REASON_LENGTH)),
  identity: optional(identity),
  requestId: optional(text(MAX_ID_LENGTH)),
}));

/** Schema of {@link TerminateWorkflowRequest}. */
export const terminateWorkflowRequestSchema = schemaOf<TerminateWorkflowRequest>()(executionRequestSchema.extend({
  reason: optional(text(MAX_REASON_LENGTH)).default(''),
  details: payload('details'),
  identity: optional(identity),
  requestId: optional(text(MAX_ID_LENGTH)),
}));

/** Schema of {@link ResetWorkflowRequest}. */
export const resetWorkflowRequestSchema = schemaOf<ResetWorkflowRequest>()(executionRequestSchema.extend({
  eventId: optional(int(1)),
  resetType: optional(oneOf(RESET_TYPES)),
  reason: optional(text(MAX_REASON_LENGTH)).default(''),
  identity: optional(identity),
  reapplySignals: optional(bool).default(true),
  resetReapplyExcludeTypes: optional(z.array(oneOf(RESET_REAPPLY_EXCLUDE_TYPES), { error: `must be an array of ${RESET_REAPPLY_EXCLUDE_TYPES.join(', ')}` })
    .refine((kinds) => new Set(kinds).size === kinds.length, 'must name each kind at most once')).default([]),
}));
