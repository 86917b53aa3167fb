import type { PendingActivityInfo, WorkflowExecutionDescription } from '../protocol/index.ts';
import { formatDuration, formatTime, json } from './format.ts';

/** The current workflow task, shown when its attempts keep failing. */
export function PendingTask({ task, zone }: { task: WorkflowExecutionDescription['pendingWorkflowTask']; zone: 'utc' | 'local' }) {
  if (!task?.lastFailure) return null;
  const f = task.lastFailure;
  return (
    <div class="panel error" data-testid="task-failure">
      <h3>Workflow task failing: attempt {task.attempt}</h3>
      <p>{f.cause}{f.type ? ` (${f.type})` : ''}: {f.message}</p>
      <p class="note">attempt {f.attempt} failed at {formatTime(f.failedTime, zone)} on {f.identity}</p>
      {f.stack && <pre class="json">{f.stack}</pre>}
    </div>
  );
}

function Activity({ a, zone, now }: { a: PendingActivityInfo; zone: 'utc' | 'local'; now: number }) {
  const next = a.nextAttemptScheduleTime ? Date.parse(a.nextAttemptScheduleTime) : undefined;
  return (
    <div class="panel" data-testid="pending-activity" data-activity-id={a.activityId}>
      <h4>{a.activityType} <span class="sub">id {a.activityId} · {a.state}</span></h4>
      <dl class="facts">
        <dt>Attempt</dt><dd data-testid="attempt">{a.attempt}{a.maximumAttempts > 0 ? ` of ${a.maximumAttempts}` : ' (unlimited)'}</dd>
        <dt>Backoff</dt><dd>{a.backoff.summary}</dd>
        {next !== undefined && <><dt>Next attempt</dt><dd data-testid="countdown">in {formatDuration(next - now)} ({formatTime(a.nextAttemptScheduleTime, zone)})</dd></>}
        {a.lastStartedTime && <><dt>Last started</dt><dd class="mono">{formatTime(a.lastStartedTime, zone)}</dd></>}
        {a.lastHeartbeatTime && <><dt>Last heartbeat</dt><dd class="mono">{formatTime(a.lastHeartbeatTime, zone)}</dd></>}
        {a.lastWorkerIdentity && <><dt>Worker</dt><dd>{a.lastWorkerIdentity}</dd></>}
      </dl>
      {a.heartbeatDetails !== undefined && <><b>Heartbeat details</b><pre class="json">{json(a.heartbeatDetails)}</pre></>}
      {a.lastFailure && <><b>Last failure</b><pre class="json error" data-testid="last-failure">{json(a.lastFailure)}</pre></>}
    </div>
  );
}

/** The run's pending activities: attempt, countdown to the next retry, last failure, heartbeat. */
export function PendingActivities({ activities, zone, now }: { activities: PendingActivityInfo[]; zone: 'utc' | 'local'; now: number }) {
  if (activities.length === 0) return null;
  return <><h3>Pending activities</h3>{activities.map((a) => <Activity key={a.activityId} a={a} zone={zone} now={now} />)}</>;
}
