import type { SearchAttributeValue } from '../visibility/attributes.ts';
import type { FailureInfo } from '../common/failure.ts';
import { optionalTraceHeader } from './trace-header.ts';
import { encodePayload } from '../common/payload.ts';
import { parseCronSchedule } from '../schedule/index.ts';
import { DEFAULT_NAMESPACE } from '../common/ids.ts';
import { optionalArray, optionalInt, optionalRecord, optionalString, requireInt, requireOneOf, requireString } from '../common/validate.ts';
import { WORKFLOW_STATUSES, type WorkflowExecutionStatus } from '../history/events.ts';
import {
  WORKFLOW_ID_REUSE_POLICIES, type StartWorkflowExecutionRequest, type WorkflowIdReusePolicy,
} from '../history/service.ts';
import { resolvePolicyData, resolveRetryPolicy, type RetryPolicyInput } from '../retry/index.ts';
import { ValidationError } from '../retry/errors.ts';
import type { PolicyData, RetryPolicyData } from '../retry/policy-data.ts';
import { checkMaxDuration, checkPolicyDurations, MAX_DURATION_MS } from '../common/max-duration.ts';
import { checkRequestText } from './request-text.ts';

/** Largest timeout, timer or backoff accepted, ms (100 years): keeps deadlines inside safe integers and SQL BIGINT. */
export const MAX_TIMEOUT_MS = MAX_DURATION_MS;

/** The workflow task timeout when none is given, ms. @default 10 000 */
export const DEFAULT_WORKFLOW_TASK_TIMEOUT_MS = 10_000;

/** Requests reach the engine as untyped JSON from the server; every field is checked here. */
export function requireObject(field: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(field, 'must be an object', value);
  }
  return value as Record<string, unknown>;
}

/**
 * The request of a service call: an object whose names and ids (every string outside the
 * payload fields) are free of NUL and lone surrogates. Every call of the engine starts here.
 */
export function requireRequest(value: unknown): Record<string, unknown> {
  const req = requireObject('request', value);
  checkRequestText(req);
  return req;
}

/** A namespace, defaulted. */
export function namespaceOf(req: Record<string, unknown>): string {
  return optionalString('namespace', req.namespace, 200) ?? DEFAULT_NAMESPACE;
}

/** A positive timeout in ms, at most {@link MAX_TIMEOUT_MS}, or undefined. */
export function optionalTimeout(field: string, value: unknown): number | undefined {
  const ms = optionalInt(field, value, 1);
  return ms === undefined ? undefined : checkMaxDuration(field, ms);
}

/** A duration in ms from `min` to {@link MAX_TIMEOUT_MS} (a timer, a backoff). */
export function requireDurationMs(field: string, value: unknown, min: number): number {
  return checkMaxDuration(field, requireInt(field, value, min));
}

/** A failure in its stored form: an object with `kind` and `message`. */
export function requireFailure(field: string, value: unknown): FailureInfo {
  const obj = requireObject(field, value);
  requireOneOf(`${field}.kind`, obj.kind, ['Application', 'Timeout', 'Canceled', 'Terminated', 'Activity', 'ChildWorkflow', 'Server']);
  if (typeof obj.message !== 'string') throw new ValidationError(`${field}.message`, 'must be a string', obj.message);
  if (obj.nextRetryDelayMs !== undefined) requireDurationMs(`${field}.nextRetryDelayMs`, obj.nextRetryDelayMs, 0);
  encodePayload(field, value);
  return value as FailureInfo;
}

/** A retry policy from the wire, validated with the retry library's rules, intervals at most {@link MAX_TIMEOUT_MS}. */
export function optionalRetryPolicy(field: string, value: unknown): RetryPolicyData | undefined {
  if (value === undefined || value === null) return undefined;
  return checkPolicyDurations(field, resolveRetryPolicy(value as RetryPolicyData, field), 'wire');
}

/**
 * An activity's retry policy, any model of `steadfast/retry` (Temporal's fields or a curve), with
 * the default policy for an absent one (activities retry by default).
 */
export function requireRetryPolicy(field: string, value: unknown): PolicyData {
  return checkPolicyDurations(field, resolvePolicyData(value as RetryPolicyInput | undefined, field), 'wire');
}

/** The settings every run of a chain is made from, whoever starts it. */
export interface RunSpec {
  namespace: string;
  workflowId: string;
  workflowType: string;
  taskQueue: string;
  args: unknown[];
  memo?: Record<string, unknown>;
  retryPolicy?: RetryPolicyData;
  workflowExecutionTimeoutMs?: number;
  workflowRunTimeoutMs?: number;
  workflowTaskTimeoutMs: number;
  requestId?: string;
  identity?: string;
  cronSchedule?: string;
  /** Trace context the run was started under (see trace-header.ts). */
  header?: Record<string, string>;
  /** Custom search attributes, validated against the namespace (validateStartAttributes). */
  searchAttributes?: Record<string, SearchAttributeValue>;
  /** TemporalScheduledById: set by the engine for a run a schedule starts, never by a request. */
  scheduledById?: string;
  /** TemporalScheduledStartTime: the time the schedule's action was due, ms; with scheduledById. */
  scheduledStartTime?: number;
}

/** A validated start request with its defaults filled in. */
export interface ValidStart extends RunSpec {
  workflowIdReusePolicy: WorkflowIdReusePolicy;
}

/** Checks a start request; errors name the field. */
export function validateStart(input: StartWorkflowExecutionRequest): ValidStart {
  const req = requireRequest(input);
  const args = optionalArray('args', req.args);
  encodePayload('args', args);
  const memo = optionalRecord('memo', req.memo);
  if (memo) encodePayload('memo', memo);
  const out: ValidStart = {
    namespace: namespaceOf(req),
    workflowId: requireString('workflowId', req.workflowId),
    workflowType: requireString('workflowType', req.workflowType),
    taskQueue: requireString('taskQueue', req.taskQueue),
    args,
    workflowTaskTimeoutMs: optionalTimeout('workflowTaskTimeoutMs', req.workflowTaskTimeoutMs) ?? DEFAULT_WORKFLOW_TASK_TIMEOUT_MS,
    workflowIdReusePolicy: req.workflowIdReusePolicy === undefined ? 'AllowDuplicate'
      : requireOneOf('workflowIdReusePolicy', req.workflowIdReusePolicy, WORKFLOW_ID_REUSE_POLICIES),
  };
  if (memo) out.memo = memo;
  const retryPolicy = optionalRetryPolicy('retryPolicy', req.retryPolicy);
  if (retryPolicy) out.retryPolicy = retryPolicy;
  const exec = optionalTimeout('workflowExecutionTimeoutMs', req.workflowExecutionTimeoutMs);
  if (exec !== undefined) out.workflowExecutionTimeoutMs = exec;
  const run = optionalTimeout('workflowRunTimeoutMs', req.workflowRunTimeoutMs);
  if (run !== undefined) out.workflowRunTimeoutMs = run;
  const requestId = optionalString('requestId', req.requestId, 200);
  if (requestId !== undefined) out.requestId = requestId;
  const identity = optionalString('identity', req.identity, 500);
  if (identity !== undefined) out.identity = identity;
  const header = optionalTraceHeader('header', req.header);
  if (header) out.header = header;
  if (req.cronSchedule !== undefined && req.cronSchedule !== null) out.cronSchedule = parseCronSchedule(req.cronSchedule, 'cronSchedule').spec;
  return out;
}

/** A validated execution reference. */
export function validateExecutionRef(input: unknown): { namespace: string; workflowId: string; runId?: string } {
  const req = requireRequest(input);
  const runId = optionalString('runId', req.runId, 200);
  return { namespace: namespaceOf(req), workflowId: requireString('workflowId', req.workflowId), ...(runId ? { runId } : {}) };
}

/** Upper bound of PollRequest.maxTasks: bounds one answer's size and the transitions one poll starts. */
export const MAX_TASKS_PER_POLL_REQUEST = 100;

/** A validated poll request. */
export function validatePoll(input: unknown): {
  namespace: string; taskQueue: string; identity: string; pollTimeoutMs: number; maxTasks: number; workerInstanceId?: string;
} {
  const req = requireRequest(input);
  const workerInstanceId = optionalString('workerInstanceId', req.workerInstanceId, 200);
  return {
    ...(workerInstanceId ? { workerInstanceId } : {}),
    namespace: namespaceOf(req),
    taskQueue: requireString('taskQueue', req.taskQueue),
    identity: requireString('identity', req.identity, 500),
    pollTimeoutMs: optionalInt('pollTimeoutMs', req.pollTimeoutMs, 0, 600_000) ?? 30_000,
    maxTasks: optionalInt('maxTasks', req.maxTasks, 1, MAX_TASKS_PER_POLL_REQUEST) ?? 1,
  };
}

/** An ISO time bound of a list filter, as ms. */
export function optionalIsoTime(field: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new ValidationError(field, 'must be an ISO-8601 time', value);
  return ms;
}

/** A status filter. */
export function optionalStatus(field: string, value: unknown): WorkflowExecutionStatus | undefined {
  return value === undefined || value === null ? undefined : requireOneOf(field, value, WORKFLOW_STATUSES);
}
