import { startChildCommand } from '../child-commands.ts';
import { pendingChildren } from '../child-state.ts';
import { CHILD_DELIVERIES } from '../child-timers.ts';
import type { Feature } from './feature.ts';

/**
 * Child workflows: StartChildWorkflowExecution; the StartChild, ChildClosed and ParentClosePolicy
 * deliveries between parent and child; describe's pending children. Its state slice is
 * ChildRunState (`parent`, `children`); child-close.ts adds the deliveries of a closing run.
 */
export const childFeature = {
  commands: { StartChildWorkflowExecution: startChildCommand },
  timers: {},
  deliveries: CHILD_DELIVERIES,
  describe(s, d) {
    d.pendingChildren = pendingChildren(s);
  },
} satisfies Feature;
