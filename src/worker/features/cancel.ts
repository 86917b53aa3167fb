import type { FailureInfo } from '../../common/failure.ts';
import type { ActivationJob } from '../../workflow/activation.ts';
import { defineFeature, records, wakes } from './feature.ts';
import type { ReplayIds } from './replay-ids.ts';

function cancelExternalJob(ids: ReplayIds, initiatedEventId: number, failure?: FailureInfo): ActivationJob | undefined {
  const seq = ids.cancelRequest(initiatedEventId);
  return seq === undefined ? undefined : { type: 'resolveRequestCancelExternal', seq, ...(failure ? { failure } : {}) };
}

/**
 * Cancellation: a cancel request to this run wakes its root scope, and the run's answer
 * (CancelWorkflowExecution) closes it. A request to cancel another workflow (a child, or an
 * external handle's cancel()) matches by workflow id; its outcome settles the external
 * handle's promise and wakes nothing for a child (the child's close event does).
 */
export const cancelFeature = defineFeature({
  name: 'cancel',
  commands: {
    CancelWorkflowExecution: { events: ['WorkflowExecutionCanceled'], keys: [] },
    RequestCancelExternalWorkflowExecution: { events: ['RequestCancelExternalWorkflowExecutionInitiated'], keys: ['workflowId'] },
  },
  events: {
    WorkflowExecutionCancelRequested: wakes<'WorkflowExecutionCancelRequested'>((e) => ({
      type: 'cancelWorkflow', ...(e.attributes.reason ? { reason: e.attributes.reason } : {}),
    })),
    WorkflowExecutionCanceled: records(),
    RequestCancelExternalWorkflowExecutionInitiated: records<'RequestCancelExternalWorkflowExecutionInitiated'>((e, ids) => {
      if (e.attributes.control !== undefined) ids.addCancelRequest(e.eventId, e.attributes.control);
    }),
    ExternalWorkflowExecutionCancelRequested: wakes<'ExternalWorkflowExecutionCancelRequested'>((e, ids) => cancelExternalJob(ids, e.attributes.initiatedEventId)),
    RequestCancelExternalWorkflowExecutionFailed: wakes<'RequestCancelExternalWorkflowExecutionFailed'>((e, ids) =>
      cancelExternalJob(ids, e.attributes.initiatedEventId, {
        kind: 'Application', type: e.attributes.cause, nonRetryable: true,
        message: `cannot cancel workflow ${e.attributes.workflowId}${e.attributes.runId ? ` (run ${e.attributes.runId})` : ''}: no open run found`,
      })),
  },
});
