import type { HistoryEvent } from '../history/events.ts';
import type { FailureInfo } from '../common/failure.ts';
import type { UserMetadata } from '../history/user-metadata.ts';

/** One line of the compact history: an activity, timer, child workflow or update, from its first event to its last. */
export interface CompactRow {
  kind: 'Activity' | 'Timer' | 'Child' | 'Update';
  /** The activity type, timer id, child workflow type or update name. */
  name: string;
  /** The activity id, timer duration, child workflow id or update id. */
  detail: string;
  firstEventId: number;
  startTime: string;
  endTime?: string;
  /** Attempts an activity took (the last started attempt). */
  attempts?: number;
  /** Running until a closing event arrives; then how it ended. */
  outcome: 'Running' | 'Completed' | 'Failed' | 'TimedOut' | 'Canceled' | 'Fired' | 'Terminated';
  failure?: FailureInfo;
  /** The summary the workflow gave the activity, timer or child (its user metadata). */
  summary?: string;
}

type Attrs = Record<string, unknown>;
const attrs = (e: HistoryEvent) => e.attributes as Attrs;

/** `row` with the event's summary (its user metadata), when it has one. */
function withSummary(row: CompactRow, a: Attrs): CompactRow {
  const summary = (a.userMetadata as UserMetadata | undefined)?.summary;
  return summary === undefined ? row : { ...row, summary };
}

const ACTIVITY_ENDS: Record<string, CompactRow['outcome']> = {
  ActivityTaskCompleted: 'Completed', ActivityTaskFailed: 'Failed', ActivityTaskTimedOut: 'TimedOut', ActivityTaskCanceled: 'Canceled',
};
const CHILD_ENDS: Record<string, CompactRow['outcome']> = {
  ChildWorkflowExecutionCompleted: 'Completed', ChildWorkflowExecutionFailed: 'Failed', ChildWorkflowExecutionTimedOut: 'TimedOut',
  ChildWorkflowExecutionCanceled: 'Canceled', ChildWorkflowExecutionTerminated: 'Terminated', StartChildWorkflowExecutionFailed: 'Failed',
};

/**
 * Folds a history into one row per activity, timer, child workflow and update, in the order
 * each began, with its attempts, start and end times and outcome (a failure when it failed).
 */
export function compactHistory(events: readonly HistoryEvent[]): CompactRow[] {
  const rows: CompactRow[] = [];
  const byScheduled = new Map<number, CompactRow>();
  const timers = new Map<string, CompactRow>();
  const updates = new Map<string, CompactRow>();
  const end = (row: CompactRow | undefined, e: HistoryEvent, outcome: CompactRow['outcome']) => {
    if (!row) return;
    row.outcome = outcome;
    row.endTime = e.eventTime;
    const f = attrs(e).failure as FailureInfo | undefined;
    if (f) row.failure = f;
  };
  for (const e of events) {
    const a = attrs(e);
    const base = { firstEventId: e.eventId, startTime: e.eventTime, outcome: 'Running' as const };
    switch (e.eventType) {
      case 'ActivityTaskScheduled': {
        const row = withSummary({ ...base, kind: 'Activity', name: String(a.activityType), detail: String(a.activityId) }, a);
        rows.push(row);
        byScheduled.set(e.eventId, row);
        break;
      }
      case 'ActivityTaskStarted': {
        const row = byScheduled.get(a.scheduledEventId as number);
        if (row) row.attempts = a.attempt as number;
        break;
      }
      case 'TimerStarted': {
        const row = withSummary({ ...base, kind: 'Timer', name: String(a.timerId), detail: `${Number(a.startToFireTimeoutMs) / 1000}s` }, a);
        rows.push(row);
        timers.set(String(a.timerId), row);
        break;
      }
      case 'TimerFired': end(timers.get(String(a.timerId)), e, 'Fired'); break;
      case 'TimerCanceled': end(timers.get(String(a.timerId)), e, 'Canceled'); break;
      case 'StartChildWorkflowExecutionInitiated': {
        const row = withSummary({ ...base, kind: 'Child', name: String(a.workflowType), detail: String(a.workflowId) }, a);
        rows.push(row);
        byScheduled.set(e.eventId, row);
        break;
      }
      case 'WorkflowExecutionUpdateAdmitted':
      case 'WorkflowExecutionUpdateAccepted': {
        const row: CompactRow = { ...base, kind: 'Update', name: String(a.updateName), detail: String(a.updateId) };
        rows.push(row);
        updates.set(String(a.updateId), row);
        break;
      }
      case 'WorkflowExecutionUpdateCompleted': {
        const outcome = a.outcome as { failure?: FailureInfo } | undefined;
        const row = updates.get(String(a.updateId));
        end(row, e, outcome?.failure ? 'Failed' : 'Completed');
        if (row && outcome?.failure) row.failure = outcome.failure;
        break;
      }
      default: {
        const activityEnd = ACTIVITY_ENDS[e.eventType];
        if (activityEnd) end(byScheduled.get(a.scheduledEventId as number), e, activityEnd);
        const childEnd = CHILD_ENDS[e.eventType];
        if (childEnd) end(byScheduled.get(a.initiatedEventId as number), e, childEnd);
      }
    }
  }
  return rows;
}
