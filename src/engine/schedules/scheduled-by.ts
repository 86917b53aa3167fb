import type { FailureInfo } from '../../common/failure.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import { scheduleRunId } from './schedule-state.ts';

declare module '../core/timer-data.ts' {
  interface TimerRowData {
    /** A schedule's next action time (or more work due at once). */
    ScheduleFire: Record<string, never>;
    /** A run a schedule started closed. */
    ScheduleRunClosed: RunClosedNotice;
  }
}

/**
 * The schedule that started a run, kept in the run's state along its chain (retries,
 * continue-as-new). `scheduleId` and `scheduledStartTime` are the values of the
 * TemporalScheduledById and TemporalScheduledStartTime search attributes.
 */
export interface ScheduledBy {
  namespace: string;
  scheduleId: string;
  /** The action's nominal time, ms since the epoch. */
  scheduledStartTime: number;
}

/** What a ScheduleRunClosed timer tells the schedule: a chain it started ended. */
export interface RunClosedNotice {
  workflowId: string;
  runId: string;
  status: string;
  result?: unknown;
  failure?: FailureInfo;
}

declare module '../core/state.ts' {
  interface RunSlices {
    /** The schedule that started the run's chain, if one did. */
    scheduledBy?: ScheduledBy;
  }
}

/** Carries the schedule link to the next run of a chain. */
export function carryScheduledBy(from: TransitionBuilder, to: TransitionBuilder): void {
  const by = from.state.scheduledBy;
  if (by) to.state.scheduledBy = by;
}

/**
 * Called when a run closes (in the closing transaction): a chain started by a schedule that ends
 * here tells the schedule through a timer due now (its own transaction on the schedule), so the
 * close and the notice commit together.
 */
export function scheduledRunClosed(b: TransitionBuilder): void {
  const by = b.state.scheduledBy;
  const close = b.events[b.events.length - 1];
  if (!by || b.record.status === 'ContinuedAsNew' || !close) return;
  const attrs = close.attributes as { result?: unknown; failure?: FailureInfo };
  const notice: RunClosedNotice = { workflowId: b.record.workflowId, runId: b.record.runId, status: b.record.status };
  if (b.record.status === 'Completed' && attrs.result !== undefined) notice.result = attrs.result;
  if (b.record.status === 'Failed' && attrs.failure) notice.failure = attrs.failure;
  if (b.record.status === 'TimedOut') notice.failure = { kind: 'Timeout', message: 'workflow timed out', timeoutType: 'StartToClose' } as FailureInfo;
  b.addDelivery('ScheduleRunClosed', notice, { namespace: by.namespace, runId: scheduleRunId(by.namespace, by.scheduleId) });
}
