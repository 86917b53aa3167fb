import type { FailureInfo, RetryState } from '../../common/failure.ts';
import { defineFeature, records, wakes } from './feature.ts';

type Ref = { workflowType: string; workflowId: string; runId: string };

function childFailure(a: Ref, message: string, retryState: RetryState, cause: FailureInfo): FailureInfo {
  return { kind: 'ChildWorkflow', message, workflowType: a.workflowType, workflowId: a.workflowId, runId: a.runId, retryState, cause };
}

/**
 * Child workflows: a start matches by workflow type and id, and its Initiated event keeps the
 * child's sequence number (the command's `control`) for the events that follow: the start's
 * outcome and the child's close each settle a promise. The cancellation of a child is the
 * cancel feature's (cancel.ts).
 */
export const childFeature = defineFeature({
  name: 'child',
  commands: {
    StartChildWorkflowExecution: { events: ['StartChildWorkflowExecutionInitiated'], keys: ['workflowType', 'workflowId'] },
  },
  events: {
    StartChildWorkflowExecutionInitiated: records<'StartChildWorkflowExecutionInitiated'>((e, ids) => ids.addChild(e.eventId, Number(e.attributes.control))),
    StartChildWorkflowExecutionFailed: wakes<'StartChildWorkflowExecutionFailed'>((e, ids) => {
      const a = e.attributes;
      return {
        type: 'resolveChildStart', seq: ids.child(a.initiatedEventId),
        failure: {
          kind: 'ChildWorkflow', message: `child workflow ${a.workflowId} could not start: a workflow with this id is running, or ran and its workflowIdReusePolicy refuses the id`,
          workflowType: a.workflowType, workflowId: a.workflowId, retryState: 'NonRetryableFailure',
          cause: { kind: 'Application', type: 'WorkflowExecutionAlreadyStarted', nonRetryable: true, message: `workflow ${a.workflowId} is already running` },
        },
      };
    }),
    ChildWorkflowExecutionStarted: wakes<'ChildWorkflowExecutionStarted'>((e, ids) => ({
      type: 'resolveChildStart', seq: ids.child(e.attributes.initiatedEventId), runId: e.attributes.runId,
    })),
    ChildWorkflowExecutionCompleted: wakes<'ChildWorkflowExecutionCompleted'>((e, ids) => ({
      type: 'resolveChild', seq: ids.child(e.attributes.initiatedEventId), result: e.attributes.result,
    })),
    ChildWorkflowExecutionFailed: wakes<'ChildWorkflowExecutionFailed'>((e, ids) => ({
      type: 'resolveChild', seq: ids.child(e.attributes.initiatedEventId),
      failure: childFailure(e.attributes, 'Child workflow execution failed', e.attributes.retryState, e.attributes.failure),
    })),
    ChildWorkflowExecutionCanceled: wakes<'ChildWorkflowExecutionCanceled'>((e, ids) => ({
      type: 'resolveChild', seq: ids.child(e.attributes.initiatedEventId),
      failure: childFailure(e.attributes, 'Child workflow execution cancelled', 'CancelRequested', {
        kind: 'Canceled', message: 'Child workflow cancelled', ...(e.attributes.details !== undefined ? { details: [e.attributes.details] } : {}),
      }),
    })),
    ChildWorkflowExecutionTimedOut: wakes<'ChildWorkflowExecutionTimedOut'>((e, ids) => ({
      type: 'resolveChild', seq: ids.child(e.attributes.initiatedEventId),
      failure: childFailure(e.attributes, 'Child workflow execution timed out', e.attributes.retryState, {
        kind: 'Timeout', message: 'Child workflow timed out', timeoutType: 'StartToClose',
      }),
    })),
    ChildWorkflowExecutionTerminated: wakes<'ChildWorkflowExecutionTerminated'>((e, ids) => ({
      type: 'resolveChild', seq: ids.child(e.attributes.initiatedEventId),
      failure: childFailure(e.attributes, 'Child workflow execution terminated', 'NonRetryableFailure', {
        kind: 'Terminated', message: e.attributes.reason ?? 'Child workflow terminated',
      }),
    })),
  },
});
