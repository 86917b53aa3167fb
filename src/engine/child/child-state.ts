import type { ParentClosePolicy } from '../../history/child-types.ts';
import type { PendingChildInfo } from '../../protocol/index.ts';
import type { WorkflowIdReusePolicy } from '../../history/id-reuse-policy.ts';
import type { WorkflowIdConflictPolicy } from '../../history/id-conflict-policy.ts';
import type { StateSlice } from '../core/feature.ts';
import type { RunState } from '../core/state.ts';

/** A child workflow of the run, from its Initiated event until its close event reaches the run. */
export interface ChildInfo {
  initiatedEventId: number;
  namespace: string;
  workflowId: string;
  workflowType: string;
  parentClosePolicy: ParentClosePolicy;
  /** @default "AllowDuplicate" */
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
  /** @default refused while a run of the id is running, as Fail */
  workflowIdConflictPolicy?: WorkflowIdConflictPolicy;
  /** Run id of the child's first run, once started. */
  runId?: string;
}

/** A cancel request to another workflow, from its Initiated event until it was delivered (or failed). */
export interface CancelRequestInfo {
  initiatedEventId: number;
  namespace: string;
  workflowId: string;
  runId?: string;
  childWorkflowOnly: boolean;
  control?: string;
}

declare module '../core/state.ts' {
  interface RunSlices {
    /** Children by initiated event id. */
    children: Record<string, ChildInfo>;
    /** Cancel requests to other workflows by initiated event id. */
    cancelRequests: Record<string, CancelRequestInfo>;
  }
}

/** The child feature's slice of the run state (the parent link is the core's: it rides the chain). */
export const childSlice: StateSlice = { initial: () => ({ children: {}, cancelRequests: {} }) };

/** describe's pending children. */
export function pendingChildren(state: RunState): PendingChildInfo[] {
  return Object.values(state.children).sort((a, b) => a.initiatedEventId - b.initiatedEventId).map((c) => ({
    workflowId: c.workflowId, workflowType: c.workflowType, initiatedEventId: c.initiatedEventId,
    parentClosePolicy: c.parentClosePolicy, ...(c.runId !== undefined ? { runId: c.runId } : {}),
  }));
}
