import { z } from 'zod';
import type { HistoryEvent, WorkflowExecutionStatus } from '../history/events.ts';
import { WORKFLOW_STATUSES } from '../history/events.ts';
import { WORKFLOW_ID_REUSE_POLICIES, type WorkflowIdReusePolicy } from '../history/id-reuse-policy.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import { RESET_TYPES, type ResetType } from './enums.ts';
import {
  bool, id, identity, int, namespace, oneOf, optional, payload, payloadArray, payloadRecord, retryPolicy, text, timeoutMs,
} from './fields.ts';
import {
  DEFAULT_HISTORY_PAGE_SIZE, DEFAULT_LIST_PAGE_SIZE, DEFAULT_LONG_POLL_MS, MAX_HISTORY_PAGE_SIZE, MAX_ID_LENGTH, MAX_LIST_PAGE_SIZE,
  MAX_LONG_POLL_MS, MAX_REASON_LENGTH,
} from './limits.ts';
import { schemaOf } from './parse.ts';
import type { SearchAttributeWireValue } from './visibility.ts';

/* Starting, reading, listing and ending workflow executions. */

/** Starts a workflow execution (the first run of a chain). */
export interface StartWorkflowExecutionRequest {
  /** @default "default" */
  namespace?: string;
  /** The workflow id: at most one open run has it. */
  workflowId: string;
  /** The workflow function's name, as the worker registered it. */
  workflowType: string;
  /** The task queue whose workers run the workflow. */
  taskQueue: string;
  /** The workflow function's arguments. @default [] */
  args?: unknown[];
  /** Data shown by describe and list, not indexed. */
  memo?: Record<string, unknown>;
  /** Workflows do not retry unless given a policy. */
  retryPolicy?: RetryPolicyData;
  /** Bound on the whole chain (retries, continue-as-new), ms. */
  workflowExecutionTimeoutMs?: number;
  /** Bound on one run, ms. @default the execution timeout */
  workflowRunTimeoutMs?: number;
  /** Bound on one workflow task, ms. @default 10 000 */
  workflowTaskTimeoutMs?: number;
  /** @default "AllowDuplicate" */
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
  /** Makes the start idempotent: a second start with the same id returns the first run. */
  requestId?: string;
  /** Who started it, for history. */
  identity?: string;
  /** Makes the workflow a cron job (classic five fields, `@every`, `CRON_TZ=`). */
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

/** The answer to a start. */
export interface StartWorkflowExecutionResponse {
  /** The run started, or the run an earlier start with the same request id made. */
  runId: string;
  /** False when the request id matched an earlier start and no new run was made. */
  started: boolean;
}

/** Names a workflow execution: its latest run, or the run given. */
export interface ExecutionRequest {
  /** @default "default" */
  namespace?: string;
  /** The workflow id. */
  workflowId: string;
  /** @default the latest run */
  runId?: string;
}

/** Reads a run's history, a page at a time, or waits for its close. */
export interface GetHistoryRequest extends ExecutionRequest {
  /** @default 1000 */
  pageSize?: number;
  /** From the previous page's answer. */
  nextPageToken?: string;
  /** Return only the close event; with `waitForClose`, long-poll until the run closes. */
  closeEventOnly?: boolean;
  /** Long-poll (up to `waitTimeoutMs`) until the run has closed; answers `{ events: [] }` on timeout. */
  waitForClose?: boolean;
  /** @default 30 000 */
  waitTimeoutMs?: number;
}

/** One page of a run's history. */
export interface GetHistoryResponse {
  /** In event id order. */
  events: HistoryEvent[];
  /** Present when more events follow; pass it to read the next page. */
  nextPageToken?: string;
}

/** Lists runs by a query in the filter language, or by its shorthands. */
export interface ListWorkflowExecutionsRequest {
  /** @default "default" */
  namespace?: string;
  /**
   * The filter language (docs/visibility.md), e.g. `WorkflowType = 'order' ORDER BY StartTime DESC`.
   * The filters below are shorthands for it and cannot be combined with it.
   */
  query?: string;
  /** Runs of this workflow type. */
  workflowType?: string;
  /** Runs in this status. */
  status?: WorkflowExecutionStatus;
  /** Runs whose workflow id starts with this. */
  workflowIdPrefix?: string;
  /** ISO time bounding the start time from below, inclusive. */
  startTimeFrom?: string;
  /** ISO time bounding the start time from above, inclusive. */
  startTimeTo?: string;
  /** ISO time bounding the close time from below, inclusive. */
  closeTimeFrom?: string;
  /** ISO time bounding the close time from above, inclusive. */
  closeTimeTo?: string;
  /** @default 100 */
  pageSize?: number;
  /** From the previous page's answer. */
  nextPageToken?: string;
}

/** Asks the run to cancel: WorkflowExecutionCancelRequested, which the workflow code handles. */
export interface CancelWorkflowRequest extends ExecutionRequest {
  /** Recorded in the event. */
  reason?: string;
  /** Who asked, for history. */
  identity?: string;
  /** Makes a repeated request a no-op, also once the run closed because of it. */
  requestId?: string;
}

/** Ends the run at once (Terminated), without running workflow code. */
export interface TerminateWorkflowRequest extends ExecutionRequest {
  /** Recorded in the event. @default "" */
  reason?: string;
  /** Recorded in the event. */
  details?: unknown;
  /** Who asked, for history. */
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
  /** The first or the last WorkflowTaskCompleted; or use `eventId`. */
  resetType?: ResetType;
  /** Recorded in the events. @default "" */
  reason?: string;
  /** Who asked, for history. */
  identity?: string;
  /** Re-apply signals received after the reset point to the new run. @default true */
  reapplySignals?: boolean;
}

/** The answer to a reset. */
export interface ResetWorkflowResponse {
  /** The new run. */
  runId: string;
}

/** A trace header: at most this many entries (traceparent, tracestate, baggage, a few vendor keys). */
const MAX_HEADER_ENTRIES = 8;
/** Longest value of one trace header entry, characters (W3C allows tracestate up to 512). */
const MAX_HEADER_VALUE_LENGTH = 8192;

/** A trace header (see StartWorkflowExecutionRequest.header); the engine stores it and never reads it. */
export const traceHeaderSchema = z.record(z.string(), z.string({ error: 'must be a string' })
  .max(MAX_HEADER_VALUE_LENGTH, `must be at most ${MAX_HEADER_VALUE_LENGTH} characters`), { error: 'must be an object' })
  .refine((h) => Object.keys(h).length <= MAX_HEADER_ENTRIES, `must have at most ${MAX_HEADER_ENTRIES} entries`);

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
  retryPolicy: retryPolicy('retryPolicy'),
  workflowExecutionTimeoutMs: optional(timeoutMs),
  workflowRunTimeoutMs: optional(timeoutMs),
  requestId: optional(id),
  identity: optional(identity),
  header: optional(traceHeaderSchema),
  cronSchedule: optional(z.custom<string>()),
  searchAttributes: z.custom<Record<string, SearchAttributeWireValue>>().optional(),
}));

/** Schema of {@link ExecutionRequest}. */
export const executionRequestSchema = schemaOf<ExecutionRequest>()(z.object({
  namespace,
  workflowId: text(),
  runId: optional(id),
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
  query: optional(z.custom<string>()),
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
}));
