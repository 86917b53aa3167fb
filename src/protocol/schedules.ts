import type { UserMetadata } from '../history/user-metadata.ts';
import type { FailureInfo } from '../common/failure.ts';
import type { CanonicalScheduleSpec } from '../schedule/schedule-spec.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import type { ScheduleIncidentKind, ScheduleOverlapPolicy } from './enums.ts';
import type { SearchAttributeWireValue } from './visibility.ts';

/* The schedule calls' requests and answers. Times are ms since the epoch on the way in and ISO
 * strings on the way out; durations are ms. */

/** A spec in canonical form, as describe answers it: steadfast/schedule's CanonicalScheduleSpec. */
export type CanonicalSpecData = CanonicalScheduleSpec;

/** The workflow a schedule starts; each start's id is `workflowId` + `-` + the action's nominal time (RFC 3339). */
export interface ScheduleActionData {
  /** The workflow function's name. */
  workflowType: string;
  /** The task queue its workers poll. */
  taskQueue: string;
  /** The prefix of each start's workflow id. */
  workflowId: string;
  /** @default [] */
  args?: unknown[] | undefined;
  /** Each run's memo. */
  memo?: Record<string, unknown> | undefined;
  /** Custom search attributes of every started workflow, checked against the namespace's registered ones. */
  searchAttributes?: Record<string, SearchAttributeWireValue> | undefined;
  /** Each run's retry policy (workflows do not retry unless given one). */
  retryPolicy?: RetryPolicyData | undefined;
  /** See StartWorkflowExecutionRequest. */
  workflowExecutionTimeoutMs?: number | undefined;
  /** See StartWorkflowExecutionRequest. */
  workflowRunTimeoutMs?: number | undefined;
  /** See StartWorkflowExecutionRequest. */
  workflowTaskTimeoutMs?: number | undefined;
  /** Each run's static summary and details (see StartWorkflowExecutionRequest). */
  userMetadata?: UserMetadata | undefined;
}

/** Policies of a schedule. */
export interface SchedulePoliciesData {
  /** @default "Skip" */
  overlap?: ScheduleOverlapPolicy | undefined;
  /** How late a due action may still be taken, ms. @default 60 000 (the seed's one minute) */
  catchupWindowMs?: number | undefined;
  /** Pause when a started workflow ends Failed or TimedOut. @default false */
  pauseOnFailure?: boolean | undefined;
}

/** The operator-set state of a schedule. */
export interface ScheduleStateData {
  /** @default false */
  paused?: boolean | undefined;
  /** Why it is paused, or any note. @default "" */
  note?: string | undefined;
  /** Scheduled actions left (manual triggers and backfills do not count); absent = unlimited. */
  remainingActions?: number | undefined;
}

/** Creates a schedule. */
export interface CreateScheduleRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** Unique in the namespace; the timers' and the started workflows' ids derive from it. */
  scheduleId: string;
  /** A ScheduleSpec (steadfast/schedule) as JSON. */
  spec: unknown;
  /** The workflow each action starts. */
  action: ScheduleActionData;
  /** @default overlap Skip, a one-minute catchup window, no pause on failure */
  policies?: SchedulePoliciesData | undefined;
  /** @default running, no note, unlimited actions */
  state?: ScheduleStateData | undefined;
}

/** Names a schedule. */
export interface ScheduleRef {
  /** @default "default" */
  namespace?: string | undefined;
  /** The schedule's id. */
  scheduleId: string;
}

/** Replaces a schedule's spec, action and policies; its state and history stay. */
export interface UpdateScheduleRequest extends ScheduleRef {
  /** A ScheduleSpec (steadfast/schedule) as JSON. */
  spec: unknown;
  /** The workflow each action starts. */
  action: ScheduleActionData;
  /** @default overlap Skip, a one-minute catchup window, no pause on failure */
  policies?: SchedulePoliciesData | undefined;
  /** `conflictToken` of the describe the update was made from: refused if the schedule changed since. */
  conflictToken?: number | undefined;
}

/** One backfill: every nominal time of the spec in [startTime, endTime], ms. */
export interface ScheduleBackfillData {
  /** First nominal time, ms since the epoch. */
  startTime: number;
  /** Last nominal time, ms since the epoch; not before startTime. */
  endTime: number;
  /** @default the schedule's overlap policy */
  overlap?: ScheduleOverlapPolicy | undefined;
}

/** Pause, unpause, trigger and backfill (Temporal's PatchSchedule); each part optional. */
export interface PatchScheduleRequest extends ScheduleRef {
  /** Pause with this note. */
  pause?: string | undefined;
  /** Unpause with this note. */
  unpause?: string | undefined;
  /** Take one action now (also while paused). */
  trigger?: { overlap?: ScheduleOverlapPolicy | undefined } | undefined;
  /** Take the actions of past ranges. */
  backfill?: ScheduleBackfillData[] | undefined;
}

/** An action the schedule took. */
export interface ScheduleActionResult {
  scheduledAt: string;
  takenAt: string;
  workflowId: string;
  runId: string;
  /** The workflow's status as last known: Running until the schedule hears of its close. */
  status: string;
}

/** An action not taken as planned: skipped, dropped from a full buffer, missed beyond the catchup window, or a failed workflow. */
export interface ScheduleIncident {
  kind: ScheduleIncidentKind;
  scheduledAt: string;
  at: string;
  detail: string;
}

/** Counts of everything a schedule did since it was created. */
export interface ScheduleCounters {
  actions: number;
  skipped: number;
  bufferOverruns: number;
  missedCatchup: number;
  failed: number;
}

/** The answer to describeSchedule. */
export interface ScheduleDescription {
  scheduleId: string;
  spec: CanonicalSpecData;
  /** The cron strings the spec was given, as written (the canonical spec holds them as calendars). */
  cronExpressions?: string[] | undefined;
  action: ScheduleActionData;
  policies: { overlap: ScheduleOverlapPolicy; catchupWindowMs: number; pauseOnFailure: boolean };
  state: { paused: boolean; note: string; remainingActions?: number | undefined };
  info: {
    createTime: string;
    updateTime: string;
    /** The next 10 action times (actual, with jitter). */
    nextActionTimes: string[];
    /** The 10 most recent actions, oldest first. */
    recentActions: ScheduleActionResult[];
    runningWorkflows: { workflowId: string; runId: string }[];
    bufferedActions: number;
    /** Nominal times left in pending backfills' ranges still to process (0 when none). */
    backfillsPending: number;
    counters: ScheduleCounters;
    /** The 100 most recent incidents, oldest first. */
    incidents: ScheduleIncident[];
    /** False when the next fire is overdue by more than the catchup window. */
    healthy: boolean;
    unhealthyReason?: string | undefined;
    lastFailure?: FailureInfo | undefined;
  };
  /** Pass to update to make it conditional on nothing having changed since. */
  conflictToken: number;
}

/** Lists a namespace's schedules by id. */
export interface ListSchedulesRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** @default 100 */
  pageSize?: number | undefined;
  /** From the previous page's answer. */
  nextPageToken?: string | undefined;
}

/** One schedule as list shows it. */
export interface ScheduleListEntry {
  scheduleId: string;
  workflowType: string;
  paused: boolean;
  note: string;
  nextActionTime?: string | undefined;
  recentActions: ScheduleActionResult[];
  healthy: boolean;
  counters: ScheduleCounters;
}

/** One page of schedules. */
export interface ListSchedulesResponse {
  /** By schedule id. */
  schedules: ScheduleListEntry[];
  /** Present when more schedules follow. */
  nextPageToken?: string | undefined;
}
