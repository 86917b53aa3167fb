import type { ParentClosePolicy } from '../history/child-types.ts';
import type { ParentExecutionRef } from '../history/events.ts';
import type { PendingChildInfo } from '../protocol/index.ts';
import type { WorkflowIdReusePolicy } from '../history/id-reuse-policy.ts';
import type { TimerRecord } from '../store/types.ts';
import { newUuid } from '../common/ids.ts';
import type { RunState } from './state.ts';
import type { TransitionBuilder } from './transition.ts';

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

/** The part of a run's state about its parent, children and external cancel requests (all optional, so older rows read as empty). */
export interface ChildRunState {
  parent?: ParentExecutionRef;
  children?: Record<string, ChildInfo>;
  cancelRequests?: Record<string, CancelRequestInfo>;
}

/** The run state with its child part. */
export function childState(b: TransitionBuilder | { state: unknown }): RunState & ChildRunState {
  return b.state as RunState & ChildRunState;
}

/** Timer kinds that carry messages between runs; fired by {@link fireChildTimer} in child-timers.ts. */
export const CHILD_TIMER_KINDS = ['StartChild', 'ChildClosed', 'ParentClosePolicy', 'CancelExternal'] as const;
export type ChildTimerKind = (typeof CHILD_TIMER_KINDS)[number];

/** True for the timer kinds child-timers.ts fires. */
export function isChildTimer(kind: string): kind is ChildTimerKind {
  return (CHILD_TIMER_KINDS as readonly string[]).includes(kind);
}

/**
 * Adds a timer due now that the timer loop fires as a message to another run (or to this one,
 * outside the current transaction). `runId` is the run it belongs to; when that run closes, the
 * store purges it with the run's other timers.
 */
export function addMessageTimer(b: TransitionBuilder, runId: string, kind: ChildTimerKind, data: unknown): void {
  const t: TimerRecord = { id: newUuid(), namespace: b.record.namespace, runId, kind, dueAt: b.now, data };
  b.createTimers.push(t);
  b.touch();
}

/** describe's pending children. */
export function pendingChildren(state: unknown): PendingChildInfo[] {
  const children = (state as ChildRunState).children ?? {};
  return Object.values(children).sort((a, b) => a.initiatedEventId - b.initiatedEventId).map((c) => ({
    workflowId: c.workflowId, workflowType: c.workflowType, initiatedEventId: c.initiatedEventId,
    parentClosePolicy: c.parentClosePolicy, ...(c.runId !== undefined ? { runId: c.runId } : {}),
  }));
}
