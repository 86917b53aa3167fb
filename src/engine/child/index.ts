import { startChildCommand } from './child-commands.ts';
import { childSlice, pendingChildren } from './child-state.ts';
import { runClosed } from './child-close.ts';
import { CHILD_DELIVERIES } from './child-deliveries.ts';
import type { HistoryEvent } from '../../history/events.ts';
import type { ChildInfo } from './child-state.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import type { Feature } from '../core/feature.ts';

// Needs visibility/: a child's search attributes are checked against its namespace's definitions.

/**
 * Child workflows: StartChildWorkflowExecution; the StartChild, ChildClosed and ParentClosePolicy
 * deliveries between parent and child; describe's pending children. Its state slice is
 * ChildRunState (`parent`, `children`); child-close.ts adds the deliveries of a closing run.
 */
export const childFeature = {
  commands: { StartChildWorkflowExecution: startChildCommand },
  deliveries: CHILD_DELIVERIES,
  describe(s, d) {
    d.pendingChildren = pendingChildren(s);
  },
  rebuild: rebuildChildren,
  state: childSlice,
  onClose: runClosed,
} satisfies Feature;

/**
 * Children initiated and not closed in the history are the run's children again (with their run
 * id once started). What becomes of each is decided against the store by reset-children.ts.
 */
function rebuildChildren(b: TransitionBuilder, events: readonly HistoryEvent[]): void {
  const children = new Map<number, ChildInfo>();
  for (const e of events) {
    if (e.eventType === 'StartChildWorkflowExecutionInitiated') {
      children.set(e.eventId, { initiatedEventId: e.eventId, namespace: e.attributes.namespace, workflowId: e.attributes.workflowId,
        workflowType: e.attributes.workflowType, parentClosePolicy: e.attributes.parentClosePolicy });
    } else if (e.eventType === 'ChildWorkflowExecutionStarted') {
      const c = children.get(e.attributes.initiatedEventId);
      if (c) c.runId = e.attributes.runId;
    } else if (e.eventType.startsWith('ChildWorkflowExecution') || e.eventType === 'StartChildWorkflowExecutionFailed') {
      children.delete((e.attributes as { initiatedEventId: number }).initiatedEventId);
    }
  }
  b.state.children = Object.fromEntries([...children].map(([id, c]) => [String(id), c]));
}
