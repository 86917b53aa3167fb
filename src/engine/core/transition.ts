import { newUuid } from '../../common/ids.ts';
import { cloneData } from '../../common/clone.ts';
import type { EventAttributes, EventType, HistoryEvent, WorkflowExecutionStatus } from '../../history/events.ts';
import type { ExecutionRecord, TaskKind, TaskRecord, TimerRecord, Transition } from '../../store/types.ts';
import type { DeliveryKind, TimerKind } from '../../history/timer-kinds.ts';
import { runStateOf, type BufferedEvent, type RunState, type StateSlice, type TaskData } from './state.ts';
import type { FailureInfo } from '../../common/failure.ts';
import type { TimerRowData } from './timer-data.ts';
import type { RunningLocalActivity } from '../../protocol/tasks.ts';

/** How a run ends, as the transition ending it would record it (workflow-task/, cancel/, run timeouts). */
export type RunOutcome =
  | { status: 'Completed'; result: unknown }
  | { status: 'Failed' | 'TimedOut' | 'Canceled'; failure: FailureInfo };

/** A new run's settings a feature may read before the run exists (firstTaskBackoffMs). */
export interface NewRunView {
  /** True for a chain's first run (a start); false for a retry or continue-as-new. */
  firstOfChain: boolean;
  cronSchedule?: string | undefined;
  backoffMs: number;
}

/**
 * The features' parts a run's transitions use (the engine's FeatureRegistry, engine-core.ts):
 * the state slices that read a row, and the moments of a run's life features take part in.
 */
export interface RunHooks {
  readonly slices: readonly StateSlice[];
  /** In the transition that closes a run, after its close event: tell others, clear a slice. */
  readonly onClose: readonly ((b: TransitionBuilder) => void)[];
  /** In the transition that continues a run's chain (continue-as-new, retry, cron): carry a slice to `next`. */
  readonly onContinue: readonly ((from: TransitionBuilder, next: TransitionBuilder) => void)[];
  /**
   * Before a run ends with `outcome`: true when the feature ended it itself (a cron run continues
   * its chain as new instead of closing), so the caller writes no close.
   */
  readonly onRunEnding: readonly ((b: TransitionBuilder, outcome: RunOutcome, workflowTaskCompletedEventId?: number) => boolean)[];
  /** The delay before a new run's first workflow task, when a feature sets one (a cron chain's first fire time). */
  readonly firstTaskBackoffMs: readonly ((run: NewRunView, now: number) => number | undefined)[];
  /** In the transition that records a workflow task's completion, after its commands: what else the completion reports. */
  readonly onWorkflowTaskCompleted: readonly ((b: TransitionBuilder, completion: WorkflowTaskCompletionReport) => void)[];
}

/** What a workflow task's completion reports beside its commands, for the features that keep it. */
export interface WorkflowTaskCompletionReport {
  /** The worker that completed the task. */
  identity: string;
  /** The local activities still running in that worker (a heartbeating completion); absent when none. */
  runningLocalActivities?: readonly RunningLocalActivity[] | undefined;
}

/**
 * Collects everything one state transition of a run writes: the row's new state, the events
 * appended (ids continuing `nextEventId`), the tasks and timers created and deleted. New runs
 * made by the same transition (continue-as-new, retry, terminate-and-start) ride along in
 * `others`, so the whole change commits as one store transaction.
 */
export class TransitionBuilder {
  readonly record: ExecutionRecord;
  readonly state: RunState;
  readonly expectedVersion: number | undefined;
  readonly events: HistoryEvent[] = [];
  readonly createTasks: TaskRecord[] = [];
  readonly deleteTaskIds: string[] = [];
  readonly createTimers: TimerRecord[] = [];
  readonly deleteTimerIds: string[] = [];
  readonly others: TransitionBuilder[] = [];
  consumeTimerId: string | undefined;
  /** A new run started as its workflow id's first (the store refuses it if the id has a run). */
  firstOfWorkflowId = false;
  /** Bytes of the events this transition appended, as the history size counts them. */
  addedBytes = 0;
  /** Set by a change the workflow must see (an activity canceled at once): schedule a workflow task. */
  needsWorkflowTask = false;
  #touched = false;

  /**
   * @param features the engine's features: their state slices read the row, their close hooks
   *   run when this transition closes the run.
   */
  constructor(record: ExecutionRecord, readonly now: number, readonly features: RunHooks, isNew = false) {
    this.record = { ...record, version: record.version + (isNew ? 0 : 1) };
    this.state = runStateOf({ state: cloneData(record.state) }, features.slices);
    this.expectedVersion = isNew ? undefined : record.version;
    if (isNew) this.#touched = true;
  }

  get closed(): boolean {
    return this.record.status !== 'Running';
  }

  #nowIso: string | undefined;

  /** `now` as an ISO string (the time of every event this transition appends). */
  get nowIso(): string {
    return (this.#nowIso ??= new Date(this.now).toISOString());
  }

  /** Marks the row as changed even if no event is appended (state-only transitions). */
  touch(): void {
    this.#touched = true;
  }

  /** Appends an event now, whatever the workflow task's state. */
  append<K extends EventType>(eventType: K, attributes: EventAttributes[K]): HistoryEvent<K> {
    const event = { eventId: this.record.nextEventId++, eventType, eventTime: this.nowIso, attributes } as HistoryEvent<K>;
    this.#push(event as unknown as HistoryEvent);
    this.#touched = true;
    return event;
  }

  /** Appends an event made earlier (a transient workflow task's events, as the worker saw them), keeping its time. */
  appendAt<K extends EventType>(eventType: K, eventTime: string, attributes: EventAttributes[K]): HistoryEvent<K> {
    const event = { eventId: this.record.nextEventId++, eventType, eventTime, attributes } as HistoryEvent<K>;
    this.#push(event as unknown as HistoryEvent);
    this.#touched = true;
    return event;
  }

  /**
   * Adds an event that arrived from outside the workflow task (an activity result, a timer, a
   * cancel request): buffered while a workflow task is started, so the history a worker
   * replays never interleaves with the task it is running; appended otherwise. `eventTime` is
   * when it happened, now unless given (an ActivityTaskStarted written at the activity's close
   * has the attempt's start time, as Temporal's has).
   */
  addEvent<K extends EventType>(eventType: K, attributes: EventAttributes[K], linkStartedToPrevious = false, eventTime = this.nowIso): void {
    if (this.state.wt?.startedTime !== undefined) {
      const b: BufferedEvent = { eventType, eventTime, attributes };
      if (linkStartedToPrevious) b.linkStartedToPrevious = true;
      this.state.buffered.push(b);
      this.#touched = true;
      return;
    }
    if (linkStartedToPrevious) (attributes as { startedEventId?: number }).startedEventId = this.record.nextEventId - 1;
    this.appendAt(eventType, eventTime, attributes);
  }

  /** Adds an appended event and counts its size (the history size limits, limits.ts). */
  #push(event: HistoryEvent): void {
    this.events.push(event);
    const bytes = Buffer.byteLength(JSON.stringify(event), 'utf8');
    this.addedBytes += bytes;
    this.state.historySizeBytes = (this.state.historySizeBytes ?? 0) + bytes;
  }

  /** Appends the buffered events; returns how many there were. */
  flushBuffered(): number {
    const buffered = this.state.buffered;
    this.state.buffered = [];
    for (const b of buffered) {
      const attrs = b.attributes as { startedEventId?: number };
      if (b.linkStartedToPrevious) attrs.startedEventId = this.record.nextEventId - 1;
      const event = { eventId: this.record.nextEventId++, eventType: b.eventType, eventTime: b.eventTime, attributes: b.attributes } as HistoryEvent;
      this.#push(event);
    }
    if (buffered.length) this.#touched = true;
    return buffered.length;
  }

  /**
   * Schedules a workflow task unless one is pending, the run is closed, or the run's first
   * workflow task backoff (retry, continue-as-new) has not ended: its WorkflowBackoff timer
   * schedules the task then, and the events that arrived meanwhile ride along.
   */
  ensureWorkflowTask(visibleAt = this.now): void {
    if (!this.state.wt && !this.closed && this.now >= this.record.executionTime) this.scheduleWorkflowTask(visibleAt);
  }

  /** Schedules the next workflow task (attempt `state.wtAttempt`), visible at `visibleAt`. */
  scheduleWorkflowTask(visibleAt = this.now): void {
    const s = this.state;
    const attempt = s.wtAttempt;
    const seq = ++s.wtSeq;
    const transient = attempt > 1;
    const taskId = this.addTask('workflow', this.record.taskQueue, { seq }, visibleAt);
    s.wt = { seq, attempt, taskQueue: this.record.taskQueue, scheduledTime: visibleAt, taskId, transient };
    if (!transient) {
      s.wt.scheduledEventId = this.append('WorkflowTaskScheduled', {
        taskQueue: this.record.taskQueue, startToCloseTimeoutMs: s.cfg.workflowTaskTimeoutMs, attempt,
      }).eventId;
    }
  }

  addTask(kind: TaskKind, taskQueue: string, data: TaskData, visibleAt = this.now): string {
    const id = newUuid();
    this.createTasks.push({ id, namespace: this.record.namespace, taskQueue, kind, runId: this.record.runId, visibleAt, data });
    this.#touched = true;
    return id;
  }

  deleteTask(id: string | undefined): void {
    if (id !== undefined) this.deleteTaskIds.push(id);
  }

  /** Forgets a task row this transition created and then deleted: it is neither written nor deleted. */
  discardTask(id: string): void {
    discard(this.createTasks, this.deleteTaskIds, id);
  }

  /** Forgets a timer row this transition created and then deleted, as {@link discardTask}. */
  discardTimer(id: string): void {
    discard(this.createTimers, this.deleteTimerIds, id);
  }

  /** Arms a true timer of this run, due at `dueAt`; returns its row id. */
  addTimer<K extends TimerKind>(kind: K, dueAt: number, data: TimerRowData[K]): string {
    const id = newUuid();
    this.createTimers.push({ id, namespace: this.record.namespace, runId: this.record.runId, kind, dueAt, data });
    this.#touched = true;
    return id;
  }

  /**
   * Adds a delivery due now: an outbox entry committed with this transition that the timer loop
   * carries to another run (or schedule) in a transaction of its own. `owner` is the run (or
   * schedule) the row belongs to, this run by default: when the owner closes, the store purges
   * the row with its other timers.
   */
  addDelivery<K extends DeliveryKind>(kind: K, data: TimerRowData[K], owner: { runId: string; namespace?: string } = this.record): void {
    this.createTimers.push({ id: newUuid(), namespace: owner.namespace ?? this.record.namespace, runId: owner.runId, kind, dueAt: this.now, data });
    this.#touched = true;
  }

  deleteTimer(id: string | undefined): void {
    if (id !== undefined) this.deleteTimerIds.push(id);
  }

  /**
   * Closes the run: appends the close event, sets status and close time, and deletes every task
   * and timer of the run in the same transaction (so nothing pending fires afterwards). Each
   * feature's close hook then runs in this transition (tell a parent or a schedule, drop what is
   * pending).
   */
  close<K extends EventType>(status: WorkflowExecutionStatus, eventType: K, attributes: EventAttributes[K]): void {
    this.append(eventType, attributes);
    this.record.status = status;
    this.record.closeTime = this.now;
    this.state.wt = undefined;
    for (const onClose of this.features.onClose) onClose(this);
  }

  /** True when the transition writes this run's row (so its commit checks the version it was read at). */
  get writesRecord(): boolean {
    return this.#touched || this.others.length > 0;
  }

  /** True when nothing would be written. */
  isEmpty(): boolean {
    return !this.#touched && this.consumeTimerId === undefined && this.deleteTaskIds.length === 0
      && this.deleteTimerIds.length === 0 && this.others.length === 0;
  }

  /** The store transition of this builder and the runs it created. */
  build(): Transition {
    const all: TransitionBuilder[] = [this, ...this.others];
    const own = this.#touched || this.others.length > 0;
    const purge = all.filter((b) => b.closed && b.expectedVersion !== undefined).map((b) => b.record.runId);
    const live = <T extends { runId: string }>(rows: T[]) => rows.filter((r) => !purge.includes(r.runId));
    const t: Transition = {
      executions: all.filter((b) => b !== this || own).map((b) => ({
        // TaskFailing (visibility): the workflow task's attempts keep failing; cleared when one completes or the run closes.
        record: { ...b.record, state: b.state, taskFailing: !b.closed && b.state.wtLastFailure !== undefined }, events: b.events,
        ...(b.expectedVersion !== undefined ? { expectedVersion: b.expectedVersion } : {}),
        ...(b.firstOfWorkflowId ? { firstOfWorkflowId: true } : {}),
      })),
      createTasks: live(all.flatMap((b) => b.createTasks)),
      deleteTaskIds: all.flatMap((b) => b.deleteTaskIds),
      createTimers: live(all.flatMap((b) => b.createTimers)),
      deleteTimerIds: all.flatMap((b) => b.deleteTimerIds),
    };
    if (this.consumeTimerId !== undefined) t.consumeTimerId = this.consumeTimerId;
    if (purge.length) t.purgeRunIds = purge;
    return t;
  }
}

function discard(created: { id: string }[], deleted: string[], id: string): void {
  const c = created.findIndex((r) => r.id === id);
  if (c >= 0) created.splice(c, 1);
  const d = deleted.indexOf(id);
  if (d >= 0) deleted.splice(d, 1);
}
