import { z } from 'zod';
import type { FailureInfo } from '../common/failure.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import { SCHEDULE_OVERLAP_POLICIES, type ScheduleIncidentKind, type ScheduleOverlapPolicy } from './enums.ts';
import { bool, int, namespace, oneOf, optional, payloadArray, payloadRecord, retryPolicy, text, timeoutMs } from './fields.ts';
import {
  DEFAULT_LIST_PAGE_SIZE, MAX_ID_LENGTH, MAX_LIST_PAGE_SIZE, MAX_REASON_LENGTH, MAX_SCHEDULE_WORKFLOW_ID_LENGTH, MIN_CATCHUP_WINDOW_MS,
} from './limits.ts';
import { schemaOf } from './parse.ts';

/* The schedule calls' requests and answers. Times are ms since the epoch on the way in and ISO
 * strings on the way out; durations are ms. */

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

/** The workflow a schedule starts; each start's id is `workflowId` + `-` + the action's nominal time (RFC 3339). */
export interface ScheduleActionData {
  /** The workflow function's name. */
  workflowType: string;
  /** The task queue its workers poll. */
  taskQueue: string;
  /** The prefix of each start's workflow id. */
  workflowId: string;
  /** @default [] */
  args?: unknown[];
  /** Each run's memo. */
  memo?: Record<string, unknown>;
  /** Each run's retry policy (workflows do not retry unless given one). */
  retryPolicy?: RetryPolicyData;
  /** See StartWorkflowExecutionRequest. */
  workflowExecutionTimeoutMs?: number;
  /** See StartWorkflowExecutionRequest. */
  workflowRunTimeoutMs?: number;
  /** See StartWorkflowExecutionRequest. */
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
  /** @default false */
  paused?: boolean;
  /** Why it is paused, or any note. @default "" */
  note?: string;
  /** Scheduled actions left (manual triggers and backfills do not count); absent = unlimited. */
  remainingActions?: number;
}

/** Creates a schedule. */
export interface CreateScheduleRequest {
  /** @default "default" */
  namespace?: string;
  /** Unique in the namespace; the timers' and the started workflows' ids derive from it. */
  scheduleId: string;
  /** A ScheduleSpec (steadfast/schedule) as JSON. */
  spec: unknown;
  /** The workflow each action starts. */
  action: ScheduleActionData;
  /** @default overlap Skip, a one-minute catchup window, no pause on failure */
  policies?: SchedulePoliciesData;
  /** @default running, no note, unlimited actions */
  state?: ScheduleStateData;
}

/** Names a schedule. */
export interface ScheduleRef {
  /** @default "default" */
  namespace?: string;
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
  policies?: SchedulePoliciesData;
  /** `conflictToken` of the describe the update was made from: refused if the schedule changed since. */
  conflictToken?: number;
}

/** One backfill: every nominal time of the spec in [startTime, endTime], ms. */
export interface ScheduleBackfillData {
  /** First nominal time, ms since the epoch. */
  startTime: number;
  /** Last nominal time, ms since the epoch; not before startTime. */
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
  /** Take the actions of past ranges. */
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

/** Lists a namespace's schedules by id. */
export interface ListSchedulesRequest {
  /** @default "default" */
  namespace?: string;
  /** @default 100 */
  pageSize?: number;
  /** From the previous page's answer. */
  nextPageToken?: string;
}

/** One schedule as list shows it. */
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

/** One page of schedules. */
export interface ListSchedulesResponse {
  /** By schedule id. */
  schedules: ScheduleListEntry[];
  /** Present when more schedules follow. */
  nextPageToken?: string;
}

const ACTION_FIELDS = ['workflowType', 'taskQueue', 'workflowId', 'args', 'memo', 'retryPolicy', 'workflowExecutionTimeoutMs', 'workflowRunTimeoutMs', 'workflowTaskTimeoutMs'];
const POLICY_FIELDS = ['overlap', 'catchupWindowMs', 'pauseOnFailure'];

/** Schema of {@link ScheduleActionData}; an unknown field is refused, as a misspelt option would be lost. */
export const scheduleActionSchema = schemaOf<ScheduleActionData>()(z.strictObject({
  workflowType: text(),
  taskQueue: text(),
  workflowId: text(MAX_SCHEDULE_WORKFLOW_ID_LENGTH),
  args: payloadArray('action.args'),
  memo: payloadRecord('action.memo'),
  retryPolicy: retryPolicy('action.retryPolicy'),
  workflowExecutionTimeoutMs: optional(timeoutMs),
  workflowRunTimeoutMs: optional(timeoutMs),
  workflowTaskTimeoutMs: optional(timeoutMs),
}, {
  error: (iss) => (iss.code === 'unrecognized_keys' ? `is not an action field (use ${ACTION_FIELDS.join(', ')})`
    : iss.input === undefined || iss.input === null ? 'is required: { workflowType, taskQueue, workflowId, ... }' : 'must be an object'),
}));

/** Schema of {@link SchedulePoliciesData}, with the defaults filled in. */
export const schedulePoliciesSchema = schemaOf<SchedulePoliciesData>()(optional(z.strictObject({
  overlap: optional(oneOf(SCHEDULE_OVERLAP_POLICIES)).default('Skip'),
  catchupWindowMs: optional(int(MIN_CATCHUP_WINDOW_MS)),
  pauseOnFailure: optional(bool).default(false),
}, {
  error: (iss) => (iss.code === 'unrecognized_keys' ? `is not a policy (use ${POLICY_FIELDS.join(', ')})` : 'must be an object'),
})).default({ overlap: 'Skip', pauseOnFailure: false }));

/** Schema of {@link ScheduleStateData}, with the defaults filled in. */
export const scheduleStateSchema = schemaOf<ScheduleStateData>()(optional(z.object({
  paused: optional(bool).default(false),
  note: optional(text(MAX_REASON_LENGTH)).default(''),
  remainingActions: optional(int(0)),
}, { error: 'must be an object' })).default({ paused: false, note: '' }));

/** Schema of {@link ScheduleRef}. */
export const scheduleRefSchema = schemaOf<ScheduleRef>()(z.object({
  namespace,
  scheduleId: text(MAX_ID_LENGTH),
}));

/** Schema of {@link CreateScheduleRequest}; the spec is compiled by the engine (steadfast/schedule, a later layer). */
export const createScheduleRequestSchema = schemaOf<CreateScheduleRequest>()(scheduleRefSchema.extend({
  spec: z.unknown(),
  action: scheduleActionSchema,
  policies: schedulePoliciesSchema,
  state: scheduleStateSchema,
}));

/** Schema of {@link UpdateScheduleRequest}. */
export const updateScheduleRequestSchema = schemaOf<UpdateScheduleRequest>()(scheduleRefSchema.extend({
  spec: z.unknown(),
  action: scheduleActionSchema,
  policies: schedulePoliciesSchema,
  conflictToken: optional(int(0)),
}));

/** Schema of {@link ScheduleBackfillData}. */
export const scheduleBackfillSchema = schemaOf<ScheduleBackfillData>()(z.object({
  startTime: int(0),
  endTime: int(0),
  overlap: oneOf(SCHEDULE_OVERLAP_POLICIES).optional(),
}, { error: 'must be an object' }).check((ctx) => {
  if (ctx.value.endTime < ctx.value.startTime) {
    ctx.issues.push({
      code: 'custom', input: ctx.value.endTime, path: ['endTime'],
      message: `must not be before startTime (${new Date(ctx.value.startTime).toISOString()})`,
    });
  }
}));

/** Schema of {@link PatchScheduleRequest}. */
export const patchScheduleRequestSchema = schemaOf<PatchScheduleRequest>()(scheduleRefSchema.extend({
  pause: optional(text(MAX_REASON_LENGTH)),
  unpause: optional(text(MAX_REASON_LENGTH)),
  trigger: z.object({ overlap: oneOf(SCHEDULE_OVERLAP_POLICIES).optional() }, { error: 'must be an object' }).optional(),
  backfill: z.array(scheduleBackfillSchema, { error: 'must be an array of { startTime, endTime, overlap }' }).optional(),
}).check((ctx) => {
  if (ctx.value.pause !== undefined && ctx.value.unpause !== undefined) {
    ctx.issues.push({ code: 'custom', input: ctx.value.unpause, path: ['unpause'], message: 'cannot be given with pause' });
  }
}));

/** Schema of {@link ListSchedulesRequest}. */
export const listSchedulesRequestSchema = schemaOf<ListSchedulesRequest>()(z.object({
  namespace,
  pageSize: optional(int(1, MAX_LIST_PAGE_SIZE)).default(DEFAULT_LIST_PAGE_SIZE),
  nextPageToken: optional(text()),
}));
