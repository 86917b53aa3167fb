/* The service contract of schedules: requests and answers of the schedule calls. Times are ms
 * since the epoch on the way in and ISO strings on the way out; durations are ms. */
import type { FailureInfo } from '../common/failure.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';

/** A spec in canonical form (steadfast/schedule's CanonicalScheduleSpec; the schedule layer comes after this one). */
export interface CanonicalSpecData {
  calendars: Record<string, string>[];
  intervals: { every: string; offset: string }[];
  skip: Record<string, string>[];
  startAt?: string;
  endAt?: string;
  jitter: string;
  timezone: string;
}

/** What a schedule does when an action is due while a workflow it started still runs (the seed's six policies). */
export const SCHEDULE_OVERLAP_POLICIES = ['Skip', 'BufferOne', 'BufferAll', 'CancelOther', 'TerminateOther', 'AllowAll'] as const;
/** One of {@link SCHEDULE_OVERLAP_POLICIES}. @default "Skip" */
export type ScheduleOverlapPolicy = (typeof SCHEDULE_OVERLAP_POLICIES)[number];

/** The workflow a schedule starts; each start's id is `workflowId` + `-` + the action's nominal time (RFC 3339). */
export interface ScheduleActionData {
  workflowType: string;
  taskQueue: string;
  workflowId: string;
  args?: unknown[];
  memo?: Record<string, unknown>;
  /** Custom search attributes of every started workflow, checked against the namespace's registered ones. */
  searchAttributes?: Record<string, string | number | boolean | readonly string[]>;
  retryPolicy?: RetryPolicyData;
  workflowExecutionTimeoutMs?: number;
  workflowRunTimeoutMs?: number;
  workflowTaskTimeoutMs?: number;
}

/** Policies of a schedule. */
export interface SchedulePoliciesData {
  /** @default "Skip" */
  overlap?: ScheduleOverlapPolicy;
  /** How late a due action may still be taken, ms. @default 60 000 (the seed's one minute) */
  catchupWindowMs?: number;
  /** Pause when a started workflow ends Failed or TimedOut. @default false */
  pauseOnFailure?: boolean;
}

/** The operator-set state of a schedule. */
export interface ScheduleStateData {
  paused?: boolean;
  note?: string;
  /** Scheduled actions left (manual triggers and backfills do not count); absent = unlimited. */
  remainingActions?: number;
}

export interface CreateScheduleRequest {
  namespace?: string;
  scheduleId: string;
  /** A ScheduleSpec (steadfast/schedule) as JSON. */
  spec: unknown;
  action: ScheduleActionData;
  policies?: SchedulePoliciesData;
  state?: ScheduleStateData;
}

export interface ScheduleRef {
  namespace?: string;
  scheduleId: string;
}

export interface UpdateScheduleRequest extends ScheduleRef {
  spec: unknown;
  action: ScheduleActionData;
  policies?: SchedulePoliciesData;
  /** `conflictToken` of the describe the update was made from: refused if the schedule changed since. */
  conflictToken?: number;
}

/** One backfill: every nominal time of the spec in [startTime, endTime], ms. */
export interface ScheduleBackfillData {
  startTime: number;
  endTime: number;
  /** @default the schedule's overlap policy */
  overlap?: ScheduleOverlapPolicy;
}

/** Pause, unpause, trigger and backfill (Temporal's PatchSchedule); each part optional. */
export interface PatchScheduleRequest extends ScheduleRef {
  /** Pause with this note. */
  pause?: string;
  /** Unpause with this note. */
  unpause?: string;
  /** Take one action now (also while paused). */
  trigger?: { overlap?: ScheduleOverlapPolicy };
  backfill?: ScheduleBackfillData[];
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
  kind: 'Skipped' | 'BufferOverrun' | 'MissedCatchup' | 'Failed';
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

export interface ScheduleDescription {
  scheduleId: string;
  spec: CanonicalSpecData;
  action: ScheduleActionData;
  policies: Required<SchedulePoliciesData>;
  state: { paused: boolean; note: string; remainingActions?: number };
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
    unhealthyReason?: string;
    lastFailure?: FailureInfo;
  };
  /** Pass to update to make it conditional on nothing having changed since. */
  conflictToken: number;
}

export interface ListSchedulesRequest {
  namespace?: string;
  /** @default 100 */
  pageSize?: number;
  nextPageToken?: string;
}

export interface ScheduleListEntry {
  scheduleId: string;
  workflowType: string;
  paused: boolean;
  note: string;
  nextActionTime?: string;
  recentActions: ScheduleActionResult[];
  healthy: boolean;
  counters: ScheduleCounters;
}

export interface ListSchedulesResponse {
  schedules: ScheduleListEntry[];
  nextPageToken?: string;
}

/** The schedule calls of the service. */
export interface ScheduleService {
  createSchedule(req: CreateScheduleRequest): Promise<{ conflictToken: number }>;
  describeSchedule(req: ScheduleRef): Promise<ScheduleDescription>;
  updateSchedule(req: UpdateScheduleRequest): Promise<void>;
  patchSchedule(req: PatchScheduleRequest): Promise<void>;
  deleteSchedule(req: ScheduleRef): Promise<void>;
  listSchedules(req: ListSchedulesRequest): Promise<ListSchedulesResponse>;
}

/** Calls of {@link ScheduleService}, listed in WORKFLOW_SERVICE_METHODS. */
export const SCHEDULE_SERVICE_METHODS = [
  'createSchedule', 'describeSchedule', 'updateSchedule', 'patchSchedule', 'deleteSchedule', 'listSchedules',
] as const;
