import type { ParentClosePolicy } from '../../history/child-types.ts';
import type { ParentExecutionRef } from '../../history/events.ts';
import type { PendingChildInfo } from '../../protocol/index.ts';
import type { WorkflowIdReusePolicy } from '../../history/id-reuse-policy.ts';
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

/** The slice of the run state about its parent, children and external cancel requests. */
export interface ChildRunState {
  /** The parent of a child workflow's run, carried along the child's chain. */
  parent?: ParentExecutionRef;
  /** By initiated event id. */
  children: Record<string, ChildInfo>;
  /** By initiated event id. */
  cancelRequests: Record<string, CancelRequestInfo>;
}

/** describe's pending children. */
export function pendingChildren(state: RunState): PendingChildInfo[] {
  return Object.values(state.children).sort((a, b) => a.initiatedEventId - b.initiatedEventId).map((c) => ({
    workflowId: c.workflowId, workflowType: c.workflowType, initiatedEventId: c.initiatedEventId,
    parentClosePolicy: c.parentClosePolicy, ...(c.runId !== undefined ? { runId: c.runId } : {}),
  }));
}
