import type { Duration } from '../retry/duration.ts';
import type { Workflow, WorkflowArgs } from '../common/workflow-types.ts';
import type { StartWorkflowExecutionRequest, WorkflowIdReusePolicy } from '../history/service.ts';
import type { TemporalRetryPolicy } from '../retry/index.ts';
import { resolveRetryPolicy } from '../retry/index.ts';
import { newUuid } from '../common/ids.ts';
import {
  optionalPositiveDuration, optionalRecord, optionalString, requireOneOf, requireString,
} from '../common/validate.ts';
import { ValidationError } from '../retry/errors.ts';
import { WORKFLOW_ID_REUSE_POLICIES } from '../history/service.ts';

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
  /** @default "AllowDuplicate" */
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
  memo?: Record<string, unknown>;
  /** Makes the start idempotent: repeating it with the same request id returns the first run. */
  requestId?: string;
}

/** Validates start options and turns them into the service request. */
export function toStartRequest(
  workflowType: string,
  options: WorkflowStartOptions,
  namespace: string,
  identity: string,
): StartWorkflowExecutionRequest & { workflowId: string } {
  if (typeof options !== 'object' || options === null) {
    throw new ValidationError('options', 'must be an object with at least taskQueue', options);
  }
  const args = (options as { args?: unknown }).args ?? [];
  if (!Array.isArray(args)) throw new ValidationError('args', 'must be an array of the workflow\'s arguments', args);
  const req: StartWorkflowExecutionRequest & { workflowId: string } = {
    namespace,
    workflowId: optionalString('workflowId', options.workflowId) ?? newUuid(),
    workflowType,
    taskQueue: requireString('taskQueue', options.taskQueue),
    args,
    identity,
    requestId: optionalString('requestId', options.requestId) ?? newUuid(),
  };
  const memo = optionalRecord('memo', options.memo);
  if (memo) req.memo = memo;
  if (options.retry !== undefined) req.retryPolicy = resolveRetryPolicy(options.retry, 'retry');
  const exec = optionalPositiveDuration('workflowExecutionTimeout', options.workflowExecutionTimeout);
  if (exec !== undefined) req.workflowExecutionTimeoutMs = exec;
  const run = optionalPositiveDuration('workflowRunTimeout', options.workflowRunTimeout);
  if (run !== undefined) req.workflowRunTimeoutMs = run;
  const task = optionalPositiveDuration('workflowTaskTimeout', options.workflowTaskTimeout);
  if (task !== undefined) req.workflowTaskTimeoutMs = task;
  if (options.workflowIdReusePolicy !== undefined) {
    req.workflowIdReusePolicy = requireOneOf('workflowIdReusePolicy', options.workflowIdReusePolicy, WORKFLOW_ID_REUSE_POLICIES);
  }
  return req;
}
