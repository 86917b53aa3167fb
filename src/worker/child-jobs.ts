import type { FailureInfo, RetryState } from '../common/failure.ts';
import type { HistoryEvent } from '../history/events.ts';
import type { ActivationJob } from '../workflow/activation.ts';

/** What a child job factory asks of the run: the child a StartChildWorkflowExecutionInitiated event started. */
export interface ChildLookup {
  /** The child's sequence number in the run (its command's `control`). */
  child(initiatedEventId: number): number;
  /**
   * The `control` of the RequestCancelExternalWorkflowExecutionInitiated event with this id: the
   * sequence number of an external handle's cancel(); undefined for a child's cancellation.
   */
  cancelRequest(initiatedEventId: number): string | undefined;
}

type Ref = { workflowType: string; workflowId: string; runId: string; initiatedEventId: number };

function childFailure(a: Ref, message: string, retryState: RetryState, cause: FailureInfo): FailureInfo {
  return { kind: 'ChildWorkflow', message, workflowType: a.workflowType, workflowId: a.workflowId, runId: a.runId, retryState, cause };
}

function cancelExternalJob(runs: ChildLookup, initiatedEventId: number, failure?: FailureInfo): ActivationJob | undefined {
  const seq = runs.cancelRequest(initiatedEventId);
  return seq === undefined ? undefined : { type: 'resolveRequestCancelExternal', seq, ...(failure ? { failure } : {}) };
}

/**
 * Activation jobs of the child workflow events, one entry per event type. The outcome of a
 * child's cancellation wakes nothing (its close event does); that of an external handle's
 * cancel() settles its promise.
 */
export const CHILD_EVENT_JOBS = {
  StartChildWorkflowExecutionFailed: (e: HistoryEvent<'StartChildWorkflowExecutionFailed'>, runs: ChildLookup): ActivationJob => {
    const a = e.attributes;
    return {
      type: 'resolveChildStart', seq: runs.child(a.initiatedEventId),
      failure: {
        kind: 'ChildWorkflow', message: `child workflow ${a.workflowId} could not start: a workflow with this id is running, or ran and its workflowIdReusePolicy refuses the id`,
        workflowType: a.workflowType, workflowId: a.workflowId, retryState: 'NonRetryableFailure',
        cause: { kind: 'Application', type: 'WorkflowExecutionAlreadyStarted', nonRetryable: true, message: `workflow ${a.workflowId} is already running` },
      },
    };
  },
  ChildWorkflowExecutionStarted: (e: HistoryEvent<'ChildWorkflowExecutionStarted'>, runs: ChildLookup): ActivationJob => ({
    type: 'resolveChildStart', seq: runs.child(e.attributes.initiatedEventId), runId: e.attributes.runId,
  }),
  ChildWorkflowExecutionCompleted: (e: HistoryEvent<'ChildWorkflowExecutionCompleted'>, runs: ChildLookup): ActivationJob => ({
    type: 'resolveChild', seq: runs.child(e.attributes.initiatedEventId), result: e.attributes.result,
  }),
  ChildWorkflowExecutionFailed: (e: HistoryEvent<'ChildWorkflowExecutionFailed'>, runs: ChildLookup): ActivationJob => ({
    type: 'resolveChild', seq: runs.child(e.attributes.initiatedEventId),
    failure: childFailure(e.attributes, 'Child workflow execution failed', e.attributes.retryState, e.attributes.failure),
  }),
  ChildWorkflowExecutionCanceled: (e: HistoryEvent<'ChildWorkflowExecutionCanceled'>, runs: ChildLookup): ActivationJob => ({
    type: 'resolveChild', seq: runs.child(e.attributes.initiatedEventId),
    failure: childFailure(e.attributes, 'Child workflow execution cancelled', 'CancelRequested', {
      kind: 'Canceled', message: 'Child workflow cancelled', ...(e.attributes.details !== undefined ? { details: [e.attributes.details] } : {}),
    }),
  }),
  ChildWorkflowExecutionTimedOut: (e: HistoryEvent<'ChildWorkflowExecutionTimedOut'>, runs: ChildLookup): ActivationJob => ({
    type: 'resolveChild', seq: runs.child(e.attributes.initiatedEventId),
    failure: childFailure(e.attributes, 'Child workflow execution timed out', e.attributes.retryState, {
      kind: 'Timeout', message: 'Child workflow timed out', timeoutType: 'StartToClose',
    }),
  }),
  ChildWorkflowExecutionTerminated: (e: HistoryEvent<'ChildWorkflowExecutionTerminated'>, runs: ChildLookup): ActivationJob => ({
    type: 'resolveChild', seq: runs.child(e.attributes.initiatedEventId),
    failure: childFailure(e.attributes, 'Child workflow execution terminated', 'NonRetryableFailure', {
      kind: 'Terminated', message: e.attributes.reason ?? 'Child workflow terminated',
    }),
  }),
  ExternalWorkflowExecutionCancelRequested: (e: HistoryEvent<'ExternalWorkflowExecutionCancelRequested'>, runs: ChildLookup) =>
    cancelExternalJob(runs, e.attributes.initiatedEventId),
  RequestCancelExternalWorkflowExecutionFailed: (e: HistoryEvent<'RequestCancelExternalWorkflowExecutionFailed'>, runs: ChildLookup) =>
    cancelExternalJob(runs, e.attributes.initiatedEventId, {
      kind: 'Application', type: e.attributes.cause, nonRetryable: true,
      message: `cannot cancel workflow ${e.attributes.workflowId}${e.attributes.runId ? ` (run ${e.attributes.runId})` : ''}: no open run found`,
    }),
};
