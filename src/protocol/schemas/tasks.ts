import { z } from 'zod';
import type { Command } from '../../history/commands.ts';
import { WORKFLOW_TASK_FAILED_CAUSES } from '../../history/events.ts';
import { checkedLater, failure, id, identity, int, namespace, oneOf, optional, payload, runId, text } from '../fields.ts';
import { DEFAULT_LONG_POLL_MS, MAX_LONG_POLL_MS, MAX_RUNNING_LOCAL_ACTIVITIES, MAX_TASKS_PER_POLL_REQUEST } from '../limits.ts';
import { schemaOf } from '../parse.ts';
import type { SdkMetadata } from '../../common/sdk-metadata.ts';
import type {
  ContinuedWorkflowTask, PollRequest, RecordHeartbeatByIdRequest, RecordHeartbeatRequest, RespondActivityTaskCanceledByIdRequest,
  RespondActivityTaskCanceledRequest, RespondActivityTaskCompletedByIdRequest, RespondActivityTaskCompletedRequest,
  RespondActivityTaskFailedByIdRequest, RespondActivityTaskFailedRequest, RespondWorkflowTaskCompletedRequest, RespondWorkflowTaskFailedRequest,
  ShutdownWorkerRequest,
} from '../tasks.ts';

/* The schemas of the task calls' requests (tasks.ts). Polls and completions are validated for every
 * workflow and activity task, so these stay flat (bench/: a poll's parse costs about a microsecond). */

/** A task token as requests carry it; its content is checked when it is decoded. */
const taskToken = checkedLater<string>();

/** Schema of {@link PollRequest}. Validated for every poll, so kept to flat checks (see bench/ for the cost). */
export const pollRequestSchema = schemaOf<PollRequest>()(z.object({
  workerInstanceId: optional(id),
  namespace,
  taskQueue: text(),
  identity,
  pollTimeoutMs: optional(int(0, MAX_LONG_POLL_MS)).default(DEFAULT_LONG_POLL_MS),
  maxTasks: optional(int(1, MAX_TASKS_PER_POLL_REQUEST)).default(1),
  maxTasksPerSecond: optional(z.number({ error: 'must be a number' }).finite('must be finite').positive('must be greater than 0')),
}));

/** Schema of {@link ShutdownWorkerRequest}. */
export const shutdownWorkerRequestSchema = schemaOf<ShutdownWorkerRequest>()(z.object({
  namespace,
  taskQueue: text(),
  identity,
  workerInstanceId: optional(id),
}));

/**
 * Schema of {@link RespondWorkflowTaskCompletedRequest}. The commands are checked one by one by
 * the engine's command handlers, so that a bad one fails the workflow task (BadCommand)
 * instead of the call.
 */
export const respondWorkflowTaskCompletedRequestSchema = schemaOf<RespondWorkflowTaskCompletedRequest>()(z.object({
  taskToken,
  identity,
  commands: checkedLater<Command[]>(),
  /** Checked by optionalSdkMetadata, whose messages name the flag. */
  sdkMetadata: checkedLater<SdkMetadata>(),
  eagerActivities: optional(int(0, MAX_TASKS_PER_POLL_REQUEST)),
  forceCreateNewWorkflowTask: optional(z.boolean()),
  returnNewWorkflowTask: optional(z.boolean()),
  runningLocalActivities: optional(z.array(z.object({
    activityId: text(), activityType: text(), attempt: int(1, Number.MAX_SAFE_INTEGER), originalScheduleTime: int(0, Number.MAX_SAFE_INTEGER),
    attemptStartedTime: optional(int(0, Number.MAX_SAFE_INTEGER)), lastFailure: optional(failure('lastFailure')),
  })).max(MAX_RUNNING_LOCAL_ACTIVITIES)),
}));

/** Schema of {@link RespondWorkflowTaskFailedRequest}. */
export const respondWorkflowTaskFailedRequestSchema = schemaOf<RespondWorkflowTaskFailedRequest>()(z.object({
  taskToken,
  cause: oneOf(WORKFLOW_TASK_FAILED_CAUSES),
  failure: failure('failure'),
  identity,
}));

/** Schema of {@link RecordHeartbeatRequest}. */
export const recordHeartbeatRequestSchema = schemaOf<RecordHeartbeatRequest>()(z.object({
  taskToken,
  identity: optional(identity),
  details: payload('details'),
}));

/** Schema of {@link ContinuedWorkflowTask}; its commands are checked as a completion's are. */
const continuedWorkflowTaskSchema = schemaOf<ContinuedWorkflowTask>()(z.object({
  afterEventId: int(1),
  startedEventId: int(1),
  startedTimeMs: int(0),
  taskQueue: text(),
  commands: checkedLater<Command[]>(),
  sdkMetadata: checkedLater<SdkMetadata>(),
  eagerActivities: optional(int(0, MAX_TASKS_PER_POLL_REQUEST)),
}));

/** Schema of {@link RespondActivityTaskCompletedRequest}. */
export const respondActivityTaskCompletedRequestSchema = schemaOf<RespondActivityTaskCompletedRequest>()(z.object({
  taskToken,
  identity,
  result: payload('result'),
  workflowTask: optional(continuedWorkflowTaskSchema),
}));

/** Schema of {@link RespondActivityTaskFailedRequest}. */
export const respondActivityTaskFailedRequestSchema = schemaOf<RespondActivityTaskFailedRequest>()(z.object({
  taskToken,
  failure: failure('failure'),
  identity,
  lastHeartbeatDetails: payload('lastHeartbeatDetails'),
}));

/** Schema of {@link RespondActivityTaskCanceledRequest}. */
export const respondActivityTaskCanceledRequestSchema = schemaOf<RespondActivityTaskCanceledRequest>()(z.object({
  taskToken,
  identity,
  details: payload('details'),
}));

/** The fields that name an activity by id (ActivityByIdRequest). */
const activityById = { namespace, workflowId: text(), runId: optional(runId), activityId: text() };

/** Schema of {@link RecordHeartbeatByIdRequest}. */
export const recordHeartbeatByIdRequestSchema = schemaOf<RecordHeartbeatByIdRequest>()(z.object({
  ...activityById,
  identity: optional(identity),
  details: payload('details'),
}));

/** Schema of {@link RespondActivityTaskCompletedByIdRequest}. */
export const respondActivityTaskCompletedByIdRequestSchema = schemaOf<RespondActivityTaskCompletedByIdRequest>()(z.object({
  ...activityById,
  identity,
  result: payload('result'),
}));

/** Schema of {@link RespondActivityTaskFailedByIdRequest}. */
export const respondActivityTaskFailedByIdRequestSchema = schemaOf<RespondActivityTaskFailedByIdRequest>()(z.object({
  ...activityById,
  failure: failure('failure'),
  identity,
  lastHeartbeatDetails: payload('lastHeartbeatDetails'),
}));

/** Schema of {@link RespondActivityTaskCanceledByIdRequest}. */
export const respondActivityTaskCanceledByIdRequestSchema = schemaOf<RespondActivityTaskCanceledByIdRequest>()(z.object({
  ...activityById,
  identity,
  details: payload('details'),
}));
