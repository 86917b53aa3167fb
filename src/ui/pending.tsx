import type { PendingActivityInfo, PendingLocalActivityInfo, WorkflowExecutionDescription } from '../protocol/index.ts';
import type { ActivityTimeouts, HistoryEvent } from '../history/events.ts';
import type { FailureInfo } from '../common/failure.ts';
import { formatDuration, formatTime, json } from './format.ts';
import { FailureView } from './failure-view.tsx';

const TIMEOUT_NAMES: [keyof ActivityTimeouts, string][] = [
  ['scheduleToCloseTimeoutMs', 'schedule to close'], ['scheduleToStartTimeoutMs', 'schedule to start'],
  ['startToCloseTimeoutMs', 'start to close'], ['heartbeatTimeoutMs', 'heartbeat'],
];

/** An activity's timeouts as its ActivityTaskScheduled event resolved them: `start to close 5s, heartbeat 30s`. */
function timeoutsText(t: ActivityTimeouts | undefined): string {
  if (!t) return '';
  return TIMEOUT_NAMES.filter(([k]) => t[k] !== undefined && t[k] > 0).map(([k, name]) => `${name} ${formatDuration(t[k]!)}`).join(', ');
}

/** The current workflow task, shown when its attempts keep failing. */
export function PendingTask({ task, zone }: { task: WorkflowExecutionDescription['pendingWorkflowTask']; zone: 'utc' | 'local' }) {
  if (!task?.lastFailure) return null;
  const f = task.lastFailure;
  return (
    <div class="panel error" data-testid="task-failure">
      <h3>Workflow task failing: attempt {task.attempt}</h3>
      <p>{f.cause}{f.type ? ` (${f.type})` : ''}: {f.message}</p>
      <p class="note">attempt {f.attempt} failed at {formatTime(f.failedTime, zone)} on {f.identity}</p>
      {f.stack && <ol class="stack-lines mono" data-testid="task-failure-stack">{f.stack.split('\n').map((l, i) => <li key={i}>{l}</li>)}</ol>}
    </div>
  );
}

function Activity({ a, zone, now, timeouts }: { a: PendingActivityInfo; zone: 'utc' | 'local'; now: number; timeouts: string }) {
  const next = a.nextAttemptScheduleTime ? Date.parse(a.nextAttemptScheduleTime) : undefined;
  return (
    <div class="panel" data-testid="pending-activity" data-activity-id={a.activityId}>
      <h4>{a.activityType} <span class="sub">id {a.activityId} · {a.state}</span></h4>
      {a.summary && <p class="summary" data-testid="activity-summary">{a.summary}</p>}
      <dl class="facts">
        <dt>Attempt</dt><dd data-testid="attempt">{a.attempt}{a.maximumAttempts > 0 ? ` of ${a.maximumAttempts}` : ' (unlimited)'}</dd>
        <dt>Backoff</dt><dd>{a.backoff.summary}</dd>
        {timeouts && <><dt>Timeouts</dt><dd data-testid="timeouts">{timeouts}</dd></>}
        {next !== undefined && <><dt>Next attempt</dt><dd data-testid="countdown">in {formatDuration(next - now)} ({formatTime(a.nextAttemptScheduleTime, zone)})</dd></>}
        {a.lastStartedTime && <><dt>Last started</dt><dd class="mono">{formatTime(a.lastStartedTime, zone)}</dd></>}
        {a.lastHeartbeatTime && <><dt>Last heartbeat</dt><dd class="mono">{formatTime(a.lastHeartbeatTime, zone)}</dd></>}
        {a.lastWorkerIdentity && <><dt>Worker</dt><dd>{a.lastWorkerIdentity}</dd></>}
      </dl>
      {a.heartbeatDetails !== undefined && <><b>Heartbeat details</b><pre class="json">{json(a.heartbeatDetails)}</pre></>}
      {a.lastFailure && <><b>Last failure</b><div data-testid="last-failure"><FailureView failure={a.lastFailure as FailureInfo} /></div></>}
    </div>
  );
}

/** The run's pending activities: attempt, countdown to the next retry, last failure, heartbeat. */
export function PendingActivities({ activities, zone, now, events = [] }: {
  activities: PendingActivityInfo[]; zone: 'utc' | 'local'; now: number; events?: readonly HistoryEvent[];
}) {
  if (activities.length === 0) return null;
  const scheduled = (id: number) => events.find((e) => e.eventId === id && e.eventType === 'ActivityTaskScheduled')?.attributes as ActivityTimeouts | undefined;
  return <><h3>Pending activities</h3>{activities.map((a) =>
    <Activity key={a.activityId} a={a} zone={zone} now={now} timeouts={timeoutsText(scheduled(a.scheduledEventId))} />)}</>;
}

/**
 * The run's local activities still running in its worker, as the worker last reported them (a
 * task whose local activities outlast most of its timeout reports them as it asks for the next).
 */
export function PendingLocalActivities({ activities = [], zone }: { activities?: PendingLocalActivityInfo[] | undefined; zone: 'utc' | 'local' }) {
  if (activities.length === 0) return null;
  return <><h3>Running local activities</h3>{activities.map((a) => (
    <div class="panel" data-testid="pending-local-activity" data-activity-id={a.activityId} key={a.activityId}>
      <h4>{a.activityType} <span class="sub">id {a.activityId} · local · running</span></h4>
      <dl class="facts">
        <dt>Attempt</dt><dd data-testid="attempt">{a.attempt}</dd>
        <dt>Scheduled</dt><dd class="mono">{formatTime(a.scheduledTime, zone)}</dd>
        {a.lastStartedTime && <><dt>Attempt started</dt><dd class="mono">{formatTime(a.lastStartedTime, zone)}</dd></>}
        <dt>Reported</dt><dd class="mono">{formatTime(a.reportedTime, zone)} by {a.lastWorkerIdentity}</dd>
      </dl>
      {a.lastFailure && <><b>Last failure</b><div data-testid="last-failure"><FailureView failure={a.lastFailure} /></div></>}
    </div>
  ))}</>;
}
