import type { FailureInfo } from '../common/failure.ts';
import type { PolicyData } from '../retry/policy-data.ts';
import type { WireHeaders } from '../common/headers.ts';
import type { ActivityCancellationType } from './activity-cancellation.ts';

/** Marker name of a local activity's recorded outcome (Temporal's name). */
export const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

/** A local activity the workflow code asked for and the worker runs (ActivationResult.localActivities). */
export interface LocalActivityRequest {
  /** The call's sequence number in the run (a retry after a timer is a new call, with a new number). */
  seq: number;
  activityId: string;
  activityType: string;
  args: unknown[];
  /** The attempt this request starts with: 1, or the next after a retry through a timer. */
  attempt: number;
  /** When the first attempt was scheduled, ms since the epoch (workflow time). */
  originalScheduleTime: number;
  startToCloseTimeoutMs?: number;
  scheduleToCloseTimeoutMs?: number;
  /** Limit on the wait for a free execution slot in the worker, ms; the call then fails with a ScheduleToStart timeout, not retried. */
  scheduleToStartTimeoutMs?: number;
  /** What cancelling the call's scope does. @default "TRY_CANCEL" */
  cancellationType?: ActivityCancellationType;
  retryPolicy: PolicyData;
  /** Headers the run's outbound interceptors set (scheduleLocalActivity), for the activity's inbound interceptors. */
  header?: WireHeaders;
  /** Retries waiting at least this long go through a durable timer, ms. */
  localRetryThresholdMs: number;
}

/** What a local activity call came to, as the worker reports it and its marker records it. */
export interface LocalActivityOutcome {
  seq: number;
  /** The last attempt run. */
  attempt: number;
  result?: unknown;
  /** The final failure (an ActivityFailure's info), or the last attempt's failure when `backoffMs` is set. */
  failure?: FailureInfo;
  /** Set when the next attempt waits this long, through a durable timer, then runs as a new call. */
  backoffMs?: number;
}

/** The details of a local activity marker (RecordMarker / MarkerRecorded `details`). */
export interface LocalActivityMarkerDetails {
  seq: number;
  activityId: string;
  activityType: string;
  attempt: number;
  originalScheduleTime: number;
  result?: unknown;
  backoffMs?: number;
}
