import type { Duration } from '../retry/duration.ts';
import type { Workflow, WorkflowArgs } from '../common/workflow-types.ts';
import type { StartWorkflowExecutionRequest } from '../protocol/index.ts';
import { checkPolicyPair, resolveWorkflowIdReusePolicy, type WorkflowIdReusePolicyOption } from '../history/id-reuse-policy.ts';
import { resolveWorkflowIdConflictPolicy, type WorkflowIdConflictPolicyOption } from '../history/id-conflict-policy.ts';
import type { TemporalRetryPolicy } from '../retry/index.ts';
import { resolveRetryPolicy } from '../retry/index.ts';
import { newUuid } from '../common/ids.ts';
import {
  optionalBoolean, optionalPositiveDuration, optionalRecord, optionalString, requireString,
} from '../common/validate.ts';
import { ValidationError } from '../errors/index.ts';
import { payloadOf } from './request-limits.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { parseCronSchedule } from '../schedule/index.ts';
import { userMetadataOf } from '../history/user-metadata.ts';

/** Keys of `client.workflow.start()` / `execute()` options. */
export const WORKFLOW_START_OPTION_KEYS = optionKeys<BaseStartOptions & { args?: unknown[] }>({
  taskQueue: true, workflowId: true, args: true, retry: true, workflowExecutionTimeout: true, workflowRunTimeout: true, workflowTaskTimeout: true,
  workflowIdReusePolicy: true, workflowIdConflictPolicy: true, startDelay: true, memo: true, requestId: true, cronSchedule: true, searchAttributes: true,
  requestEagerStart: true,
  staticSummary: true, staticDetails: true,
});

/** Options for starting a workflow; `args` is typed by the workflow function. */
export type WorkflowStartOptions<W extends Workflow = Workflow> = BaseStartOptions &
  ([] extends Parameters<W> ? { args?: WorkflowArgs<W> } : { args: WorkflowArgs<W> });

export interface BaseStartOptions {
  taskQueue: string;
  /** Business id, unique among open runs of the namespace. @default a random UUID */
  workflowId?: string;
  /** Workflows do not retry unless given a policy. */
  retry?: TemporalRetryPolicy;
  /** Bounds the whole chain of runs (retries, continue-as-new). @default unlimited */
  workflowExecutionTimeout?: Duration;
  /** Bounds one run. @default the execution timeout */
  workflowRunTimeout?: Duration;
  /** Bounds one workflow task. @default 10s */
  workflowTaskTimeout?: Duration;
  /** Our names or Temporal's (`WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE`, `WorkflowIdReusePolicy.…`). @default "AllowDuplicate" */
  workflowIdReusePolicy?: WorkflowIdReusePolicyOption;
  /**
   * What to do when a run of the id is running: `FAIL` (WorkflowExecutionAlreadyStartedError),
   * `USE_EXISTING` (the handle is that run's), `TERMINATE_EXISTING` (it is terminated and a new
   * run starts, in one transaction); our names (`"UseExisting"`) or Temporal's
   * (`WorkflowIdConflictPolicy.USE_EXISTING`). @default refused, as FAIL (a signal-with-start: USE_EXISTING)
   */
  workflowIdConflictPolicy?: WorkflowIdConflictPolicyOption;
  /**
   * How long the run's first workflow task waits (Temporal's `startDelay`): the run exists at
   * once and its execution time is the start plus the delay. A signal to the run ends the wait;
   * a signal-with-start's own signal does not. Not with `cronSchedule`. @default none
   */
  startDelay?: Duration;
  memo?: Record<string, unknown>;
  /** Makes the start idempotent: repeating it with the same request id returns the first run. */
  requestId?: string;
  /**
   * Makes the workflow a cron job: a chain of runs, one per fire time of the spec (five fields,
   * `@daily` and the other robfig names, `@every 1h`, an optional `CRON_TZ=<zone>` prefix; UTC by
   * default), each with the same args and options, until terminated or the execution timeout.
   * See docs/cron-jobs.md. @default none
   */
  cronSchedule?: string;
  /**
   * Custom search attributes registered in the namespace (`client.searchAttributes.create`), by
   * name: strings, numbers, booleans, Dates (Datetime) and string arrays (KeywordList).
   */
  searchAttributes?: SearchAttributesOption;
  /**
   * Eager workflow start (Temporal's option): when a worker of this process polls the task queue
   * over the same connection (the same server address, or the same in-process engine) and has a
   * free workflow task slot, the run's first workflow task comes back with the start's answer and
   * that worker runs it at once, with no poll between. Otherwise the start is an ordinary one.
   * The handle's `eagerlyStarted` says which. Not with signal-with-start. @default false
   */
  requestEagerStart?: boolean;
  /**
   * A one-line summary of the run (Temporal's `staticSummary`, at most 400 characters), shown by
   * describe, the list (a column of the web UI and the CLI) and the workflow page. @default none
   */
  staticSummary?: string;
  /** Longer details of the run (Temporal's `staticDetails`, at most 20,000 characters), shown by describe and the workflow page. @default none */
  staticDetails?: string;
}

/**
 * Validates start options and turns them into the service request. Unknown keys are refused
 * (`kind` names the options in the error, `known` lists the valid keys); a `cronSchedule` that does
 * not parse is refused with the column where reading stopped (a CronSyntaxError).
 */
export function toStartRequest(
  workflowType: string,
  options: WorkflowStartOptions,
  namespace: string,
  identity: string,
  kind = 'workflow start',
  known: readonly string[] = WORKFLOW_START_OPTION_KEYS,
): StartWorkflowExecutionRequest & { workflowId: string } {
  if (typeof options !== 'object' || options === null) {
    throw new ValidationError('options', 'must be an object with at least taskQueue', options);
  }
  refuseUnknownKeys(kind, options, known);
  const args = (options as { args?: unknown }).args ?? [];
  if (!Array.isArray(args)) throw new ValidationError('args', 'must be an array of the workflow\'s arguments', args);
  const req: StartWorkflowExecutionRequest & { workflowId: string } = {
    namespace,
    workflowId: optionalString('workflowId', options.workflowId) ?? newUuid(),
    workflowType,
    taskQueue: requireString('taskQueue', options.taskQueue),
    args: payloadOf('args', args),
    identity,
    requestId: optionalString('requestId', options.requestId) ?? newUuid(),
  };
  const memo = optionalRecord('memo', options.memo);
  if (memo) req.memo = payloadOf('memo', memo);
  const attributes = searchAttributesToWire('searchAttributes', options.searchAttributes);
  if (attributes) req.searchAttributes = attributes;
  if (options.retry !== undefined) req.retryPolicy = resolveRetryPolicy(options.retry, 'retry');
  const exec = optionalPositiveDuration('workflowExecutionTimeout', options.workflowExecutionTimeout);
  if (exec !== undefined) req.workflowExecutionTimeoutMs = exec;
  const run = optionalPositiveDuration('workflowRunTimeout', options.workflowRunTimeout);
  if (run !== undefined) req.workflowRunTimeoutMs = run;
  const task = optionalPositiveDuration('workflowTaskTimeout', options.workflowTaskTimeout);
  if (task !== undefined) req.workflowTaskTimeoutMs = task;
  if (options.cronSchedule !== undefined) req.cronSchedule = parseCronSchedule(options.cronSchedule, 'cronSchedule').spec;
  if (options.workflowIdReusePolicy !== undefined) {
    req.workflowIdReusePolicy = resolveWorkflowIdReusePolicy('workflowIdReusePolicy', options.workflowIdReusePolicy);
  }
  if (options.workflowIdConflictPolicy !== undefined) {
    req.workflowIdConflictPolicy = resolveWorkflowIdConflictPolicy('workflowIdConflictPolicy', options.workflowIdConflictPolicy);
  }
  checkPolicyPair('workflowIdConflictPolicy', req.workflowIdReusePolicy, req.workflowIdConflictPolicy);
  optionalBoolean('requestEagerStart', options.requestEagerStart);
  const userMetadata = userMetadataOf({ field: 'staticSummary', value: options.staticSummary }, { field: 'staticDetails', value: options.staticDetails });
  if (userMetadata) req.userMetadata = userMetadata;
  const delay = optionalPositiveDuration('startDelay', options.startDelay);
  if (delay !== undefined) {
    if (req.cronSchedule !== undefined) throw new ValidationError('startDelay', 'cannot be given with cronSchedule (a cron job\'s first run waits for its first fire time)', options.startDelay);
    req.workflowStartDelayMs = delay;
  }
  return req;
}

/** Search attribute values as a start or schedule action takes them; undefined when none are given. */
export type SearchAttributesOption = Record<string, string | number | boolean | Date | readonly string[]>;

/**
 * Search attributes as they travel: Dates become ISO strings; the server checks each value
 * against the attribute's registered type.
 * @throws ValidationError naming `field` when it is not an object.
 */
export function searchAttributesToWire(field: string, value: unknown): Record<string, string | number | boolean | readonly string[]> | undefined {
  const attributes = optionalRecord(field, value);
  if (!attributes) return undefined;
  return Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v])) as
    Record<string, string | number | boolean | readonly string[]>;
}
