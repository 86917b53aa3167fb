import { encodePayload } from '../../common/payload.ts';
import { requestCancelExternalCommand } from '../child-commands.ts';
import { CANCEL_DELIVERIES } from '../child-timers.ts';
import { canceledRunFailure, continueCron } from '../cron-jobs.ts';
import type { Feature } from './feature.ts';

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
      if (continueCron(b, { status: 'Canceled', failure: canceledRunFailure(a.details) }, completedEventId)) return;
      b.close('Canceled', 'WorkflowExecutionCanceled', {
        workflowTaskCompletedEventId: completedEventId, ...(a.details !== undefined ? { details: a.details } : {}),
      });
    },

    RequestCancelExternalWorkflowExecution: requestCancelExternalCommand,
  },
  timers: {},
  deliveries: CANCEL_DELIVERIES,
} satisfies Feature;
