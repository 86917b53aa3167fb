import type {
  CancelWorkflowRequest, ExecutionRequest, GetHistoryRequest, GetHistoryResponse, ListWorkflowExecutionsRequest, ResetWorkflowRequest,
  ResetWorkflowResponse, StartWorkflowExecutionRequest, StartWorkflowExecutionResponse, TerminateWorkflowRequest,
} from './executions.ts';
import type { ListWorkflowExecutionsResponse, WorkflowExecutionDescription } from './describe.ts';
import type {
  PollUpdateRequest, QueryTask, QueryWorkflowRequest, QueryWorkflowResponse, RespondQueryTaskCompletedRequest, SignalWithStartRequest,
  SignalWorkflowRequest, UpdateWithStartRequest, UpdateWithStartResponse, UpdateWorkflowRequest, UpdateWorkflowResponse,
} from './messages.ts';
import type {
  CreateScheduleRequest, ListSchedulesRequest, ListSchedulesResponse, PatchScheduleRequest, ScheduleDescription, ScheduleRef,
  UpdateScheduleRequest,
} from './schedules.ts';
import type {
  ActivityTask, PollRequest, RecordHeartbeatByIdRequest, RecordHeartbeatRequest, RecordHeartbeatResponse, RespondActivityTaskCanceledByIdRequest,
  RespondActivityTaskCanceledRequest, RespondActivityTaskCompletedByIdRequest, RespondActivityTaskCompletedRequest,
  RespondActivityTaskCompletedResponse, RespondActivityTaskFailedByIdRequest, RespondActivityTaskFailedRequest, RespondWorkflowTaskCompletedRequest, RespondWorkflowTaskCompletedResponse, RespondWorkflowTaskFailedRequest, ShutdownWorkerRequest,
  WorkflowTask,
} from './tasks.ts';
import type {
  DescribeNamespaceRequest, ListNamespacesRequest, ListNamespacesResponse, NamespaceDescription, RegisterNamespaceRequest,
  UpdateNamespaceRequest, DeleteNamespaceRequest, DeleteNamespaceResponse,
} from './namespaces.ts';
import type { DescribeTaskQueueRequest, DescribeTaskQueueResponse, ListTaskQueuesRequest, ListTaskQueuesResponse } from './task-queues.ts';
import type {
  CountWorkflowExecutionsRequest, CountWorkflowExecutionsResponse, CreateSearchAttributeRequest, ListSearchAttributesRequest,
  ListSearchAttributesResponse, RemoveSearchAttributesRequest,
} from './visibility.ts';

/** Per-call options that do not travel in the request body. */
export interface CallOptions {
  /** Ends a long poll early; the call then resolves with its empty answer. */
  signal?: AbortSignal | undefined;
}

/**
 * Options of an in-process startWorkflowExecution (the HTTP transport sends none of them): the
 * engine is in the caller's process (`Engine.open`).
 */
export interface StartCallOptions {
  /**
   * With `requestEagerExecution`, takes the new run's first workflow task while the start is
   * still being written, so the worker runs the code up to its first effect meanwhile. `written`
   * settles before the call answers: true when the run was written as handed, false when it
   * was not (the start lost a race, or failed); until it is true nothing of the task may leave
   * the worker, and on false the worker drops it. When the task went here the answer carries
   * no `eagerWorkflowTask`; it is called at most once per call.
   */
  eagerTaskAhead?: ((task: WorkflowTask, written: Promise<boolean>) => void) | undefined;
}

/** Service calls of signals, queries and updates; part of WorkflowService. */
export interface MessageService {
  /** Persists a signal (WorkflowExecutionSignaled) before it returns; a repeated request id is a no-op. */
  signalWorkflowExecution(req: SignalWorkflowRequest): Promise<void>;
  /** Signals the open run of the workflow id, or starts a run with the signal as its first event. */
  signalWithStartWorkflowExecution(req: SignalWithStartRequest): Promise<StartWorkflowExecutionResponse>;
  /** Asks a worker to answer a query from the run's state; nothing is written to history. */
  queryWorkflow(req: QueryWorkflowRequest): Promise<QueryWorkflowResponse>;
  /** Long-polls for queries (and update validations) addressed to runs of a task queue. */
  pollQueryTaskQueue(req: PollRequest, opts?: CallOptions): Promise<QueryTask | null>;
  /** A worker's answer to a {@link QueryTask}. */
  respondQueryTaskCompleted(req: RespondQueryTaskCompletedRequest): Promise<void>;
  /** Admits, validates and accepts an update; with `waitForStage: "Completed"` also waits for its outcome. */
  updateWorkflowExecution(req: UpdateWorkflowRequest): Promise<UpdateWorkflowResponse>;
  /** Starts a run (or takes the running one) and admits an update to it, in one transaction; then waits for `waitForStage`. */
  updateWithStartWorkflowExecution(req: UpdateWithStartRequest): Promise<UpdateWithStartResponse>;
  /** Long-polls until an accepted update completes (or the wait ends). */
  pollWorkflowExecutionUpdate(req: PollUpdateRequest, opts?: CallOptions): Promise<UpdateWorkflowResponse>;
}

/** The schedule calls of the service. */
export interface ScheduleService {
  /** Creates a schedule; its first action is due by its spec. */
  createSchedule(req: CreateScheduleRequest): Promise<{ conflictToken: number }>;
  /** The schedule's settings, state, next and recent actions. */
  describeSchedule(req: ScheduleRef): Promise<ScheduleDescription>;
  /** Replaces spec, action and policies (conditional on `conflictToken` when given). */
  updateSchedule(req: UpdateScheduleRequest): Promise<void>;
  /** Pause, unpause, trigger, backfill. */
  patchSchedule(req: PatchScheduleRequest): Promise<void>;
  /** Removes the schedule; workflows it started keep running. */
  deleteSchedule(req: ScheduleRef): Promise<void>;
  /** A page of the namespace's schedules. */
  listSchedules(req: ListSchedulesRequest): Promise<ListSchedulesResponse>;
}

/** The visibility calls of the service. */
export interface VisibilityService {
  /** How many runs a query selects; with `GROUP BY`, how many per value. */
  countWorkflowExecutions(req: CountWorkflowExecutionsRequest): Promise<CountWorkflowExecutionsResponse>;
  /** Registers a custom search attribute in a namespace. */
  createSearchAttribute(req: CreateSearchAttributeRequest): Promise<void>;
  /** The search attributes of a namespace: the built-in ones and the registered ones. */
  listSearchAttributes(req: ListSearchAttributesRequest): Promise<ListSearchAttributesResponse>;
  /** Removes custom search attributes of a namespace; refused with NotFound when one is not registered. */
  removeSearchAttributes(req: RemoveSearchAttributesRequest): Promise<void>;
  /** Deletes a run with its history and visibility record; a running run is terminated first. */
  deleteWorkflowExecution(req: ExecutionRequest): Promise<void>;
}

/** The namespace calls of the service: every other call names a registered namespace. */
export interface NamespaceService {
  /** Registers a namespace; refused with AlreadyExists when the name is taken. */
  registerNamespace(req: RegisterNamespaceRequest): Promise<NamespaceDescription>;
  /** A registered namespace; NotFound for any other name. */
  describeNamespace(req: DescribeNamespaceRequest): Promise<NamespaceDescription>;
  /** A page of the registered namespaces, in name order. */
  listNamespaces(req: ListNamespacesRequest): Promise<ListNamespacesResponse>;
  /** Changes a namespace's description, owner or retention. */
  updateNamespace(req: UpdateNamespaceRequest): Promise<NamespaceDescription>;
  /** Marks a namespace deleted and removes its data in the background; NotFound when it is not registered. */
  deleteNamespace(req: DeleteNamespaceRequest): Promise<DeleteNamespaceResponse>;
}

/**
 * The service contract between the engine and everything that talks to it: the HTTP server
 * exposes exactly these calls, the HTTP client transport implements them, and the worker and
 * `Client` use them without knowing which side of a socket the engine is on.
 *
 * Times are ISO-8601 strings; durations are milliseconds in fields ending in `Ms`.
 */
export interface WorkflowService extends MessageService, ScheduleService, VisibilityService, NamespaceService {
  /** Starts a workflow (its id reuse policy decides whether an earlier one with the id allows it). */
  startWorkflowExecution(req: StartWorkflowExecutionRequest, opts?: StartCallOptions): Promise<StartWorkflowExecutionResponse>;
  /** A run's status, settings, and what it waits on. */
  describeWorkflowExecution(req: ExecutionRequest): Promise<WorkflowExecutionDescription>;
  /** A page of a run's history, or (long poll) its close event once it closes. */
  getWorkflowExecutionHistory(req: GetHistoryRequest, opts?: CallOptions): Promise<GetHistoryResponse>;
  /** A page of the runs a query selects. */
  listWorkflowExecutions(req: ListWorkflowExecutionsRequest): Promise<ListWorkflowExecutionsResponse>;
  /** Asks a run to cancel. */
  requestCancelWorkflowExecution(req: CancelWorkflowRequest): Promise<void>;
  /** Ends a run at once. */
  terminateWorkflowExecution(req: TerminateWorkflowRequest): Promise<void>;
  /** Starts a new run from a WorkflowTaskCompleted of an earlier one. */
  resetWorkflowExecution(req: ResetWorkflowRequest): Promise<ResetWorkflowResponse>;

  /** Long-polls a task queue for a workflow task. */
  pollWorkflowTaskQueue(req: PollRequest, opts?: CallOptions): Promise<WorkflowTask | null>;
  /** A workflow task's commands. */
  respondWorkflowTaskCompleted(req: RespondWorkflowTaskCompletedRequest): Promise<RespondWorkflowTaskCompletedResponse | void>;
  /** A workflow task that could not produce commands; it is retried. */
  respondWorkflowTaskFailed(req: RespondWorkflowTaskFailedRequest): Promise<void>;

  /** Long-polls a task queue for an activity task. */
  pollActivityTaskQueue(req: PollRequest, opts?: CallOptions): Promise<ActivityTask | null>;
  /**
   * A worker is stopping: its waiting polls are answered empty now, and late ones at once, so it
   * can let its polls finish rather than cut them (a task handed out meanwhile still reaches it).
   */
  shutdownWorker?(req: ShutdownWorkerRequest): Promise<void>;

  /** An activity attempt is alive; answers whether the workflow asked to cancel it. */
  recordActivityTaskHeartbeat(req: RecordHeartbeatRequest): Promise<RecordHeartbeatResponse>;
  /** An activity attempt's result. */
  respondActivityTaskCompleted(req: RespondActivityTaskCompletedRequest): Promise<RespondActivityTaskCompletedResponse | void>;
  /** An activity attempt's failure; the retry policy decides what comes next. */
  respondActivityTaskFailed(req: RespondActivityTaskFailedRequest): Promise<void>;
  /** An activity attempt ended on the cancellation asked for. */
  respondActivityTaskCanceled(req: RespondActivityTaskCanceledRequest): Promise<void>;
  /** {@link recordActivityTaskHeartbeat} for the started attempt of an activity named by workflow id, run id and activity id. */
  recordActivityTaskHeartbeatById(req: RecordHeartbeatByIdRequest): Promise<RecordHeartbeatResponse>;
  /** {@link respondActivityTaskCompleted} for an activity named by id. */
  respondActivityTaskCompletedById(req: RespondActivityTaskCompletedByIdRequest): Promise<void>;
  /** {@link respondActivityTaskFailed} for an activity named by id. */
  respondActivityTaskFailedById(req: RespondActivityTaskFailedByIdRequest): Promise<void>;
  /** {@link respondActivityTaskCanceled} for an activity named by id. */
  respondActivityTaskCanceledById(req: RespondActivityTaskCanceledByIdRequest): Promise<void>;

  /** A task queue's pollers, backlog and schedule-to-start latency. */
  describeTaskQueue(req: DescribeTaskQueueRequest): Promise<DescribeTaskQueueResponse>;
  /** The task queues of a namespace that have pollers or tasks. */
  listTaskQueues(req: ListTaskQueuesRequest): Promise<ListTaskQueuesResponse>;
}

/** Calls of {@link MessageService}, listed in WORKFLOW_SERVICE_METHODS. */
export const MESSAGE_SERVICE_METHODS = [
  'signalWorkflowExecution', 'signalWithStartWorkflowExecution', 'queryWorkflow', 'pollQueryTaskQueue',
  'respondQueryTaskCompleted', 'updateWorkflowExecution', 'updateWithStartWorkflowExecution', 'pollWorkflowExecutionUpdate',
] as const satisfies readonly (keyof MessageService)[];

/** Calls of {@link ScheduleService}, listed in WORKFLOW_SERVICE_METHODS. */
export const SCHEDULE_SERVICE_METHODS = [
  'createSchedule', 'describeSchedule', 'updateSchedule', 'patchSchedule', 'deleteSchedule', 'listSchedules',
] as const satisfies readonly (keyof ScheduleService)[];

/** Calls of {@link VisibilityService}, listed in WORKFLOW_SERVICE_METHODS. */
export const VISIBILITY_SERVICE_METHODS = [
  'countWorkflowExecutions', 'createSearchAttribute', 'listSearchAttributes', 'deleteWorkflowExecution', 'removeSearchAttributes',
] as const satisfies readonly (keyof VisibilityService)[];

/** Calls of {@link NamespaceService}, listed in WORKFLOW_SERVICE_METHODS. */
export const NAMESPACE_SERVICE_METHODS = [
  'registerNamespace', 'describeNamespace', 'listNamespaces', 'updateNamespace', 'deleteNamespace',
] as const satisfies readonly (keyof NamespaceService)[];

/** Every call of the contract, in the order the HTTP API lists them. */
export const WORKFLOW_SERVICE_METHODS = [
  'startWorkflowExecution',
  'describeWorkflowExecution',
  'getWorkflowExecutionHistory',
  'listWorkflowExecutions',
  'requestCancelWorkflowExecution',
  'terminateWorkflowExecution',
  'resetWorkflowExecution',
  'pollWorkflowTaskQueue',
  'respondWorkflowTaskCompleted',
  'respondWorkflowTaskFailed',
  'pollActivityTaskQueue',
  'shutdownWorker',
  'recordActivityTaskHeartbeat',
  'respondActivityTaskCompleted',
  'respondActivityTaskFailed',
  'respondActivityTaskCanceled',
  'recordActivityTaskHeartbeatById',
  'respondActivityTaskCompletedById',
  'respondActivityTaskFailedById',
  'respondActivityTaskCanceledById',
  'describeTaskQueue',
  'listTaskQueues',
  ...MESSAGE_SERVICE_METHODS,
  ...SCHEDULE_SERVICE_METHODS,
  ...VISIBILITY_SERVICE_METHODS,
  ...NAMESPACE_SERVICE_METHODS,
] as const satisfies readonly (keyof WorkflowService)[];

/** One of {@link WORKFLOW_SERVICE_METHODS}. */
export type WorkflowServiceMethod = (typeof WORKFLOW_SERVICE_METHODS)[number];
