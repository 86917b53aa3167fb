import type { WireHeaders } from '../../common/headers.ts';
import type { FailureInfo } from '../../common/failure.ts';
import type { ActivityTimeouts } from '../../history/events.ts';
import type { PolicyData } from '../../retry/policy-data.ts';
import type { StateSlice } from '../core/feature.ts';

declare module '../core/timer-data.ts' {
  interface TimerRowData {
    /** The next timeout of an activity attempt (schedule-to-start, start-to-close, heartbeat, schedule-to-close, or the end of its backoff). */
    ActivityTimeout: { scheduledEventId: number };
  }
}

declare module '../core/state.ts' {
  interface RunSlices {
    /** Pending activities by scheduled event id. */
    activities: Record<string, ActivityInfo>;
  }
}

/** The activity feature's slice of the run state; a closing run drops its pending activities. */
export const activitySlice: StateSlice = { initial: () => ({ activities: {} }) };

/** A pending activity: scheduled, backing off before a retry, or started. */
export interface ActivityInfo {
  scheduledEventId: number;
  activityId: string;
  activityType: string;
  taskQueue: string;
  args: unknown[];
  retryPolicy: PolicyData;
  timeouts: ActivityTimeouts;
  attempt: number;
  state: 'Scheduled' | 'Started';
  /** First scheduling time; schedule-to-close counts from here. */
  scheduledTime: number;
  /** When the current attempt becomes (or became) dispatchable; later than now during a backoff. */
  attemptScheduledTime: number;
  startedTime?: number;
  lastStartedTime?: number;
  lastFailure?: FailureInfo;
  lastHeartbeatTime?: number;
  /** Last heartbeat of the current attempt (heartbeat timeout counts from it). */
  attemptHeartbeatTime?: number;
  heartbeatDetails?: unknown;
  cancelRequested: boolean;
  cancelRequestedEventId?: number;
  taskId?: string;
  timer?: { id: string; dueAt: number };
  identity?: string;
  requestId?: string;
  /** Headers the workflow gave the activity (ActivityTaskScheduled), handed to each attempt's task. */
  header?: WireHeaders;
  /** The summary the workflow gave it (`summary` in its options), for describe. */
  summary?: string;
}

/** A pending user timer. */
export interface UserTimerInfo {
  startedEventId: number;
  timerRowId: string;
  dueAt: number;
}

