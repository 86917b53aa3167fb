import type { HistoryEvent } from '../history/events.ts';
import type { WorkflowExecutionDescription } from '../protocol/index.ts';
import { policyDelay } from '../retry/policy-model.ts';
import type { PolicyData } from '../retry/policy-data.ts';
import type { UserMetadata } from '../history/user-metadata.ts';

/** One drawn span of a timeline row, times in ms since the epoch. */
export interface Span {
  kind: 'run' | 'attempt' | 'backoff' | 'timer' | 'child' | 'waiting';
  from: number;
  to: number;
  label: string;
  /** Ended in a failure (drawn red). */
  failed?: boolean;
  /** Placed by the retry policy rather than seen in history (its earlier attempts). */
  derived?: boolean;
}

/** One row: a workflow, an activity, a timer or a child. */
export interface TimelineRow {
  key: string;
  label: string;
  /** The summary the workflow gave the activity, timer or child: shown in place of the label, which becomes its tooltip. */
  summary?: string;
  spans: Span[];
}

/** The summary of an event's user metadata as a row field, or nothing. */
const summaryOf = (e: { attributes: { userMetadata?: UserMetadata } }): { summary?: string } =>
  e.attributes.userMetadata?.summary !== undefined ? { summary: e.attributes.userMetadata.summary } : {};

const t = (iso: string | undefined) => (iso ? Date.parse(iso) : NaN);

/**
 * Places attempts 1..`last - 1` and their backoff gaps before the start of attempt `last`, with
 * the engine's own delays (the policy, seeded by run id + activity id), each earlier attempt
 * assumed to fail at once; history keeps only the last attempt's start.
 */
function earlierAttempts(policy: PolicyData | undefined, seedKey: string, last: number, lastStart: number, floor: number): Span[] {
  const spans: Span[] = [];
  let at = lastStart;
  for (let a = last - 1; a >= 1; a--) {
    const delay = policy ? policyDelay(policy, a, seedKey) : 0;
    const from = Math.max(floor, at - delay);
    spans.unshift({ kind: 'backoff', from, to: at, label: `backoff ${Math.round(at - from)}ms before attempt ${a + 1}`, derived: true });
    // The first attempt is dispatched when the activity is scheduled (a worker waiting).
    const start = a === 1 ? floor : from;
    spans.unshift({ kind: 'attempt', from: start, to: start, label: `attempt ${a} failed`, failed: true, derived: true });
    at = from;
  }
  return spans;
}

/** Builds the timeline rows of a run from its history and its description at `now`. */
export function timelineRows(events: readonly HistoryEvent[], d: WorkflowExecutionDescription | undefined, now: number): TimelineRow[] {
  const first = events[0];
  if (!first) return [];
  const runId = d?.execution.runId ?? '';
  const closed = d?.execution.closeTime ? t(d.execution.closeTime) : undefined;
  const end = closed ?? now;
  const rows: TimelineRow[] = [{
    key: 'run', label: d?.execution.workflowType ?? 'workflow',
    spans: [{ kind: 'run', from: t(first.eventTime), to: end, label: d?.execution.status ?? '', failed: d ? !['Running', 'Completed', 'ContinuedAsNew'].includes(d.execution.status) : false }],
  }];
  const activities = new Map<number, { row: TimelineRow; scheduled: number; policy: PolicyData; activityId: string }>();
  const started = new Map<number, { at: number; attempt: number }>();
  const timers = new Map<string, TimelineRow>();
  for (const e of events) {
    const at = t(e.eventTime);
    switch (e.eventType) {
      case 'ActivityTaskScheduled': {
        const row: TimelineRow = { key: `a${e.eventId}`, label: `${e.attributes.activityType} (${e.attributes.activityId})`, ...summaryOf(e), spans: [] };
        activities.set(e.eventId, { row, scheduled: at, policy: e.attributes.retryPolicy, activityId: e.attributes.activityId });
        rows.push(row);
        break;
      }
      case 'ActivityTaskStarted':
        started.set(e.attributes.scheduledEventId, { at, attempt: e.attributes.attempt });
        break;
      case 'ActivityTaskCompleted':
      case 'ActivityTaskFailed':
      case 'ActivityTaskTimedOut':
      case 'ActivityTaskCanceled': {
        const a = activities.get(e.attributes.scheduledEventId);
        const s = started.get(e.attributes.scheduledEventId);
        if (!a) break;
        const lastStart = s?.at ?? at;
        const attempt = s?.attempt ?? 1;
        a.row.spans.push(...earlierAttempts(a.policy, runId + a.activityId, attempt, lastStart, a.scheduled));
        const failed = e.eventType !== 'ActivityTaskCompleted';
        a.row.spans.push({ kind: 'attempt', from: lastStart, to: at, label: `attempt ${attempt} ${failed ? e.eventType.slice(12).toLowerCase() : 'completed'}`, failed });
        activities.delete(e.attributes.scheduledEventId);
        break;
      }
      case 'TimerStarted': {
        const row: TimelineRow = {
          key: `t${e.eventId}`, label: `timer ${e.attributes.timerId}`, ...summaryOf(e),
          spans: [{ kind: 'timer', from: at, to: end, label: `${e.attributes.startToFireTimeoutMs}ms` }],
        };
        timers.set(e.attributes.timerId, row);
        rows.push(row);
        break;
      }
      case 'TimerFired':
      case 'TimerCanceled': {
        const row = timers.get(e.attributes.timerId);
        if (row) row.spans[0]!.to = at;
        timers.delete(e.attributes.timerId);
        break;
      }
      case 'StartChildWorkflowExecutionInitiated':
        rows.push({
          key: `c${e.eventId}`, label: `child ${e.attributes.workflowId}`, ...summaryOf(e),
          spans: [{ kind: 'child', from: at, to: end, label: e.attributes.workflowType }],
        });
        break;
      default:
        break;
    }
  }
  for (const [scheduledEventId, a] of activities) {
    const p = d?.pendingActivities.find((x) => x.scheduledEventId === scheduledEventId);
    if (!p) continue;
    const lastStart = t(p.lastStartedTime);
    const next = t(p.nextAttemptScheduleTime);
    if (Number.isNaN(lastStart)) {
      a.row.spans.push({ kind: 'waiting', from: a.scheduled, to: end, label: `attempt ${p.attempt} waiting for a worker` });
      continue;
    }
    // During a backoff `attempt` is the next one and lastStartedTime the start of the one that failed.
    const current = Number.isNaN(next) ? p.attempt : p.attempt - 1;
    a.row.spans.push(...earlierAttempts(a.policy, runId + a.activityId, current, lastStart, a.scheduled));
    if (Number.isNaN(next)) {
      a.row.spans.push({ kind: 'attempt', from: lastStart, to: end, label: `attempt ${current} running` });
    } else {
      a.row.spans.push({ kind: 'attempt', from: lastStart, to: lastStart, label: `attempt ${current} failed`, failed: true });
      a.row.spans.push({ kind: 'backoff', from: lastStart, to: next, label: `backoff ${Math.round(next - lastStart)}ms before attempt ${p.attempt}` });
    }
  }
  const reset = resetOf(events);
  return reset ? fromResetOn(rows, t(reset.eventTime)) : rows;
}

/** The WorkflowTaskFailed a reset recorded in the run it made: the run's own start, and the run it came from. */
export function resetOf(events: readonly HistoryEvent[]): HistoryEvent<'WorkflowTaskFailed'> | undefined {
  return events.find((e): e is HistoryEvent<'WorkflowTaskFailed'> => e.eventType === 'WorkflowTaskFailed' && e.attributes.cause === 'ResetWorkflow');
}

/**
 * A reset run's history begins with the events copied from the run it came from, at their
 * times; its timeline starts at the reset: earlier spans are clipped, rows left empty dropped.
 */
function fromResetOn(rows: TimelineRow[], start: number): TimelineRow[] {
  return rows.map((r) => ({
    ...r,
    spans: r.spans.filter((sp) => sp.to >= start).map((sp) => (sp.from < start ? { ...sp, from: start } : sp)),
  })).filter((r) => r.spans.length > 0);
}
