import { searchAttributesToCommand, type SearchAttributesOption } from './search-attribute-options.ts';
import { ChildWorkflowFailure, CancelledFailure } from '../common/failure.ts';
import { messageNameOf, type SignalDefinition } from '../common/message-definitions.ts';
import { optionalArray, optionalPositiveDuration, optionalRecord, optionalString, requireOneOf } from '../common/validate.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { checkPolicyDurations } from '../common/max-duration.ts';
import type { Workflow, WorkflowResult } from '../common/workflow-types.ts';
import {
  CHILD_WORKFLOW_CANCELLATION_TYPES, resolveParentClosePolicy, type ChildStartAttributes, type ChildWorkflowCancellationType,
  type ParentClosePolicyOption,
} from '../history/child-types.ts';
import { checkPolicyPair, resolveWorkflowIdReusePolicy, type WorkflowIdReusePolicyOption } from '../history/id-reuse-policy.ts';
import { resolveWorkflowIdConflictPolicy, type WorkflowIdConflictPolicyOption } from '../history/id-conflict-policy.ts';
import type { Duration } from '../retry/duration.ts';
import { userMetadataOf } from '../history/user-metadata.ts';
import { ValidationError } from '../errors/index.ts';
import { resolveRetryPolicy, type TemporalRetryPolicy } from '../retry/temporal.ts';
import type { SandboxCommand } from './activation.ts';
import { activator } from './activator.ts';
import { headerField, outbound } from './interceptors.ts';
import { CancellationScope } from './cancellation-scope.ts';
import { uuid4From } from './random.ts';

/** Options of {@link startChild} and {@link executeChild}. Temporal's names. */
export interface ChildWorkflowOptions<W extends Workflow = Workflow> {
  /** @default a UUID drawn from the run's seeded generator (the same on replay) */
  workflowId?: string;
  args?: Parameters<W>;
  /** @default the parent's task queue */
  taskQueue?: string;
  /** Limit on the child's whole chain of runs. */
  workflowExecutionTimeout?: Duration;
  /** Limit on one run of the child. @default the execution timeout */
  workflowRunTimeout?: Duration;
  /** @default 10 s */
  workflowTaskTimeout?: Duration;
  /** The child's own retry policy; children, like workflows, do not retry without one. */
  retry?: TemporalRetryPolicy;
  /**
   * What happens to the child when this workflow closes: steadfast's names or Temporal's
   * spellings (`ParentClosePolicy.ABANDON`, `'PARENT_CLOSE_POLICY_ABANDON'`). @default "Terminate"
   */
  parentClosePolicy?: ParentClosePolicyOption;
  /**
   * What cancelling this call's scope does to the child, and when `result()` rejects
   * (`ChildWorkflowCancellationType`). A child whose start was not sent yet is dropped whatever the type.
   * @default "WAIT_CANCELLATION_COMPLETED"
   */
  cancellationType?: ChildWorkflowCancellationType;
  memo?: Record<string, unknown>;
  /**
   * The child's custom search attributes, registered in the child's namespace; the same values
   * as `upsertSearchAttributes` takes. A name or value the namespace refuses fails this
   * workflow's task (BadSearchAttributes).
   */
  searchAttributes?: SearchAttributesOption;
  /**
   * Whether the child may start when a workflow with its id ran before (our names or Temporal's
   * spellings). A running workflow with the id fails the start unless "TerminateIfRunning".
   * @default "AllowDuplicate"
   */
  workflowIdReusePolicy?: WorkflowIdReusePolicyOption;
  /**
   * What to do when a workflow with the child's id is running: `FAIL` (the child fails to start,
   * as when left out) or `TERMINATE_EXISTING` (it is terminated and the child starts). Temporal's
   * USE_EXISTING is refused: the running workflow would not be this run's child.
   */
  workflowIdConflictPolicy?: WorkflowIdConflictPolicyOption;
  /**
   * Makes the child a cron job (same spec language as the client's `cronSchedule`; the server
   * checks it). To the parent, the child's chain is one execution: its result comes only when the
   * chain ends (terminated, or its execution timeout).
   */
  cronSchedule?: string;
  /** A one-line summary of the child (Temporal's `staticSummary`, at most 400 characters), shown by its describe, the list and the web UI. */
  staticSummary?: string;
  /** Longer details of the child (Temporal's `staticDetails`, at most 20,000 characters), shown by its describe and the web UI. */
  staticDetails?: string;
}

/** A started child workflow. */
export interface ChildWorkflowHandle<W extends Workflow = Workflow> {
  readonly workflowId: string;
  /** Run id of the child's first run; its chain (retries, continue-as-new) is one execution to the parent. */
  readonly firstExecutionRunId: string;
  /** The child's outcome: its result, or a ChildWorkflowFailure whose cause says why. */
  result(): Promise<WorkflowResult<W>>;
  /**
   * Signals the child (SignalExternalWorkflowExecution to its workflow id, so a child that
   * continued as new gets it in its current run); resolves once the signal is recorded.
   */
  signal<Args extends unknown[]>(def: SignalDefinition<Args> | string, ...args: Args): Promise<void>;
}

const OPTION_KEYS = optionKeys<ChildWorkflowOptions>({
  workflowId: true, args: true, taskQueue: true, workflowExecutionTimeout: true, workflowRunTimeout: true, workflowTaskTimeout: true,
  retry: true, parentClosePolicy: true, cancellationType: true, memo: true, searchAttributes: true, workflowIdReusePolicy: true,
  workflowIdConflictPolicy: true, cronSchedule: true, staticSummary: true, staticDetails: true,
});

function typeName(workflow: Workflow | string): string {
  if (typeof workflow === 'string' && workflow.length > 0) return workflow;
  if (typeof workflow === 'function' && workflow.name) return workflow.name;
  throw new ValidationError('workflow', 'must be a named workflow function or a workflow type name', workflow);
}

/** Validates child options into the StartChildWorkflowExecution command's attributes. */
export function resolveChildOptions(workflowType: string, options: ChildWorkflowOptions, defaultId: () => string): ChildStartAttributes {
  const o = optionalRecord('child workflow options', options) ?? {};
  refuseUnknownKeys('child workflow', o, OPTION_KEYS);
  const attrs: ChildStartAttributes = {
    workflowId: optionalString('workflowId', options.workflowId) ?? defaultId(),
    workflowType,
    args: optionalArray('args', options.args),
  };
  const taskQueue = optionalString('taskQueue', options.taskQueue);
  if (taskQueue !== undefined) attrs.taskQueue = taskQueue;
  const exec = optionalPositiveDuration('workflowExecutionTimeout', options.workflowExecutionTimeout);
  if (exec !== undefined) attrs.workflowExecutionTimeoutMs = exec;
  const run = optionalPositiveDuration('workflowRunTimeout', options.workflowRunTimeout);
  if (run !== undefined) attrs.workflowRunTimeoutMs = run;
  const task = optionalPositiveDuration('workflowTaskTimeout', options.workflowTaskTimeout);
  if (task !== undefined) attrs.workflowTaskTimeoutMs = task;
  if (options.retry !== undefined) attrs.retryPolicy = checkPolicyDurations('retry', resolveRetryPolicy(options.retry, 'retry'), 'user');
  if (options.parentClosePolicy !== undefined) {
    attrs.parentClosePolicy = resolveParentClosePolicy('parentClosePolicy', options.parentClosePolicy);
  }
  const memo = optionalRecord('memo', options.memo);
  if (memo !== undefined) attrs.memo = memo;
  if (options.searchAttributes !== undefined) attrs.searchAttributes = searchAttributesToCommand('searchAttributes', options.searchAttributes);
  if (options.workflowIdReusePolicy !== undefined) {
    attrs.workflowIdReusePolicy = resolveWorkflowIdReusePolicy('workflowIdReusePolicy', options.workflowIdReusePolicy);
  }
  if (options.workflowIdConflictPolicy !== undefined) {
    const conflict = resolveWorkflowIdConflictPolicy('workflowIdConflictPolicy', options.workflowIdConflictPolicy);
    if (conflict === 'UseExisting') {
      throw new ValidationError('workflowIdConflictPolicy', 'cannot be USE_EXISTING for a child: the running workflow would not be this run\'s child (use FAIL or TERMINATE_EXISTING)', options.workflowIdConflictPolicy);
    }
    attrs.workflowIdConflictPolicy = conflict;
  }
  checkPolicyPair('workflowIdConflictPolicy', attrs.workflowIdReusePolicy, attrs.workflowIdConflictPolicy);
  const cron = optionalString('cronSchedule', options.cronSchedule);
  if (cron !== undefined) attrs.cronSchedule = cron;
  const userMetadata = userMetadataOf({ field: 'staticSummary', value: options.staticSummary }, { field: 'staticDetails', value: options.staticDetails });
  if (userMetadata) attrs.userMetadata = userMetadata;
  return attrs;
}

/**
 * Starts a child workflow (StartChildWorkflowExecution) and resolves once it has started, with
 * a handle to its result. Rejects with a ChildWorkflowFailure (cause type
 * "WorkflowExecutionAlreadyStarted") when a workflow with its id is running. Cancelling the
 * current scope asks the child to cancel (RequestCancelExternalWorkflowExecution); the result
 * then rejects once the child has closed.
 */
export function startChild<W extends Workflow>(workflow: W | string, options: ChildWorkflowOptions<W> = {}): Promise<ChildWorkflowHandle<W>> {
  const a = activator();
  const type = typeName(workflow);
  const attributes = resolveChildOptions(type, options as ChildWorkflowOptions, () => uuid4From(a.random));
  const cancellationType = options.cancellationType === undefined
    ? 'WAIT_CANCELLATION_COMPLETED'
    : requireOneOf('cancellationType', options.cancellationType, CHILD_WORKFLOW_CANCELLATION_TYPES);
  const scope = CancellationScope.current();
  if (scope.consideredCancelled) return scope.cancelRequested;
  const seq = ++a.children.seq;
  attributes.control = String(seq);
  const { workflowId } = attributes;
  let command: SandboxCommand | undefined;
  let resolveResult!: (v: unknown) => void;
  let rejectResult!: (e: unknown) => void;
  const result = new Promise<unknown>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  // Nobody may ever ask for the result of a fire-and-forget child; its failure is not unhandled.
  result.catch(() => undefined);
  const cancelled = (reason: unknown, runId: string | undefined, message: string) => new ChildWorkflowFailure(
    message, type, workflowId, runId, 'CancelRequested', reason instanceof Error ? reason : new CancelledFailure('Child workflow cancelled'),
  );
  /** Sends the cancel request the cancellation type calls for, to the started run. */
  let requestCancel: ((runId: string) => void) | undefined;
  const handle = new Promise<ChildWorkflowHandle<W>>((resolve, reject) => {
    a.children.pending.set(seq, {
      workflowId,
      onStarted(runId) {
        requestCancel?.(runId);
        resolve({
          workflowId, firstExecutionRunId: runId, result: () => result as Promise<WorkflowResult<W>>,
          signal: (def, ...args) => a.messages.signalExternal({ workflowId }, messageNameOf('def', def, 'signal'), args, true),
        });
      },
      onStartFailed(err) {
        reject(err);
        rejectResult(err);
      },
      onResult: resolveResult,
      onFailed: rejectResult,
    });
    if (!scope.cancellable) return;
    scope.cancelRequested.catch((reason: unknown) => {
      const child = a.children.pending.get(seq);
      if (!child) return;
      if (command === undefined || a.dropCommand(command)) {
        a.children.pending.delete(seq);
        const err = cancelled(reason, undefined, 'Child workflow cancelled before it started');
        reject(err);
        rejectResult(err);
        return;
      }
      if (cancellationType === 'WAIT_CANCELLATION_REQUESTED') {
        // The request carries a control, so its outcome comes back: recorded rejects the result,
        // failed (the child had closed) leaves the result to the child's close event.
        requestCancel = (runId) => a.messages.cancelExternal({ workflowId, runId }, true)
          .then(() => rejectResult(cancelled(reason, runId, 'Child workflow cancelled')), () => undefined);
      } else if (cancellationType !== 'ABANDON') {
        requestCancel = (runId) => a.pushCommand({
          commandType: 'RequestCancelExternalWorkflowExecution', attributes: { workflowId, ...(runId ? { runId } : {}), childWorkflowOnly: true },
        });
      }
      if (child.runId !== undefined) requestCancel?.(child.runId);
      if (cancellationType === 'ABANDON' || cancellationType === 'TRY_CANCEL') {
        // The promises settle now; the child's later start or close events find them settled.
        const err = cancelled(reason, child.runId, 'Child workflow cancelled');
        if (child.runId === undefined) reject(err);
        rejectResult(err);
      }
    });
  });
  const started = handle.then((h) => h.firstExecutionRunId);
  started.catch(() => undefined);
  const send = outbound(a.interceptors, 'startChildWorkflowExecution', (input) => {
    command = { commandType: 'StartChildWorkflowExecution', attributes: { ...input.options, workflowType: input.workflowType, ...headerField(input.headers) } };
    a.pushCommand(command);
    return Promise.resolve([started, result]);
  });
  const { workflowType: _type, header: _header, ...childOptions } = attributes;
  return send({ workflowType: type, options: childOptions, headers: {}, seq }).then(() => handle);
}

/** Starts a child workflow and waits for its result. */
export async function executeChild<W extends Workflow>(workflow: W | string, options: ChildWorkflowOptions<W> = {}): Promise<WorkflowResult<W>> {
  const handle = await startChild(workflow, options);
  return handle.result();
}
