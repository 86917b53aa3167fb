import type { WireHeaders } from '../../common/headers.ts';
import type { SearchAttributeValue } from '../../visibility/attributes.ts';
import type { FailureInfo } from '../../common/failure.ts';
import { parseCronSchedule } from '../../schedule/index.ts';
import { DEFAULT_NAMESPACE } from '../../common/ids.ts';
import { optionalInt, optionalString, requireInt } from '../../common/validate.ts';
import { checkPolicyPair, type WorkflowIdReusePolicy } from '../../history/id-reuse-policy.ts';
import type { WorkflowIdConflictPolicy } from '../../history/id-conflict-policy.ts';
import { failure, headers, retryPolicy } from '../../protocol/fields.ts';
import { DEFAULT_WORKFLOW_TASK_TIMEOUT_MS, MAX_ID_LENGTH } from '../../protocol/limits.ts';
import { parseField, parseRequest } from '../../protocol/parse.ts';
import { startWorkflowExecutionRequestSchema } from '../../protocol/schemas/executions.ts';
import { pollRequestSchema } from '../../protocol/schemas/tasks.ts';
import type { z } from 'zod';
import { resolvePolicyData, type RetryPolicyInput } from '../../retry/index.ts';
import { ValidationError } from '../../errors/index.ts';
import type { PolicyData, RetryPolicyData } from '../../retry/policy-data.ts';
import type { UserMetadata } from '../../history/user-metadata.ts';
import type { StartCallOptions } from '../../protocol/service.ts';
import { checkMaxDuration, checkPolicyDurations, MAX_DURATION_MS } from '../../common/max-duration.ts';

/** Largest timeout, timer or backoff accepted, ms (100 years): keeps deadlines inside safe integers and SQL BIGINT. */
export const MAX_TIMEOUT_MS = MAX_DURATION_MS;

/** The workflow task timeout when none is given, ms. @default 10 000 */
export { DEFAULT_WORKFLOW_TASK_TIMEOUT_MS };

/** Commands reach the engine as untyped JSON from the worker; their attributes are checked with these. */
export function requireObject(field: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(field, 'must be an object', value);
  }
  return value as Record<string, unknown>;
}

/** A command's namespace, defaulted. */
export function namespaceOf(req: Record<string, unknown>): string {
  return optionalString('namespace', req.namespace, MAX_ID_LENGTH) ?? DEFAULT_NAMESPACE;
}

/** A command's headers at `field` (the protocol's rule for headers), or undefined when left out or empty. */
export function optionalHeader(field: string, value: unknown): WireHeaders | undefined {
  if (value === undefined || value === null) return undefined;
  const h = parseField(headers(field), field, value);
  return h && Object.keys(h).length > 0 ? h : undefined;
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

/** A failure in its stored form: an object with `kind` and `message` (protocol's failure schema). */
export function requireFailure(field: string, value: unknown): FailureInfo {
  return parseField(failure(field), field, value);
}

/** A retry policy from the wire, validated with the retry library's rules, intervals at most {@link MAX_TIMEOUT_MS}. */
export function optionalRetryPolicy(field: string, value: unknown): RetryPolicyData | undefined {
  return parseField(retryPolicy(field), field, value);
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
  /** Headers of the start (Temporal's `Headers`, in wire form). */
  header?: WireHeaders;
  /** Custom search attributes, validated against the namespace (validateStartAttributes). */
  searchAttributes?: Record<string, SearchAttributeValue>;
  /** TemporalScheduledById: set by the engine for a run a schedule starts, never by a request. */
  scheduledById?: string;
  /** TemporalScheduledStartTime: the time the schedule's action was due, ms; with scheduledById. */
  scheduledStartTime?: number;
  /** The static summary and details (Temporal's `staticSummary`, `staticDetails`). */
  userMetadata?: UserMetadata;
}

/** A validated start request with its defaults filled in. */
export interface ValidStart extends RunSpec {
  workflowIdReusePolicy: WorkflowIdReusePolicy;
  workflowIdConflictPolicy?: WorkflowIdConflictPolicy;
  /** The first workflow task's wait, ms (see StartWorkflowExecutionRequest.workflowStartDelayMs). */
  workflowStartDelayMs?: number;
}

/** Checks a start request (the protocol's schema, then the cron spec, which steadfast/schedule owns); errors name the field. */
export function validateStart(input: unknown): ValidStart {
  return validStart(parseRequest(startWorkflowExecutionRequestSchema, input));
}

/** A start request its schema accepted (also signal-with-start's), with the cron spec checked and the defaults filled in. */
export function validStart(parsed: z.output<typeof startWorkflowExecutionRequestSchema>): ValidStart {
  const {
    searchAttributes: _attributes, cronSchedule, args, memo, namespace, workflowId, workflowType, taskQueue, workflowTaskTimeoutMs,
    workflowIdReusePolicy, workflowIdConflictPolicy, workflowStartDelayMs, retryPolicy, workflowExecutionTimeoutMs, workflowRunTimeoutMs, requestId, identity, header,
    userMetadata,
  } = parsed;
  // In the parsed request's (the schema's) order; a field left out stays absent, and a defaulted
  // workflowTaskTimeoutMs comes last, as it did when this spread the request.
  const out: ValidStart = {
    args, ...(memo !== undefined ? { memo } : {}), namespace, workflowId, workflowType, taskQueue,
    ...(workflowTaskTimeoutMs !== undefined ? { workflowTaskTimeoutMs } : {}), workflowIdReusePolicy,
    ...(retryPolicy !== undefined ? { retryPolicy } : {}),
    ...(workflowExecutionTimeoutMs !== undefined ? { workflowExecutionTimeoutMs } : {}),
    ...(workflowRunTimeoutMs !== undefined ? { workflowRunTimeoutMs } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    ...(identity !== undefined ? { identity } : {}),
    ...(header !== undefined ? { header } : {}),
    workflowTaskTimeoutMs: workflowTaskTimeoutMs ?? DEFAULT_WORKFLOW_TASK_TIMEOUT_MS,
  };
  if (userMetadata !== undefined) out.userMetadata = userMetadata;
  if (cronSchedule !== undefined) out.cronSchedule = parseCronSchedule(cronSchedule, 'cronSchedule').spec;
  checkPolicyPair('workflowIdConflictPolicy', workflowIdReusePolicy, workflowIdConflictPolicy);
  if (workflowIdConflictPolicy !== undefined) out.workflowIdConflictPolicy = workflowIdConflictPolicy;
  if (workflowStartDelayMs !== undefined) {
    if (out.cronSchedule !== undefined) {
      throw new ValidationError('workflowStartDelayMs', 'cannot be given with cronSchedule (a cron job\'s first run waits for its first fire time)', workflowStartDelayMs);
    }
    out.workflowStartDelayMs = workflowStartDelayMs;
  }
  return out;
}

/** A validated poll request, its defaults filled in. */
export type ValidPoll = z.output<typeof pollRequestSchema>;

/** Checks a poll request (workflow, activity and query polls alike). */
export function validatePoll(input: unknown): ValidPoll {
  return parseRequest(pollRequestSchema, input);
}

/**
 * The in-process options of a start (StartCallOptions): `eagerTaskAhead`, a function, or
 * nothing. @throws ValidationError naming the field.
 */
export function eagerTaskAhead(opts: unknown): StartCallOptions['eagerTaskAhead'] {
  if (opts === undefined || opts === null) return undefined;
  if (typeof opts !== 'object' || Array.isArray(opts)) throw new ValidationError('options', 'must be an object', opts);
  const ahead = (opts as StartCallOptions).eagerTaskAhead;
  if (ahead !== undefined && typeof ahead !== 'function') throw new ValidationError('eagerTaskAhead', 'must be a function', ahead);
  return ahead;
}
