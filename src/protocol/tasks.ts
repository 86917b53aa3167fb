import type { FailureInfo } from '../common/failure.ts';
import type { WireHeaders } from '../common/headers.ts';
import type { Command } from '../history/commands.ts';
import type { HistoryEvent, WorkflowTaskFailedCause } from '../history/events.ts';
import type { SdkMetadata } from '../common/sdk-metadata.ts';
import type { ErrorCodeData } from '../retry/error-codes.ts';

/* Workflow and activity tasks: the polls of workers and their answers. Task tokens are opaque. */

/** Long-polls a task queue for a workflow, activity or query task. */
export interface PollRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** The queue to take tasks from. */
  taskQueue: string;
  /** The worker, as history records it. */
  identity: string;
  /** How long to hold the poll open when there is no task. @default 30 000 */
  pollTimeoutMs?: number | undefined;
  /**
   * Tells apart workers that share an identity (several in one process); `shutdownWorker`
   * ends the polls of this instance only.
   */
  workerInstanceId?: string | undefined;
  /**
   * Most tasks one answer may carry: the task itself plus up to `maxTasks - 1` more in its
   * `moreTasks`, taken only when they are ready at once (a poll never waits to fill up).
   * @default 1
   */
  maxTasks?: number | undefined;
  /**
   * Activity polls: the most activity tasks per second the server hands out on this queue, across
   * all its workers (the worker option maxTaskQueueActivitiesPerSecond; the last poll's value holds).
   */
  maxTasksPerSecond?: number | undefined;
}

/** A worker is stopping: its waiting polls are answered empty now. */
export interface ShutdownWorkerRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** The queue the worker polls. */
  taskQueue: string;
  /** The worker's identity, as in its polls. */
  identity: string;
  /** Only the polls of this instance (see PollRequest.workerInstanceId). */
  workerInstanceId?: string | undefined;
}

/** New history for a worker to run workflow code on; answered with commands. */
export interface WorkflowTask {
  /** Opaque; hand it back with the response. */
  taskToken: string;
  /** The run's namespace. */
  namespace: string;
  /** The workflow id. */
  workflowId: string;
  /** The run. */
  runId: string;
  /** The workflow function to run. */
  workflowType: string;
  /** The queue the task came from. */
  taskQueue: string;
  /** Workflow task attempt: 1, then 2, 3, … after failures or timeouts. */
  attempt: number;
  /**
   * Started-event id of the last workflow task that completed; 0 for a run's first task.
   * `history` holds every event after it. A worker whose cached state of this run is not at
   * exactly this event id fetches the whole history instead.
   */
  previousStartedEventId: number;
  /** This task's WorkflowTaskStarted event id. */
  startedEventId: number;
  /** The events after previousStartedEventId, up to startedEventId. */
  history: HistoryEvent[];
  /** How long the worker has to answer before the task times out, ms (the run's workflowTaskTimeout). */
  workflowTaskTimeoutMs?: number | undefined;
  /** Further tasks started for the same poll (see PollRequest.maxTasks); each is answered on its own. */
  moreTasks?: WorkflowTask[] | undefined;
}

/** The commands a workflow task produced. */
export interface RespondWorkflowTaskCompletedRequest {
  /** The task's token. */
  taskToken: string;
  /** In the order the workflow code issued them; at most one closes the run, and it comes last. */
  commands: Command[];
  /** The worker. */
  identity: string;
  /** Recorded on the task's WorkflowTaskCompleted event: the replay flags the task used first. */
  sdkMetadata?: SdkMetadata | undefined;
  /**
   * How many of the activities these commands schedule on the run's task queue the worker will
   * run itself, now: they are started in the completion's transition and come back in its
   * answer (`activityTasks`) instead of through a poll (eager activities). @default 0
   */
  eagerActivities?: number | undefined;
  /**
   * Temporal's forceCreateNewWorkflowTask: schedule a new workflow task right after this one
   * even with nothing new in the run. A worker whose local activities outlast most of the task's
   * timeout completes the task with what it has and asks for the next one (a heartbeat). @default false
   */
  forceCreateNewWorkflowTask?: boolean | undefined;
  /**
   * The local activities still running in the worker when it completes the task with
   * forceCreateNewWorkflowTask (a heartbeat): describe shows them until a completion without them.
   */
  runningLocalActivities?: RunningLocalActivity[] | undefined;
  /**
   * Temporal's returnNewWorkflowTask: when the completion leaves the run a workflow task that can
   * run now (forceCreateNewWorkflowTask, or events that arrived while this one ran), it is started
   * for this worker in the completion's commit and comes back as `workflowTask`, instead of going
   * to whichever worker polls the queue first. A heartbeating worker asks for it: its local
   * activities are still running there, and another worker would run them again. @default false
   */
  returnNewWorkflowTask?: boolean | undefined;
}

/** A local activity running in the worker, as a heartbeating completion reports it. */
export interface RunningLocalActivity {
  activityId: string;
  activityType: string;
  /** The attempt running now (or waiting in the worker for its retry). */
  attempt: number;
  /** When the first attempt was scheduled, ms since the epoch. */
  originalScheduleTime: number;
  /** When the current attempt started, ms since the epoch; absent while it waits for a slot or a retry. */
  attemptStartedTime?: number | undefined;
  /** How the previous attempt failed. */
  lastFailure?: FailureInfo | undefined;
}

/** The answer to a workflow task's completion. */
export interface RespondWorkflowTaskCompletedResponse {
  /**
   * The events the completion appended after the task's WorkflowTaskStarted: its
   * WorkflowTaskCompleted, the events of its commands, and those that arrived while it ran. A
   * worker that keeps the run cached applies them, so that it knows the run's history up to its
   * last event (see RespondActivityTaskCompletedRequest.workflowTask). Absent from an older server.
   */
  events?: HistoryEvent[] | undefined;
  /**
   * Activities the completion started for this worker (see `eagerActivities`), each answered as a
   * polled one. A worker that never gets them (a lost answer) leaves them to their start-to-close timeout.
   */
  activityTasks?: ActivityTask[] | undefined;
  /**
   * The run's next workflow task, started for this worker (see `returnNewWorkflowTask`), answered
   * as a polled one. A worker that never gets it (a lost answer) leaves it to its timeout.
   */
  workflowTask?: WorkflowTask | undefined;
}

/** A workflow task that could not produce commands (a bug, non-determinism). */
export interface RespondWorkflowTaskFailedRequest {
  /** The task's token. */
  taskToken: string;
  /** Why it failed. */
  cause: WorkflowTaskFailedCause;
  /** The error, for describe and history. */
  failure: FailureInfo;
  /** The worker. */
  identity: string;
}

/** One attempt of an activity, for a worker to run. */
export interface ActivityTask {
  /** Opaque; hand it back with the response. */
  taskToken: string;
  /** The run's namespace. */
  namespace: string;
  /** The workflow that scheduled it. */
  workflowId: string;
  /** The run that scheduled it. */
  runId: string;
  /** That run's workflow type. */
  workflowType: string;
  /** The id the workflow gave the activity. */
  activityId: string;
  /** The activity function to run. */
  activityType: string;
  /** The queue the task came from. */
  taskQueue: string;
  /** The activity function's arguments. */
  args: unknown[];
  /** 1 for the first attempt. */
  attempt: number;
  /** The ActivityTaskScheduled event's id. */
  scheduledEventId: number;
  /** When the activity was scheduled. */
  scheduledTime: string;
  /** When this attempt was scheduled (after its backoff). */
  currentAttemptScheduledTime: string;
  /** When this attempt started. */
  startedTime: string;
  /** Details of the last heartbeat of an earlier attempt (or this one). */
  heartbeatDetails?: unknown | undefined;
  /** Heartbeat at least this often, ms. */
  heartbeatTimeoutMs?: number | undefined;
  /** This attempt's bound, ms. */
  startToCloseTimeoutMs?: number | undefined;
  /** The bound on all attempts, ms. */
  scheduleToCloseTimeoutMs?: number | undefined;
  /** Further tasks started for the same poll (see PollRequest.maxTasks); each is answered on its own. */
  moreTasks?: ActivityTask[] | undefined;
  /** Headers of the activity (its ActivityTaskScheduled event's), for the activity's inbound interceptors. */
  header?: WireHeaders | undefined;
  /**
   * The activity's own exception mapper and default error code (its retry policy's
   * `errorCodes`): the worker resolves a failure's code with them before its own.
   */
  errorCodes?: ErrorCodeData | undefined;
}

/** An activity attempt is alive, with progress to keep. */
export interface RecordHeartbeatRequest {
  /** The task's token. */
  taskToken: string;
  /** Progress the next attempt receives. */
  details?: unknown | undefined;
  /** The worker. */
  identity?: string | undefined;
}

/** The answer to a heartbeat. */
export interface RecordHeartbeatResponse {
  /** The workflow asked for this activity to be cancelled. */
  cancelRequested: boolean;
}

/** An activity attempt returned. */
export interface RespondActivityTaskCompletedRequest {
  /** The task's token. */
  taskToken: string;
  /** The activity function's result. */
  result?: unknown | undefined;
  /** The worker. */
  identity: string;
  /**
   * The workflow task this completion schedules, already run by the completing worker on its
   * cached state of the run. The service records it, started and completed with these commands,
   * in the completion's own transition when the run is as the worker saw it: no event since
   * `afterEventId`, no workflow task pending, the run on `taskQueue`, the task started at
   * `startedEventId`. Otherwise it records the activity's completion alone and the next workflow
   * task goes out as usual (the answer says which).
   */
  workflowTask?: ContinuedWorkflowTask | undefined;
}

/** A workflow task run by the worker that completes the activity which schedules it. */
export interface ContinuedWorkflowTask {
  /** The run's last event as the worker knows it: the completion's events follow it. */
  afterEventId: number;
  /** The id the worker gave the task's WorkflowTaskStarted (the activity's events and WorkflowTaskScheduled come before it). */
  startedEventId: number;
  /** The workflow time the task ran at (ms since the epoch), recorded as its WorkflowTaskStarted's time. */
  startedTimeMs: number;
  /** The workflow task queue the worker polls; the run's must be the same. */
  taskQueue: string;
  /** The task's commands, as RespondWorkflowTaskCompletedRequest.commands. */
  commands: Command[];
  /** As RespondWorkflowTaskCompletedRequest.sdkMetadata. */
  sdkMetadata?: SdkMetadata | undefined;
  /** As RespondWorkflowTaskCompletedRequest.eagerActivities. */
  eagerActivities?: number | undefined;
}

/** The answer to an activity's completion. */
export interface RespondActivityTaskCompletedResponse {
  /** Present when the request carried a workflow task: whether it was recorded, and then what its completion appended. */
  workflowTask?: { accepted: boolean; events?: HistoryEvent[] | undefined; activityTasks?: ActivityTask[] | undefined } | undefined;
}

/** An activity attempt threw; the retry policy decides what comes next. */
export interface RespondActivityTaskFailedRequest {
  /** The task's token. */
  taskToken: string;
  /** The error. */
  failure: FailureInfo;
  /** The worker. */
  identity: string;
  /** Progress the next attempt receives. */
  lastHeartbeatDetails?: unknown | undefined;
}

/** An activity attempt ended on the cancellation the workflow asked for. */
export interface RespondActivityTaskCanceledRequest {
  /** The task's token. */
  taskToken: string;
  /** Recorded in ActivityTaskCanceled. */
  details?: unknown | undefined;
  /** The worker. */
  identity: string;
}

/**
 * An activity named by its run and id instead of a task token, as Temporal's `…ById` calls name
 * it: the call acts on the current attempt of the run's pending activity with that id, which must
 * have started. For a process that completes an activity without the token the worker handed out.
 */
export interface ActivityByIdRequest {
  namespace: string;
  workflowId: string;
  /** The run; the workflow id's latest run when absent. */
  runId?: string | undefined;
  /** The activity's id, as describe's `pendingActivities[].activityId` shows it. */
  activityId: string;
}

/** {@link RecordHeartbeatRequest} for an activity named by id. */
export interface RecordHeartbeatByIdRequest extends ActivityByIdRequest {
  /** Progress the next attempt receives. */
  details?: unknown | undefined;
  /** Who heartbeats. */
  identity?: string | undefined;
}

/** {@link RespondActivityTaskCompletedRequest} for an activity named by id. */
export interface RespondActivityTaskCompletedByIdRequest extends ActivityByIdRequest {
  /** The activity's result. */
  result?: unknown | undefined;
  /** Who completes it. */
  identity: string;
}

/** {@link RespondActivityTaskFailedRequest} for an activity named by id. */
export interface RespondActivityTaskFailedByIdRequest extends ActivityByIdRequest {
  /** The error. */
  failure: FailureInfo;
  /** Who fails it. */
  identity: string;
  /** Progress the next attempt receives. */
  lastHeartbeatDetails?: unknown | undefined;
}

/** {@link RespondActivityTaskCanceledRequest} for an activity named by id. */
export interface RespondActivityTaskCanceledByIdRequest extends ActivityByIdRequest {
  /** Recorded in ActivityTaskCanceled. */
  details?: unknown | undefined;
  /** Who reports the cancellation. */
  identity: string;
}
