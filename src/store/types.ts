import type { HistoryEvent, WorkflowExecutionStatus } from '../history/events.ts';
import type { TimerRowKind } from '../history/timer-kinds.ts';
import type { SearchAttributeValue } from '../visibility/attributes.ts';
import type { SearchAttributeDefinition } from '../visibility/types.ts';
import type { VisibilityCount } from './visibility/compile.ts';
import type { NamespaceState } from '../protocol/namespaces.ts';

/**
 * One run of a workflow as the store keeps it: the columns visibility queries filter on, plus
 * the engine's mutable state as an opaque JSON value. Times are ms since the epoch.
 */
export interface ExecutionRecord {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  status: WorkflowExecutionStatus;
  startTime: number;
  /** When the first workflow task may run (start time + first workflow task backoff). */
  executionTime: number;
  closeTime?: number;
  /** The id the next appended event gets; history length is `nextEventId - 1`. */
  nextEventId: number;
  memo?: Record<string, unknown>;
  attempt: number;
  firstExecutionRunId: string;
  originalExecutionRunId: string;
  /** The start request's id, for idempotent starts. */
  requestId?: string;
  /** Optimistic-concurrency version: 1 after insert, +1 per committed transition. */
  version: number;
  /** The engine's mutable state of the run (JSON). The store never looks inside. */
  state: unknown;
  /** Creation order, assigned by the store; list order and page cursor. */
  seq?: number;
  /** Custom search attributes, validated against the namespace's definitions (no nulls). */
  searchAttributes?: Record<string, SearchAttributeValue>;
  /** TemporalScheduledById: the schedule that started the run. */
  scheduledById?: string;
  /** TemporalScheduledStartTime: the time the schedule's action was due, ms. */
  scheduledStartTime?: number;
  /**
   * TaskFailing: the run's workflow task keeps failing. Set by the engine on each transition it
   * commits and written to the visibility row only (not kept in the executions row).
   */
  taskFailing?: boolean;
}

/** Which kind of worker a task is for; 'query' and 'query-answer' rows carry queries and their answers between servers. */
export type TaskKind = 'workflow' | 'activity' | 'query' | 'query-answer';

/** A task row: waits on a task queue until `visibleAt`, then is claimed with a lease. */
export interface TaskRecord {
  id: string;
  namespace: string;
  taskQueue: string;
  kind: TaskKind;
  runId: string;
  /** Earliest dispatch time, ms. */
  visibleAt: number;
  /** Engine data identifying what the task is for (JSON). */
  data: unknown;
  /** Set by a claim: until when the claimer owns it, ms. */
  leaseUntil?: number;
  leaseOwner?: string;
}

/**
 * A durable timer or delivery: due at `dueAt`, fired once by whichever server claims it. `runId`
 * is the run (or schedule) that owns it: the store purges a closing run's rows with it.
 */
export interface TimerRecord<K extends TimerRowKind = TimerRowKind> {
  id: string;
  namespace: string;
  runId: string;
  kind: K;
  dueAt: number;
  data: unknown;
  leaseUntil?: number;
  leaseOwner?: string;
}

/** An execution row written by a transition, with the events it appends. */
export interface ExecutionWrite {
  /**
   * The row as it is after the transition; `record.version` must be above `expectedVersion` (or
   * 0 on insert): `expectedVersion + 1`, or more when two of the engine's transitions go as one.
   */
  record: ExecutionRecord;
  /** The version read before the transition; absent for a new run (insert). */
  expectedVersion?: number;
  /** Events appended to the run, with ids continuing from the stored `nextEventId`. */
  events: HistoryEvent[];
  /**
   * An insert decided on the assumption that the workflow id has no run yet: refused with
   * `workflowIdUsed` when any run of it (open or closed) exists.
   */
  firstOfWorkflowId?: boolean;
}

/**
 * Everything one state transition writes, committed atomically or not at all (transactional
 * outbox). The store rejects it with {@link StoreConflictError} when a version moved, an open
 * run with the same workflow id exists (or any run, for a `firstOfWorkflowId` insert), or
 * `consumeTimerId` was already consumed.
 */
export interface Transition {
  executions: ExecutionWrite[];
  createTasks?: TaskRecord[];
  deleteTaskIds?: string[];
  createTimers?: TimerRecord[];
  deleteTimerIds?: string[];
  /** A timer that must still exist; deleted in this transaction, so the timer fires exactly once. */
  consumeTimerId?: string;
  /** Deletes every task and timer of these runs (runs that closed). */
  purgeRunIds?: string[];
  /** Schedule rows written (inserted, updated or deleted) with the runs they start. */
  schedules?: ScheduleWrite[];
}

/** A schedule as the store keeps it: identity, creation time, and the engine's state (JSON). */
export interface ScheduleRecord {
  namespace: string;
  scheduleId: string;
  /** ms since the epoch. */
  createTime: number;
  /** Optimistic-concurrency version: 1 after insert, +1 per committed change. */
  version: number;
  /** The engine's state of the schedule. The store never looks inside. */
  state: unknown;
}

/** One schedule row written by a transition. */
export interface ScheduleWrite {
  /** The row after the change; `record.version` must be `expectedVersion + 1` (or 1 on insert). */
  record: ScheduleRecord;
  /** The version read before the change; absent for an insert (refused when the id exists). */
  expectedVersion?: number;
  /** Delete the row (at `expectedVersion`) instead of writing it. */
  delete?: boolean;
}

/** A registered namespace as the store keeps it. Times are ms since the epoch. */
export interface NamespaceRecord {
  name: string;
  /** Free text; empty when none was given. */
  description: string;
  ownerEmail?: string;
  /** How long a closed run is kept before the retention sweep deletes it, ms (> 0). */
  retentionMs: number;
  state: NamespaceState;
  createTime: number;
  updateTime: number;
}

/** What an update of a namespace changes; a field left out keeps its value. */
export interface NamespaceChanges {
  description?: string;
  ownerEmail?: string;
  retentionMs?: number;
}

/** What a start checks, read at once: the run its request id started, and the workflow id's latest run. */
export interface StartRuns {
  byRequestId?: ExecutionRecord;
  latest?: ExecutionRecord;
}

/** Filters of a visibility query; every time bound is inclusive, ms. */
export interface ExecutionQuery {
  namespace: string;
  workflowType?: string;
  status?: WorkflowExecutionStatus;
  workflowIdPrefix?: string;
  startTimeFrom?: number;
  startTimeTo?: number;
  closeTimeFrom?: number;
  closeTimeTo?: number;
  /** Return runs created before this `seq` (newest first). */
  beforeSeq?: number;
  limit: number;
}

/** A visibility query of one namespace: the filter language's text and the page. */
export interface VisibilityQuery {
  namespace: string;
  /** The filter language text; empty selects every run. */
  query: string;
  /** Rows per page, 1 to 1000. */
  pageSize: number;
  nextPageToken?: string;
}

/** A claim request for the oldest visible task of one queue. */
export interface ClaimTaskRequest {
  namespace: string;
  taskQueue: string;
  kind: TaskKind;
  now: number;
  leaseMs: number;
  owner: string;
}

/** A claim request for due timers. */
export interface ClaimTimersRequest {
  now: number;
  limit: number;
  leaseMs: number;
  owner: string;
}

/** Identifies one task queue of one kind. */
export interface QueueRef {
  namespace: string;
  taskQueue: string;
  kind: TaskKind;
}

/**
 * What a store tells its subscribers after a commit (its own and, for PostgreSQL, other
 * servers' through LISTEN/NOTIFY): tasks were added to a queue, a timer was created, a run closed.
 */
export type StoreNotification =
  /** `count` tasks were added to a queue; the earliest becomes visible at `visibleAt`. */
  | ({ type: 'task'; visibleAt: number; count: number } & QueueRef)
  | { type: 'timer'; dueAt: number }
  | { type: 'closed'; runId: string }
  /** The namespace was marked deleted: servers stop accepting calls inside it. */
  | { type: 'namespaceDeleted'; name: string }
  /** Notifications may have been missed (the PostgreSQL LISTEN connection was lost): re-check everything waited on. */
  | { type: 'resync' };

/**
 * Durable state of the engine. Two implementations (SQLite, PostgreSQL) pass one conformance
 * suite. Every write is a {@link Transition} or a lease claim; reads return committed state.
 */
/** One worker's polls of a task queue, as the task_queue_pollers table keeps them. Times are ms. */
export interface PollerRecord {
  namespace: string;
  taskQueue: string;
  kind: 'workflow' | 'activity';
  identity: string;
  lastAccessTime: number;
  /** Polls per second of this worker on this queue, over the last minute as last recorded. */
  ratePerSecond: number;
}

/** The tasks waiting on one kind of a task queue: how many are visible now, and since when the oldest. */
export interface TaskQueueBacklog {
  kind: 'workflow' | 'activity';
  count: number;
  oldestVisibleAt?: number;
}

/** The task queue rows of a store: pollers and backlog (docs/operations.md, "Workers and task queues"). */
export interface TaskQueueRows {
  /** Inserts or refreshes pollers (keyed by namespace, queue, kind and identity). */
  recordPollers(rows: readonly PollerRecord[]): Promise<void>;
  /** Pollers that polled at or after `since`, of one queue or of every queue of the namespace; newest first. */
  pollers(namespace: string, taskQueue: string | undefined, since: number): Promise<PollerRecord[]>;
  /** The queue's workflow and activity tasks visible at `now` (a kind without any is left out). */
  backlog(namespace: string, taskQueue: string, now: number): Promise<TaskQueueBacklog[]>;
  /** Names of the namespace's queues that hold workflow or activity tasks, in name order, after `afterName`. */
  queuesWithTasks(namespace: string, afterName: string, limit: number): Promise<string[]>;
}

export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** Pollers and backlog of task queues. */
  readonly taskQueues: TaskQueueRows;
  getExecution(runId: string): Promise<ExecutionRecord | undefined>;
  /** The most recently created run of a workflow id. */
  getLatestExecution(namespace: string, workflowId: string): Promise<ExecutionRecord | undefined>;
  findExecutionByRequestId(namespace: string, workflowId: string, requestId: string): Promise<ExecutionRecord | undefined>;
  /** {@link findExecutionByRequestId} (when `requestId` is given) and {@link getLatestExecution} in one read. */
  findStartRuns(namespace: string, workflowId: string, requestId: string | undefined): Promise<StartRuns>;
  /**
   * A row this store holds in memory that may be stale (PostgreSQL: another server may have
   * changed it). Absent on a store whose {@link getExecution} is never stale. A caller acts on
   * it only through a transition that writes the row at its version; anything else it would
   * decide from it is decided again on {@link getExecution}.
   */
  cachedExecution?(runId: string): ExecutionRecord | undefined;
  /** Runs matching the query, newest first. */
  listExecutions(query: ExecutionQuery): Promise<ExecutionRecord[]>;
  /** One page of the runs a visibility query selects, in its order (docs/visibility.md). */
  queryExecutions(query: VisibilityQuery): Promise<{ executions: ExecutionRecord[]; nextPageToken?: string }>;
  /** How many runs a visibility query selects, by group with GROUP BY. */
  countExecutions(query: Omit<VisibilityQuery, 'pageSize' | 'nextPageToken'>): Promise<VisibilityCount>;
  /** The custom search attributes registered in a namespace, by name. */
  listSearchAttributes(namespace: string): Promise<SearchAttributeDefinition[]>;
  /**
   * Registers a custom search attribute in a namespace, in the first free slot of its type.
   * @throws StoreConflictError('duplicateAttribute') when the name is registered already;
   *   ValidationError when every slot of the type is taken.
   */
  createSearchAttribute(namespace: string, definition: SearchAttributeDefinition): Promise<void>;
  /**
   * Removes a custom search attribute of a namespace: its values leave the visibility rows and
   * its slot is free again. @returns false when no such attribute is registered.
   */
  removeSearchAttribute(namespace: string, name: string): Promise<boolean>;
  /** Events of a run with `eventId >= fromEventId`, in order, at most `limit`. */
  readHistory(runId: string, fromEventId: number, limit: number): Promise<HistoryEvent[]>;
  /** @throws StoreConflictError when the transition lost a race; nothing is written then. */
  commit(transition: Transition): Promise<void>;
  /** Leases the oldest visible, unleased task of a queue. */
  claimTask(req: ClaimTaskRequest): Promise<TaskRecord | undefined>;
  /** Leases up to `limit` of the oldest visible, unleased tasks of a queue, oldest first. */
  claimTasks(req: ClaimTaskRequest, limit: number): Promise<TaskRecord[]>;
  /** The schedule of that id, if it exists. */
  getSchedule(namespace: string, scheduleId: string): Promise<ScheduleRecord | undefined>;
  /**
   * A schedule row this store holds in memory that may be stale (PostgreSQL: another server may
   * have changed or deleted it). Absent on a store whose {@link getSchedule} is cheap. A caller
   * acts on it only through a transition that writes the row at its version; anything else it
   * would decide from it is decided again on {@link getSchedule}.
   */
  cachedSchedule?(namespace: string, scheduleId: string): ScheduleRecord | undefined;
  /** Schedules of a namespace in id order, those with an id after `afterId`, at most `limit`. */
  listSchedules(namespace: string, afterId: string | undefined, limit: number): Promise<ScheduleRecord[]>;
  /** Leases up to `limit` timers due at `now` that nobody holds. */
  claimDueTimers(req: ClaimTimersRequest): Promise<TimerRecord[]>;
  /** The earliest future time at which a timer becomes due or a task becomes claimable. */
  nextWakeTime(now: number): Promise<number | undefined>;
  /** Queues holding tasks claimable at `now`, with how many. */
  readyQueues(now: number): Promise<(QueueRef & { count: number })[]>;
  /**
   * The stored value of a server secret, storing `candidate` first when there is none: every
   * server of one database gets the same value, whichever started first.
   */
  sharedSecret(name: string, candidate: string): Promise<string>;
  /** @throws StoreConflictError('namespaceExists') when a namespace of that name is registered. */
  createNamespace(record: NamespaceRecord): Promise<void>;
  /** The registered namespace of that name. */
  getNamespace(name: string): Promise<NamespaceRecord | undefined>;
  /** Registered namespaces in name order, those after `afterName`, at most `limit`. */
  listNamespaces(afterName: string | undefined, limit: number): Promise<NamespaceRecord[]>;
  /** Applies `changes` and sets `updateTime`; the updated row, or undefined when there is no such namespace. */
  updateNamespace(name: string, changes: NamespaceChanges, updateTime: number): Promise<NamespaceRecord | undefined>;
  /**
   * Turns a `Registered` namespace `Deleted` and announces it to every server on the store (a
   * `namespaceDeleted` notification); the row, or undefined when there is no registered namespace
   * of that name.
   */
  markNamespaceDeleted(name: string, updateTime: number): Promise<NamespaceRecord | undefined>;
  /**
   * Removes, in one transaction, up to `limit` runs (any status) of a `Deleted` namespace with
   * every row keyed by them; once a batch comes back short, also the namespace's schedules,
   * search attributes, pollers, remaining tasks and timers, and its row, which frees the name
   * (`done`). Does nothing to a namespace that is not `Deleted`.
   */
  purgeNamespace(name: string, limit: number): Promise<{ runIds: string[]; done: boolean }>;
  /**
   * Deletes, in one transaction, up to `limit` closed runs of `namespace` whose close time is
   * before `closedBefore` (oldest first), with their history, visibility row, tasks and timers.
   * Runs still open are never taken. Servers sweeping at once take different runs (PostgreSQL
   * skips rows another transaction holds), so each run is deleted, and counted, once.
   * Given `runId`, only that run (deleteWorkflowExecution).
   * @returns the run ids deleted.
   */
  deleteClosedRuns(namespace: string, closedBefore: number, limit: number, runId?: string): Promise<string[]>;
  /** Registers a listener for notifications; returns the unsubscribe function. */
  subscribe(listener: (n: StoreNotification) => void): () => void;
  /** Closes connections the store opened. */
  close(): Promise<void>;
}
