import { z } from 'zod';
import type { FailureInfo } from '../../common/failure.ts';
import { PARENT_CLOSE_POLICIES } from '../../history/child-types.ts';
import { WORKFLOW_STATUSES, type HistoryEvent } from '../../history/events.ts';
import type { UpdateOutcome } from '../../history/message-types.ts';
import type { WorkflowTaskFailureInfo } from '../../history/workflow-task-failure.ts';
import type { RetryPolicyData } from '../../retry/policy-data.ts';
import type { BackoffInfo } from '../../retry/policy-model.ts';
import type {
  ListWorkflowExecutionsResponse, PendingActivityInfo, PendingLocalActivityInfo, PendingChildInfo, WorkflowExecutionDescription, WorkflowExecutionInfo,
} from '../describe.ts';
import { PENDING_ACTIVITY_STATES, PENDING_WORKFLOW_TASK_STATES, SCHEDULE_INCIDENT_KINDS, SEARCH_ATTRIBUTE_TYPES, UPDATE_STAGES } from '../enums.ts';
import type { GetHistoryResponse, ResetWorkflowResponse, StartWorkflowExecutionResponse } from '../executions.ts';
import { checkedLater } from '../fields.ts';
import type { QueryTask, QueryWorkflowResponse, UpdateWorkflowResponse } from '../messages.ts';
import { schemaOf } from '../parse.ts';
import type {
  CanonicalSpecData, ListSchedulesResponse, ScheduleActionData, ScheduleActionResult, ScheduleCounters, ScheduleDescription,
  ScheduleIncident, ScheduleListEntry,
} from '../schedules.ts';
import type { ActivityTask, RecordHeartbeatResponse, WorkflowTask } from '../tasks.ts';
import type { CountWorkflowExecutionsResponse, ListSearchAttributesResponse, SearchAttributeWireValue } from '../visibility.ts';

/*
 * The schemas of the service's answers. The engine does not parse its own answers (it builds them
 * typed); these are the contract the HTTP API documents, checked against every answer of a whole
 * run of calls by test/protocol/responses.test.ts. Strict: a field an answer carries that the
 * contract does not document fails there. Shapes that a lower layer owns (events, failures,
 * retry policies, backoff summaries) are typed by that layer and passed through.
 */

const str = z.string();
const num = z.number();
const iso = z.iso.datetime();
const events = checkedLater<HistoryEvent[]>();
const failure = checkedLater<FailureInfo>();
const attributes = z.record(z.string(), z.union([str, num, z.boolean(), z.array(str).readonly()])) as z.ZodType<Record<string, SearchAttributeWireValue>>;

/** Schema of {@link StartWorkflowExecutionResponse}. */
export const startWorkflowExecutionResponseSchema = schemaOf<StartWorkflowExecutionResponse>()(z.strictObject({
  runId: str, started: z.boolean(), get eagerWorkflowTask() { return workflowTaskSchema.optional(); },
}));

/** Schema of {@link ResetWorkflowResponse}. */
export const resetWorkflowResponseSchema = schemaOf<ResetWorkflowResponse>()(z.strictObject({ runId: str }));

/** Schema of {@link GetHistoryResponse}. */
export const getHistoryResponseSchema = schemaOf<GetHistoryResponse>()(z.strictObject({ events, nextPageToken: str.optional() }));

/** Schema of {@link WorkflowExecutionInfo}. */
const workflowExecutionInfoSchema = schemaOf<WorkflowExecutionInfo>()(z.strictObject({
  namespace: str, workflowId: str, runId: str, workflowType: str, taskQueue: str, status: z.enum(WORKFLOW_STATUSES),
  startTime: iso, executionTime: iso, closeTime: iso.optional(), historyLength: num, historySizeBytes: num.optional(),
  memo: z.record(z.string(), z.unknown()).optional(), attempt: num, firstExecutionRunId: str, originalExecutionRunId: str,
  parent: z.strictObject({ namespace: str, workflowId: str, runId: str, initiatedEventId: num }).optional(),
  searchAttributes: attributes.optional(), taskFailing: z.literal(true).optional(),
  userMetadata: z.strictObject({ summary: str.optional(), details: str.optional() }).optional(),
}));

/** Schema of {@link ListWorkflowExecutionsResponse}. */
export const listWorkflowExecutionsResponseSchema = schemaOf<ListWorkflowExecutionsResponse>()(z.strictObject({
  executions: z.array(workflowExecutionInfoSchema), nextPageToken: str.optional(),
}));

/** Schema of {@link PendingActivityInfo}. */
const pendingActivityInfoSchema = schemaOf<PendingActivityInfo>()(z.strictObject({
  activityId: str, activityType: str, scheduledEventId: num, state: z.enum(PENDING_ACTIVITY_STATES), attempt: num, maximumAttempts: num,
  backoff: checkedLater<BackoffInfo>(), scheduledTime: iso, lastStartedTime: iso.optional(), nextAttemptScheduleTime: iso.optional(),
  lastFailure: failure.optional(), lastHeartbeatTime: iso.optional(), heartbeatDetails: z.unknown().optional(),
  expirationTime: iso.optional(), lastWorkerIdentity: str.optional(), summary: str.optional(),
}));

/** Schema of {@link PendingLocalActivityInfo}. */
const pendingLocalActivityInfoSchema = schemaOf<PendingLocalActivityInfo>()(z.strictObject({
  activityId: str, activityType: str, attempt: num, scheduledTime: iso, lastStartedTime: iso.optional(), lastFailure: failure.optional(),
  reportedTime: iso, lastWorkerIdentity: str,
}));

/** Schema of {@link PendingChildInfo}. */
const pendingChildInfoSchema = schemaOf<PendingChildInfo>()(z.strictObject({
  workflowId: str, runId: str.optional(), workflowType: str, initiatedEventId: num, parentClosePolicy: z.enum(PARENT_CLOSE_POLICIES),
}));

/** Schema of {@link WorkflowExecutionDescription}. */
export const workflowExecutionDescriptionSchema = schemaOf<WorkflowExecutionDescription>()(z.strictObject({
  execution: workflowExecutionInfoSchema,
  config: z.strictObject({
    workflowExecutionTimeoutMs: num.optional(), workflowRunTimeoutMs: num.optional(), workflowTaskTimeoutMs: num,
    retryPolicy: checkedLater<RetryPolicyData>().optional(), cronSchedule: str.optional(),
  }),
  pendingActivities: z.array(pendingActivityInfoSchema),
  pendingLocalActivities: z.array(pendingLocalActivityInfoSchema).optional(),
  pendingChildren: z.array(pendingChildInfoSchema),
  pendingWorkflowTask: z.strictObject({
    state: z.enum(PENDING_WORKFLOW_TASK_STATES), attempt: num, scheduledTime: iso, startedTime: iso.optional(),
    lastFailure: checkedLater<WorkflowTaskFailureInfo>().optional(),
  }).optional(),
  continuedFromRunId: str.optional(),
  continuedAsNewToRunId: str.optional(),
  taskQueueUnpolled: z.strictObject({ taskQueue: str, lastPollTime: iso.optional(), message: str }).optional(),
}));

const taskFields = { taskToken: str, namespace: str, workflowId: str, runId: str, workflowType: str, taskQueue: str };

/** Schema of {@link WorkflowTask}. */
export const workflowTaskSchema: z.ZodType<WorkflowTask> = schemaOf<WorkflowTask>()(z.strictObject({
  ...taskFields, attempt: num, previousStartedEventId: num, startedEventId: num, history: events,
  workflowTaskTimeoutMs: num.optional(), get moreTasks() { return z.array(workflowTaskSchema).optional(); },
}));

/** Schema of {@link ActivityTask}. */
export const activityTaskSchema: z.ZodType<ActivityTask> = schemaOf<ActivityTask>()(z.strictObject({
  ...taskFields, activityId: str, activityType: str, args: z.array(z.unknown()), attempt: num, scheduledEventId: num,
  scheduledTime: iso, currentAttemptScheduledTime: iso, startedTime: iso, heartbeatDetails: z.unknown().optional(),
  heartbeatTimeoutMs: num.optional(), startToCloseTimeoutMs: num.optional(), scheduleToCloseTimeoutMs: num.optional(),
  get moreTasks() { return z.array(activityTaskSchema).optional(); }, header: z.record(z.string(), z.strictObject({ metadata: z.record(z.string(), str), data: str })).optional(),
  errorCodes: z.strictObject({ exceptionMapper: z.record(z.string(), str).optional(), defaultUnhandledErrorCode: str.optional() }).optional(),
}));

/** Schema of {@link RecordHeartbeatResponse}. */
export const recordHeartbeatResponseSchema = schemaOf<RecordHeartbeatResponse>()(z.strictObject({ cancelRequested: z.boolean() }));

/** Schema of {@link QueryWorkflowResponse}. */
export const queryWorkflowResponseSchema = schemaOf<QueryWorkflowResponse>()(z.strictObject({
  result: z.unknown().optional(), failure: failure.optional(), queryRejected: z.strictObject({ status: z.enum(WORKFLOW_STATUSES) }).optional(),
}));

/** Schema of {@link QueryTask}. */
export const queryTaskSchema = schemaOf<QueryTask>()(z.strictObject({
  ...taskFields, lastEventId: num,
  query: z.strictObject({ queryType: str, args: z.array(z.unknown()) }).optional(),
  updateValidation: z.strictObject({ updateId: str, updateName: str, args: z.array(z.unknown()) }).optional(),
}));

/** Schema of {@link UpdateWorkflowResponse}. */
export const updateWorkflowResponseSchema = schemaOf<UpdateWorkflowResponse>()(z.strictObject({
  updateId: str, runId: str, stage: z.enum(UPDATE_STAGES), outcome: checkedLater<UpdateOutcome>().optional(),
}));

const counters = schemaOf<ScheduleCounters>()(z.strictObject({ actions: num, skipped: num, bufferOverruns: num, missedCatchup: num, failed: num }));
const actionResult = schemaOf<ScheduleActionResult>()(z.strictObject({ scheduledAt: iso, takenAt: iso, workflowId: str, runId: str, status: str }));
const incident = schemaOf<ScheduleIncident>()(z.strictObject({ kind: z.enum(SCHEDULE_INCIDENT_KINDS), scheduledAt: iso, at: iso, detail: str }));

/** Schema of {@link ScheduleDescription}. */
export const scheduleDescriptionSchema = schemaOf<ScheduleDescription>()(z.strictObject({
  scheduleId: str,
  spec: checkedLater<CanonicalSpecData>(),
  cronExpressions: z.array(str).optional(),
  action: checkedLater<ScheduleActionData>(),
  policies: z.strictObject({ overlap: str, catchupWindowMs: num, pauseOnFailure: z.boolean() }) as z.ZodType<ScheduleDescription['policies']>,
  state: z.strictObject({ paused: z.boolean(), note: str, remainingActions: num.optional() }),
  info: z.strictObject({
    createTime: iso, updateTime: iso, nextActionTimes: z.array(iso), recentActions: z.array(actionResult),
    runningWorkflows: z.array(z.strictObject({ workflowId: str, runId: str })), bufferedActions: num, backfillsPending: num,
    counters, incidents: z.array(incident), healthy: z.boolean(), unhealthyReason: str.optional(), lastFailure: failure.optional(),
  }),
  conflictToken: num,
}));

/** Schema of {@link ListSchedulesResponse}. */
export const listSchedulesResponseSchema = schemaOf<ListSchedulesResponse>()(z.strictObject({
  schedules: z.array(schemaOf<ScheduleListEntry>()(z.strictObject({
    scheduleId: str, workflowType: str, paused: z.boolean(), note: str, nextActionTime: iso.optional(),
    recentActions: z.array(actionResult), healthy: z.boolean(), counters,
  }))),
  nextPageToken: str.optional(),
}));

/** Schema of {@link CountWorkflowExecutionsResponse}. */
export const countWorkflowExecutionsResponseSchema = schemaOf<CountWorkflowExecutionsResponse>()(z.strictObject({
  count: num, groups: z.array(z.strictObject({ value: z.union([str, num, z.boolean(), z.null()]), count: num })).optional(),
}));

const attributeList = z.array(z.strictObject({ name: str, type: z.enum(SEARCH_ATTRIBUTE_TYPES) }));

/** Schema of {@link ListSearchAttributesResponse}. */
export const listSearchAttributesResponseSchema = schemaOf<ListSearchAttributesResponse>()(z.strictObject({
  custom: attributeList, builtIn: attributeList,
}));
