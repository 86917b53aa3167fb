import { z } from 'zod';
import { SCHEDULE_OVERLAP_POLICIES } from '../enums.ts';
import {
  bool, checkedLater, durationMs, epochMs, int, keyPageToken, namespace, oneOf, optional, payloadArray, payloadRecord, record, retryPolicy, text,
  timeoutMs, userMetadata,
} from '../fields.ts';
import {
  DEFAULT_LIST_PAGE_SIZE, MAX_ID_LENGTH, MAX_LIST_PAGE_SIZE, MAX_REASON_LENGTH, MAX_SCHEDULE_WORKFLOW_ID_LENGTH, MIN_CATCHUP_WINDOW_MS,
} from '../limits.ts';
import { schemaOf } from '../parse.ts';
import type {
  CreateScheduleRequest, ListSchedulesRequest, PatchScheduleRequest, ScheduleActionData, ScheduleBackfillData, SchedulePoliciesData,
  ScheduleRef, ScheduleStateData, UpdateScheduleRequest,
} from '../schedules.ts';
import type { SearchAttributeWireValue } from '../visibility.ts';

/* The schemas of the schedule calls' requests (schedules.ts). */

const ACTION_FIELDS = ['workflowType', 'taskQueue', 'workflowId', 'args', 'memo', 'searchAttributes', 'retryPolicy', 'workflowExecutionTimeoutMs', 'workflowRunTimeoutMs', 'workflowTaskTimeoutMs', 'userMetadata'];
const POLICY_FIELDS = ['overlap', 'catchupWindowMs', 'pauseOnFailure'];

/** Schema of {@link ScheduleActionData}; an unknown field is refused, as a misspelt option would be lost. */
const scheduleActionSchema = schemaOf<ScheduleActionData>()(z.strictObject({
  workflowType: text(),
  taskQueue: text(),
  workflowId: text(MAX_SCHEDULE_WORKFLOW_ID_LENGTH),
  args: payloadArray('action.args'),
  memo: payloadRecord('action.memo'),
  searchAttributes: optional(record as z.ZodType<Record<string, SearchAttributeWireValue>>),
  retryPolicy: retryPolicy('action.retryPolicy'),
  workflowExecutionTimeoutMs: optional(timeoutMs),
  workflowRunTimeoutMs: optional(timeoutMs),
  workflowTaskTimeoutMs: optional(timeoutMs),
  userMetadata: userMetadata('action.userMetadata'),
}, {
  error: (iss) => (iss.code === 'unrecognized_keys' ? `is not an action field (use ${ACTION_FIELDS.join(', ')})`
    : iss.input === undefined || iss.input === null ? 'is required: { workflowType, taskQueue, workflowId, ... }' : 'must be an object'),
}));

/** Schema of {@link SchedulePoliciesData}, with the defaults filled in. */
const schedulePoliciesSchema = schemaOf<SchedulePoliciesData>()(optional(z.strictObject({
  overlap: optional(oneOf(SCHEDULE_OVERLAP_POLICIES)).default('Skip'),
  catchupWindowMs: optional(durationMs(MIN_CATCHUP_WINDOW_MS)),
  pauseOnFailure: optional(bool).default(false),
}, {
  error: (iss) => (iss.code === 'unrecognized_keys' ? `is not a policy (use ${POLICY_FIELDS.join(', ')})` : 'must be an object'),
})).default({ overlap: 'Skip', pauseOnFailure: false }));

/** Schema of {@link ScheduleStateData}, with the defaults filled in. */
const scheduleStateSchema = schemaOf<ScheduleStateData>()(optional(z.object({
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
  spec: checkedLater<unknown>(),
  action: scheduleActionSchema,
  policies: schedulePoliciesSchema,
  state: scheduleStateSchema,
}));

/** Schema of {@link UpdateScheduleRequest}. */
export const updateScheduleRequestSchema = schemaOf<UpdateScheduleRequest>()(scheduleRefSchema.extend({
  spec: checkedLater<unknown>(),
  action: scheduleActionSchema,
  policies: schedulePoliciesSchema,
  conflictToken: optional(int(0)),
}));

/** Schema of {@link ScheduleBackfillData}. */
const scheduleBackfillSchema = schemaOf<ScheduleBackfillData>()(z.object({
  startTime: epochMs,
  endTime: epochMs,
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
  nextPageToken: optional(keyPageToken(MAX_ID_LENGTH)),
}));
