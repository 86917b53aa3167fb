import { encodePayload } from '../../common/payload.ts';
import { requestCancelExternalCommand } from '../child/child-commands.ts';
import { CANCEL_DELIVERIES } from '../child/child-deliveries.ts';
import { endedByFeature } from '../core/runs.ts';
import type { FailureInfo } from '../../common/failure.ts';
import type { HistoryEvent } from '../../history/events.ts';
import type { CancelRequestInfo } from '../child/child-state.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import type { Feature } from '../core/feature.ts';

// Needs child/: a cancel request to another workflow is kept and delivered as the child feature keeps
// and delivers those to its children (child-commands.ts, child-deliveries.ts, `cancelRequests`).

/**
 * Cancellation: the workflow's own CancelWorkflowExecution, its cancel requests to other
 * workflows (RequestCancelExternalWorkflowExecution and the CancelExternal delivery). Its state
 * slice is `cancelRequested` and `cancelRequests`; requestCancelWorkflowExecution is in engine.ts.
 */
export const cancelFeature = {
  commands: {
    CancelWorkflowExecution({ b, completedEventId, field }, a) {
      encodePayload(`${field}.details`, a.details);
      // The seed: a cancel request affects only the current run of a cron job; the chain goes on.
      if (endedByFeature(b, { status: 'Canceled', failure: canceledRunFailure(a.details) }, completedEventId)) return;
      b.close('Canceled', 'WorkflowExecutionCanceled', {
        workflowTaskCompletedEventId: completedEventId, ...(a.details !== undefined ? { details: a.details } : {}),
      });
    },

    RequestCancelExternalWorkflowExecution: requestCancelExternalCommand,
  },
  deliveries: CANCEL_DELIVERIES,
  rebuild: rebuildCancellation,
} satisfies Feature;

/**
 * A cancel request the history records stays requested; a cancel request to another workflow
 * that the history initiated and did not answer is pending again, and its CancelExternal
 * delivery is sent again from the new run.
 */
function rebuildCancellation(b: TransitionBuilder, events: readonly HistoryEvent[]): void {
  const requests = new Map<number, CancelRequestInfo>();
  for (const e of events) {
    if (e.eventType === 'WorkflowExecutionCancelRequested') b.state.cancelRequested = true;
    else if (e.eventType === 'RequestCancelExternalWorkflowExecutionInitiated') {
      const a = e.attributes;
      requests.set(e.eventId, {
        initiatedEventId: e.eventId, namespace: a.namespace, workflowId: a.workflowId, childWorkflowOnly: a.childWorkflowOnly,
        ...(a.runId !== undefined ? { runId: a.runId } : {}), ...(a.control !== undefined ? { control: a.control } : {}),
      });
    } else if (e.eventType === 'ExternalWorkflowExecutionCancelRequested' || e.eventType === 'RequestCancelExternalWorkflowExecutionFailed') {
      requests.delete(e.attributes.initiatedEventId);
    }
  }
  for (const [id, r] of requests) {
    b.state.cancelRequests[String(id)] = r;
    b.addDelivery('CancelExternal', { initiatedEventId: id });
  }
}

/** The failure a canceled run passes to its chain's next run (a cron job's) as its last failure. */
function canceledRunFailure(details: unknown): FailureInfo {
  return { kind: 'Canceled', message: 'workflow run canceled', ...(details !== undefined ? { details: [details] } : {}) };
}
