import type { Feature, StateSlice } from '../core/feature.ts';
import type { RunningLocalActivity } from '../../protocol/tasks.ts';
import type { PendingLocalActivityInfo } from '../../protocol/describe.ts';

declare module '../core/state.ts' {
  interface RunSlices {
    /**
     * The local activities running in the worker that runs the run's workflow task, as its last
     * heartbeating completion reported them; absent when none are (the common case: no field).
     */
    localActivities?: RunningLocalActivities;
  }
}

/** A heartbeating completion's report of its worker's running local activities. */
export interface RunningLocalActivities {
  identity: string;
  /** When the completion reported them, ms since the epoch. */
  reportedAt: number;
  running: RunningLocalActivity[];
}

/** No field in a new run: a run with no long local activities carries nothing. */
const localActivitySlice: StateSlice = { initial: () => ({}) };

/**
 * Local activities run in the worker, inside workflow tasks, and are recorded as markers (the
 * worker's and the workflow's side, src/worker/local-activity-runner.ts); the engine keeps only
 * what describe shows of the ones still running: a task whose local activities outlast most of
 * its timeout completes with forceCreateNewWorkflowTask and reports them, and the next completion
 * replaces or clears the report.
 */
export const localActivityFeature = {
  onWorkflowTaskCompleted(b, { identity, runningLocalActivities }) {
    if (runningLocalActivities && runningLocalActivities.length > 0) {
      b.state.localActivities = { identity, reportedAt: b.now, running: [...runningLocalActivities] };
    } else {
      delete b.state.localActivities;
    }
  },
  describe(s, d) {
    const report = s.localActivities;
    // Shown while the reporting worker still has the run: its next task is scheduled, or started
    // by it, and no attempt failed or timed out since (then the worker's state is unknown).
    const wt = s.wt;
    if (!report || !wt || wt.attempt !== 1 || (wt.startedTime !== undefined && wt.identity !== report.identity)) return;
    d.pendingLocalActivities = report.running.map((r) => pendingLocalActivityInfo(r, report));
  },
  state: localActivitySlice,
  onClose: (b) => {
    delete b.state.localActivities;
  },
} satisfies Feature;

function pendingLocalActivityInfo(r: RunningLocalActivity, report: RunningLocalActivities): PendingLocalActivityInfo {
  const info: PendingLocalActivityInfo = {
    activityId: r.activityId, activityType: r.activityType, attempt: r.attempt, scheduledTime: new Date(r.originalScheduleTime).toISOString(),
    reportedTime: new Date(report.reportedAt).toISOString(), lastWorkerIdentity: report.identity,
  };
  if (r.attemptStartedTime !== undefined) info.lastStartedTime = new Date(r.attemptStartedTime).toISOString();
  if (r.lastFailure !== undefined) info.lastFailure = r.lastFailure;
  return info;
}
