import type { TimerRowKind } from '../../history/timer-kinds.ts';
import type { TimerRecord } from '../../store/types.ts';
import type { ChildClosedData, ParentCloseData, StartChildData } from '../child/child-close.ts';
import type { RunClosedNotice } from '../schedules/scheduled-by.ts';

/**
 * What each kind of timers-table row carries, true timers and deliveries alike. The registries
 * that fire them are mapped types over the kinds (timer-dispatch.ts), so a kind without its
 * data here or without its handler there fails to compile.
 */
export interface TimerRowData {
  /** A workflow's timer (StartTimer). */
  UserTimer: { timerId: string };
  /** The next timeout of an activity attempt (schedule-to-start, start-to-close, heartbeat, schedule-to-close, or the end of its backoff). */
  ActivityTimeout: { scheduledEventId: number };
  /** The start-to-close (or schedule-to-start on a sticky queue) timeout of one workflow task attempt. */
  WorkflowTaskTimeout: { seq: number; attempt: number };
  /** The run or execution timeout: whichever deadline comes first. */
  RunTimeout: Record<string, never>;
  /** End of the first workflow task backoff of a retried, continued or cron run. */
  WorkflowBackoff: Record<string, never>;
  /** A schedule's next action time (or more work due at once). */
  ScheduleFire: Record<string, never>;
  /** A SignalExternalWorkflowExecution to deliver, by its Initiated event. */
  SignalExternal: { initiatedEventId: number };
  /** A RequestCancelExternalWorkflowExecution to deliver, by its Initiated event. */
  CancelExternal: { initiatedEventId: number };
  /** A child to start. */
  StartChild: StartChildData;
  /** A child chain's close, to report to its parent. */
  ChildClosed: ChildClosedData;
  /** A closed parent's policy to apply to a child. */
  ParentClosePolicy: ParentCloseData;
  /** A run a schedule started closed. */
  ScheduleRunClosed: RunClosedNotice;
}

/** A timers-table row of kind `K` with its data typed. */
export type Timer<K extends TimerRowKind = TimerRowKind> = TimerRecord<K> & { data: TimerRowData[K] };
