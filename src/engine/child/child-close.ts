import type { TransitionBuilder } from '../core/transition.ts';

declare module '../core/timer-data.ts' {
  interface TimerRowData {
    /** A RequestCancelExternalWorkflowExecution to deliver, by its Initiated event. */
    CancelExternal: { initiatedEventId: number };
    /** A child to start. */
    StartChild: StartChildData;
    /** A child chain's close, to report to its parent. */
    ChildClosed: ChildClosedData;
    /** A closed parent's policy to apply to a child. */
    ParentClosePolicy: ParentCloseData;
  }
}

/** What ParentClosePolicy deliveries carry. */
export interface ParentCloseData {
  policy: 'Terminate' | 'RequestCancel';
  namespace: string;
  childWorkflowId: string;
  parentWorkflowId: string;
  parentRunId: string;
}

/**
 * What StartChild deliveries carry. `parentRunId` is set only on the start of an Abandon child whose
 * parent closed before the child started: the delivery then belongs to no run (the parent's own
 * timers were purged with it) and the child starts with nothing to report back to.
 */
export interface StartChildData {
  initiatedEventId: number;
  parentRunId?: string;
}

/** What ChildClosed deliveries carry: the child chain's final close event. */
export interface ChildClosedData {
  initiatedEventId: number;
  childRunId: string;
  eventType: string;
  attributes: Record<string, unknown>;
}

/**
 * Called when a run closes (in the closing transition). A child whose chain ends here reports
 * its close event to the parent; a continue-as-new or retry keeps the chain, and so the parent
 * link, going. A closing parent applies each started child's parent close policy (Terminate,
 * RequestCancel; Abandon leaves it). Both travel as deliveries, so each is its own
 * transaction on the other run. Policy deliveries are keyed by the child's workflow id rather than
 * a run id: the child's run may continue as new before the delivery fires, and a closing run's
 * timers and deliveries are purged with it.
 *
 * A child initiated but not yet started (its StartChild delivery is purged with the run) follows
 * Temporal: an Abandon child is still started, by a delivery keyed like the policy deliveries, and then
 * runs on its own; a Terminate or RequestCancel child's start is dropped, since the policy would
 * end it at once — no run is created, so nothing stays pending.
 */
export function runClosed(b: TransitionBuilder): void {
  const s = b.state;
  const close = b.events[b.events.length - 1];
  if (s.parent && b.record.status !== 'ContinuedAsNew' && close) {
    const data: ChildClosedData = {
      initiatedEventId: s.parent.initiatedEventId, childRunId: b.record.runId, eventType: close.eventType,
      attributes: close.attributes as unknown as Record<string, unknown>,
    };
    b.addDelivery('ChildClosed', data, { runId: s.parent.runId });
  }
  for (const c of Object.values(s.children)) {
    if (c.runId === undefined && c.parentClosePolicy === 'Abandon') {
      const data: StartChildData = { initiatedEventId: c.initiatedEventId, parentRunId: b.record.runId };
      b.addDelivery('StartChild', data, { runId: `abandoned-start:${c.namespace}:${c.workflowId}:${b.record.runId}` });
    }
    if (c.runId === undefined || c.parentClosePolicy === 'Abandon') continue;
    const data: ParentCloseData = {
      policy: c.parentClosePolicy, namespace: c.namespace, childWorkflowId: c.workflowId,
      parentWorkflowId: b.record.workflowId, parentRunId: b.record.runId,
    };
    b.addDelivery('ParentClosePolicy', data, { runId: `parent-close:${c.namespace}:${c.workflowId}:${b.record.runId}` });
  }
  s.children = {};
  s.cancelRequests = {};
}
