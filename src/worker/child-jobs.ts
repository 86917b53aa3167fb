import type { FailureInfo, RetryState } from '../common/failure.ts';
import type { HistoryEvent } from '../history/events.ts';
import type { ActivationJob } from '../workflow/activation.ts';

/** What a child job factory asks of the run: the child a StartChildWorkflowExecutionInitiated event started. */
export interface ChildLookup {
  /** The child's sequence number in the run (its command's `control`). */
  child(initiatedEventId: number): number;
}

type Ref = { workflowType: string; workflowId: string; runId: string; initiatedEventId: number };

function childFailure(a: Ref, message: string, retryState: RetryState, cause: FailureInfo): FailureInfo {
  return { kind: 'ChildWorkflow', message, workflowType: a.workflowType, workflowId: a.workflowId, runId: a.runId, retryState, cause };
}

/** Activation jobs of the child workflow events, one entry per event type. */
export const CHILD_EVENT_JOBS = {
  StartChildWorkflowExecutionFailed: (e: HistoryEvent<'StartChildWorkflowExecutionFailed'>, runs: ChildLookup): ActivationJob => {
    const a = e.attributes;
    return {
      type: 'resolveChildStart', seq: runs.child(a.initiatedEventId),
      failure: {
        kind: 'ChildWorkflow', message: `child workflow ${a.workflowId} could not start: a workflow with this id is running`,
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
};
