import { ValidationError } from '../errors/index.ts';
import type { Headers } from '../common/headers.ts';
import type { Next } from '../common/interceptors.ts';
import type { WorkflowExecutionDescription, QueryRejectCondition, StartWorkflowExecutionRequest } from '../protocol/index.ts';
import type { UpdateOutcome } from '../history/message-types.ts';

export type { Headers, Next };

/** A workflow execution: its id and, when known, its run. */
export interface WorkflowExecution {
  workflowId: string;
  runId?: string;
}

/**
 * The start as the interceptors see it (Temporal's `WorkflowStartInput`). `options` is the start
 * request the client made of the start options (durations in ms, as the service takes them).
 */
export interface WorkflowStartInput {
  readonly workflowType: string;
  readonly headers: Headers;
  readonly options: Omit<StartWorkflowExecutionRequest, 'header' | 'workflowType'>;
}

/** Input of {@link WorkflowClientInterceptor.signal}. */
export interface WorkflowSignalInput {
  readonly signalName: string;
  readonly args: unknown[];
  readonly workflowExecution: WorkflowExecution;
  readonly headers: Headers;
}

/** Input of {@link WorkflowClientInterceptor.signalWithStart}. */
export interface WorkflowSignalWithStartInput {
  readonly workflowType: string;
  readonly signalName: string;
  readonly signalArgs: unknown[];
  readonly headers: Headers;
  readonly options: Omit<StartWorkflowExecutionRequest, 'header' | 'workflowType'>;
}

/** Input of {@link WorkflowClientInterceptor.query}. */
export interface WorkflowQueryInput {
  readonly queryType: string;
  readonly args: unknown[];
  readonly workflowExecution: WorkflowExecution;
  readonly queryRejectCondition?: QueryRejectCondition;
  readonly headers: Headers;
}

/** Input of {@link WorkflowClientInterceptor.startUpdate}. */
export interface WorkflowStartUpdateInput {
  readonly updateName: string;
  readonly args: unknown[];
  readonly workflowExecution: WorkflowExecution;
  readonly firstExecutionRunId?: string;
  readonly headers: Headers;
  readonly options: { updateId: string; waitForStage: 'Accepted' };
}

/** Output of {@link WorkflowClientInterceptor.startUpdate}. */
export interface WorkflowStartUpdateOutput {
  readonly updateId: string;
  readonly workflowRunId: string;
  /** Set when the update was rejected (the validator's failure). */
  readonly outcome?: UpdateOutcome;
}

/**
 * Input of {@link WorkflowClientInterceptor.startUpdateWithStart} (Temporal's
 * `WorkflowStartUpdateWithStartInput`): the start (as {@link WorkflowStartInput}'s `options`)
 * with its headers, and the update with its own.
 */
export interface WorkflowStartUpdateWithStartInput {
  readonly workflowType: string;
  readonly workflowStartOptions: Omit<StartWorkflowExecutionRequest, 'header' | 'workflowType'>;
  readonly workflowStartHeaders: Headers;
  readonly updateName: string;
  readonly updateArgs: unknown[];
  readonly updateOptions: { updateId: string; waitForStage: 'Accepted' | 'Completed' };
  readonly updateHeaders: Headers;
}

/** Output of {@link WorkflowClientInterceptor.startUpdateWithStart}: the run that took the update, and its outcome once known. */
export interface WorkflowStartUpdateWithStartOutput {
  readonly workflowExecution: { workflowId: string; runId: string };
  readonly updateId: string;
  /** Set when the update completed (or its validator rejected it) before the call returned. */
  readonly updateOutcome?: UpdateOutcome;
}

/** Input of {@link WorkflowClientInterceptor.terminate}. */
export interface WorkflowTerminateInput {
  readonly workflowExecution: WorkflowExecution;
  readonly reason?: string;
  readonly details?: unknown;
  readonly firstExecutionRunId?: string;
}

/** Input of {@link WorkflowClientInterceptor.cancel}. */
export interface WorkflowCancelInput {
  readonly workflowExecution: WorkflowExecution;
  readonly reason?: string;
  readonly firstExecutionRunId?: string;
}

/** Input of {@link WorkflowClientInterceptor.describe}. */
export interface WorkflowDescribeInput {
  readonly workflowExecution: WorkflowExecution;
}

/**
 * Intercepts the workflow client's calls (Temporal's `WorkflowClientInterceptor`): each method
 * receives the call's input and `next`, and may change the input (add headers), the result, or
 * wrap the call. Given as `new Client({ interceptors: { workflow: [...] } })`; the first of the
 * list runs first.
 */
export interface WorkflowClientInterceptor {
  /** Starting a workflow; resolves with the run id. */
  start?: (input: WorkflowStartInput, next: (input: WorkflowStartInput) => Promise<string>) => Promise<string>;
  /** Sending a signal. */
  signal?: (input: WorkflowSignalInput, next: (input: WorkflowSignalInput) => Promise<void>) => Promise<void>;
  /** Signal-with-start; resolves with the run id. */
  signalWithStart?: (input: WorkflowSignalWithStartInput, next: (input: WorkflowSignalWithStartInput) => Promise<string>) => Promise<string>;
  /** A query; resolves with the handler's result. */
  query?: (input: WorkflowQueryInput, next: (input: WorkflowQueryInput) => Promise<unknown>) => Promise<unknown>;
  /** Sending an update (startUpdate and executeUpdate), until it is accepted or rejected. */
  startUpdate?: (input: WorkflowStartUpdateInput, next: (input: WorkflowStartUpdateInput) => Promise<WorkflowStartUpdateOutput>) => Promise<WorkflowStartUpdateOutput>;
  /** Update-with-start (startUpdateWithStart and executeUpdateWithStart): the one call that starts and admits. */
  startUpdateWithStart?: (input: WorkflowStartUpdateWithStartInput,
    next: (input: WorkflowStartUpdateWithStartInput) => Promise<WorkflowStartUpdateWithStartOutput>) => Promise<WorkflowStartUpdateWithStartOutput>;
  /** Terminating the workflow. */
  terminate?: (input: WorkflowTerminateInput, next: (input: WorkflowTerminateInput) => Promise<void>) => Promise<void>;
  /** Asking the workflow to cancel. */
  cancel?: (input: WorkflowCancelInput, next: (input: WorkflowCancelInput) => Promise<void>) => Promise<void>;
  /** Describing the workflow; resolves with the service's answer. */
  describe?: (input: WorkflowDescribeInput, next: (input: WorkflowDescribeInput) => Promise<WorkflowExecutionDescription>) => Promise<WorkflowExecutionDescription>;
}

/** The client's interceptors by kind (Temporal's `ClientInterceptors`). */
export interface ClientInterceptors {
  workflow?: WorkflowClientInterceptor[];
}

const METHODS = ['start', 'signal', 'signalWithStart', 'query', 'startUpdate', 'startUpdateWithStart', 'terminate', 'cancel', 'describe'] as const;

/**
 * The workflow interceptors of a `ClientOptions.interceptors`, checked.
 * @throws ValidationError naming the entry that is not an interceptor.
 */
export function workflowClientInterceptorsOf(value: unknown): WorkflowClientInterceptor[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError('interceptors', 'must be { workflow?: WorkflowClientInterceptor[] }', value);
  }
  const unknown = Object.keys(value).filter((k) => k !== 'workflow');
  if (unknown.length) throw new ValidationError(`interceptors.${unknown[0]}`, 'is not an interceptor kind of the client (known: workflow)', (value as Record<string, unknown>)[unknown[0]!]);
  const list = (value as ClientInterceptors).workflow;
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new ValidationError('interceptors.workflow', 'must be an array of WorkflowClientInterceptor', list);
  list.forEach((i, n) => {
    if (typeof i !== 'object' || i === null) throw new ValidationError(`interceptors.workflow[${n}]`, 'must be an object of interceptor methods', i);
    for (const m of METHODS) {
      if ((i as Record<string, unknown>)[m] !== undefined && typeof (i as Record<string, unknown>)[m] !== 'function') {
        throw new ValidationError(`interceptors.workflow[${n}].${m}`, 'must be a function', (i as Record<string, unknown>)[m]);
      }
    }
  });
  return [...list];
}
