import { brandClass, SteadfastError } from '../errors/index.ts';
import { DeterminismViolationError } from '../common/errors.ts';
import type { FailureInfo } from '../common/failure.ts';
import { TERMINAL_COMMAND_TYPES, type Command } from '../history/commands.ts';
import { isCloseEvent, type EventType, type HistoryEvent } from '../history/events.ts';
import type { WorkflowTaskFailedCause } from '../history/events.ts';
import type { ActivationJob, MessageAnswer, MessageRequest, SandboxCommand, WorkflowInfoData } from '../workflow/activation.ts';
import type { WorkflowBundle } from './bundler.ts';
import { commandMismatch, describeCommand, describeEvent } from './command-matching.ts';
import { EVENT_ROLES, localActivityOutcomes, markerJobs, ReplayIds, skipPatchMarkers, type EventRole } from './features/index.ts';
import type { LocalActivityOutcome, LocalActivityRequest } from '../workflow/local-activity-types.ts';
import type { Activation, ActivationResult } from '../workflow/activation.ts';
import { WorkflowSandbox, type SandboxLog } from './sandbox.ts';
import { assertKnownFlags } from '../workflow/flags.ts';

/** The workflow task cannot complete; the worker answers respondWorkflowTaskFailed with this cause. */
export class WorkflowTaskFailedError extends SteadfastError {
  constructor(
    message: string,
    readonly taskCause: WorkflowTaskFailedCause,
    readonly failure: FailureInfo,
  ) {
    super(message);
  }
}
brandClass(WorkflowTaskFailedError, 'WorkflowTaskFailedError');

/**
 * The events given to a run do not follow the ones it applied: a cached run whose history moved
 * on without it. The run is dropped and replayed from the stored history; the task does not fail.
 */
export class HistoryMismatchError extends SteadfastError {
  constructor(readonly expectedEventId: number, readonly gotEventId: number) {
    super(`history is not contiguous: expected event ${expectedEventId}, got ${gotEventId}`);
  }
}
brandClass(HistoryMismatchError, 'HistoryMismatchError');

/** Ids of the run, which history events do not carry. */
interface RunExecution {
  namespace: string;
  workflowId: string;
  runId: string;
}

const TASK_CLOSE: readonly EventType[] = ['WorkflowTaskCompleted', 'WorkflowTaskFailed', 'WorkflowTaskTimedOut'];

/**
 * One run being driven through its history: events become activations (one per workflow task
 * that completed, and one for the task being worked on now), and the commands each activation
 * produces are matched, in order, against the events that recorded them. The state survives
 * between tasks, so a cached run only needs the events after its last task.
 */
export class WorkflowRun {
  readonly execution: RunExecution;
  #bundle: WorkflowBundle;
  #log: SandboxLog | undefined;
  #sandbox: WorkflowSandbox | undefined;
  #info: WorkflowInfoData | undefined;
  #seed = '';
  #jobs: ActivationJob[] = [];
  /** Commands of the last activation not yet matched by their events. */
  #expected: Command[] = [];
  #expectedTask = 0;
  /** True when the last activation's task completed in history, so its commands must be there. */
  #expectedRecorded = false;
  #lastEventId = 0;
  #lastStartedEventId = 0;
  #lastActivationTime = 0;
  /** Bytes of the events applied so far, as JSON: `workflowInfo().historySize` at each task. */
  #historyBytes = 0;
  /**
   * True while the events applied reach the service's last event of the run as the answer to
   * its last completion reported it (see WorkflowTaskHandler): cleared by each activation.
   */
  settled = false;
  readonly #ids = new ReplayIds();
  #closed = false;
  #usedFlags: number[] = [];
  #captureStacks = false;
  #reuseV8Context = true;
  /** Local activity calls the code made and no outcome reached yet, by call number. */
  readonly #pendingLocal = new Map<number, LocalActivityRequest>();
  /** Calls the code stopped waiting on with ABANDON: left to run in the worker. */
  readonly #abandonedLocal = new Set<number>();
  /** Calls the code cancelled with WAIT_CANCELLATION_COMPLETED: aborted, still waited on. */
  readonly #cancelRequestedLocal = new Set<number>();
  /** Outcomes the markers of the task being replayed recorded, by call number. */
  #recordedLocal = new Map<number, LocalActivityOutcome>();
  /** The last activation, whose time and history figures the local activity activations of its task reuse. */
  #lastActivation: Omit<Activation, 'jobs'> | undefined;

  constructor(
    bundle: WorkflowBundle, execution: RunExecution, log?: SandboxLog, options?: { captureStacks?: boolean; reuseV8Context?: boolean },
  ) {
    this.#bundle = bundle;
    this.execution = execution;
    this.#log = log;
    this.#captureStacks = options?.captureStacks ?? false;
    this.#reuseV8Context = options?.reuseV8Context ?? true;
  }

  /** Answers a query or an update validation from the state reached so far (read-only). */
  answer(req: MessageRequest): MessageAnswer {
    if (!this.#sandbox) throw new SteadfastError('the run has not been activated yet; nothing to query');
    return this.#sandbox.answer(req);
  }

  /** Id of the last event applied. */
  get lastEventId(): number {
    return this.#lastEventId;
  }

  /** Id of the WorkflowTaskStarted whose activation ran last. */
  get lastStartedEventId(): number {
    return this.#lastStartedEventId;
  }

  /** The workflow time of the last activation, ms since the epoch (0 before the first). */
  get lastActivationTime(): number {
    return this.#lastActivationTime;
  }

  /** True once the run's close event was seen or the run produced its closing command. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Replay flags the last activation used for the first time: its WorkflowTaskCompleted records them. */
  get usedFlags(): readonly number[] {
    return this.#usedFlags;
  }

  get info(): WorkflowInfoData | undefined {
    return this.#info;
  }

  /**
   * Applies events that follow the last applied one. When the events end with a workflow task
   * that has not completed (the task being worked on), returns that task's commands.
   * @throws DeterminismViolationError when a command does not match its recorded event.
   * @throws WorkflowTaskFailedError when workflow code fails the task.
   */
  async apply(events: readonly HistoryEvent[]): Promise<Command[] | undefined> {
    let commands: Command[] | undefined;
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      if (event.eventId !== this.#lastEventId + 1) {
        throw new HistoryMismatchError(this.#lastEventId + 1, event.eventId);
      }
      this.#lastEventId = event.eventId;
      // The measure of the engine's history size limits (TransitionBuilder), on the events as read here.
      this.#historyBytes += Buffer.byteLength(JSON.stringify(event), 'utf8');
      commands = undefined;
      const role = EVENT_ROLES[event.eventType] as EventRole<typeof event.eventType>;
      if (role.role === 'records' && (event.attributes as { workflowTaskCompletedEventId?: number }).workflowTaskCompletedEventId !== undefined) {
        this.#match(event, role);
      } else if (event.eventType === 'WorkflowTaskStarted') {
        const close = events.slice(i + 1).find((e) => TASK_CLOSE.includes(e.eventType)
          && (e.attributes as { startedEventId?: number }).startedEventId === event.eventId);
        if (close && close.eventType !== 'WorkflowTaskCompleted') continue;
        if (close) this.#jobs.unshift(...markerJobs(events, events.indexOf(close) + 1));
        this.#recordedLocal = close ? localActivityOutcomes(events, events.indexOf(close) + 1) : new Map();
        this.#checkAllMatched(event);
        commands = await this.#activate(event as HistoryEvent<'WorkflowTaskStarted'>, close as HistoryEvent<'WorkflowTaskCompleted'> | undefined);
        this.#expected = [...commands];
        this.#expectedTask = event.eventId;
        this.#expectedRecorded = close !== undefined;
        if (commands.some((c) => TERMINAL_COMMAND_TYPES.includes(c.commandType))) this.#closed = true;
      } else {
        if (event.eventType === 'WorkflowExecutionStarted') this.#start(event as HistoryEvent<'WorkflowExecutionStarted'>);
        const job = role.role === 'wakes' ? role.job(event, this.#ids) : undefined;
        if (job) this.#jobs.push(job);
        if (isCloseEvent(event)) this.#closed = true;
      }
    }
    return commands;
  }

  /**
   * For a replay of a whole history: every command of the last completed task found its
   * event. (A final task that never completed has nothing recorded to check against.)
   */
  finish(): void {
    const last = this.#expected[0];
    if (last && this.#expectedRecorded) {
      throw new DeterminismViolationError(
        `non-deterministic workflow: the code produced ${describeCommand(last)} in the workflow task started at event ` +
        `${this.#expectedTask}, but history ends at event ${this.#lastEventId} without it`, this.#lastEventId);
    }
  }

  #start(event: HistoryEvent<'WorkflowExecutionStarted'>): void {
    const a = event.attributes;
    const info: WorkflowInfoData = {
      ...this.execution,
      workflowType: a.workflowType,
      taskQueue: a.taskQueue,
      attempt: a.attempt,
      firstExecutionRunId: a.firstExecutionRunId,
      startTime: event.eventTime,
      executionTime: new Date(Date.parse(event.eventTime) + (a.firstWorkflowTaskBackoffMs ?? 0)).toISOString(),
      workflowTaskTimeoutMs: a.workflowTaskTimeoutMs,
    };
    if (a.workflowExecutionExpirationTime) info.executionExpirationTime = a.workflowExecutionExpirationTime;
    if (a.parent) info.parent = { namespace: a.parent.namespace, workflowId: a.parent.workflowId, runId: a.parent.runId };
    if (a.memo) info.memo = a.memo;
    if (a.searchAttributes) info.searchAttributes = a.searchAttributes;
    if (a.continuedExecutionRunId) info.continuedFromExecutionRunId = a.continuedExecutionRunId;
    if (a.workflowRunTimeoutMs !== undefined) info.workflowRunTimeoutMs = a.workflowRunTimeoutMs;
    if (a.workflowExecutionTimeoutMs !== undefined) info.workflowExecutionTimeoutMs = a.workflowExecutionTimeoutMs;
    if (a.cronSchedule) info.cronSchedule = a.cronSchedule;
    if (a.lastCompletionResult !== undefined) info.lastCompletionResult = a.lastCompletionResult;
    if (a.continuedFailure) info.lastFailure = a.continuedFailure;
    this.#info = info;
    // The original run id survives resets and is in the history, so a Replayer draws the same numbers.
    this.#seed = a.originalExecutionRunId || this.execution.runId;
  }

  async #activate(started: HistoryEvent<'WorkflowTaskStarted'>, completed: HistoryEvent<'WorkflowTaskCompleted'> | undefined): Promise<Command[]> {
    if (!this.#info) throw new SteadfastError('history does not start with WorkflowExecutionStarted');
    const timestamp = Date.parse(started.eventTime);
    if (!this.#sandbox) {
      try {
        this.#sandbox = WorkflowSandbox.create(this.#bundle, {
          info: this.#info, randomnessSeed: this.#seed, now: timestamp, ...(this.#captureStacks ? { captureStacks: true } : {}),
        }, { reuseV8Context: this.#reuseV8Context, ...(this.#log ? { log: this.#log } : {}) });
      } catch (err) {
        throw new WorkflowTaskFailedError(`the workflows module failed to load: ${(err as Error).message}`, 'WorkflowError',
          { kind: 'Application', message: (err as Error).message, type: (err as Error).name, stack: this.#bundle.stacks.mapStack((err as Error).stack ?? '') });
      }
    }
    const jobs = this.#jobs;
    this.#jobs = [];
    this.#lastStartedEventId = started.eventId;
    this.#lastActivationTime = timestamp;
    this.settled = false;
    const flags = completed?.attributes.sdkMetadata?.langUsedFlags;
    if (flags) assertKnownFlags(flags, completed.eventId);
    this.#lastActivation = {
      timestamp, isReplaying: completed !== undefined, ...(flags ? { flags } : {}),
      historyLength: started.eventId, historySize: this.#historyBytes, continueAsNewSuggested: started.attributes.suggestContinueAsNew === true,
    };
    this.#usedFlags = [];
    const commands = await this.#runActivation(jobs);
    // A replay resolves the local activities this task's markers recorded, each once the code has
    // called it, in activations of their own as the worker that ran them did.
    for (;;) {
      const ready = [...this.#pendingLocal.keys()].filter((seq) => this.#recordedLocal.has(seq));
      if (ready.length === 0) break;
      commands.push(...await this.#runActivation(ready.map((seq) => ({ type: 'resolveLocalActivity', outcome: this.#recordedLocal.get(seq)! }))));
    }
    return commands;
  }

  /** Local activity calls the code is waiting on, with no outcome in history: the worker runs them. */
  get pendingLocalActivities(): LocalActivityRequest[] {
    return [...this.#pendingLocal.values()];
  }

  /** Calls the worker leaves running though the code no longer waits on them (ABANDON). */
  get abandonedLocalActivities(): ReadonlySet<number> {
    return this.#abandonedLocal;
  }

  /** Calls the code waits on whose cancellation it asked for (WAIT_CANCELLATION_COMPLETED). */
  get cancelRequestedLocalActivities(): ReadonlySet<number> {
    return this.#cancelRequestedLocal;
  }

  /**
   * Hands the outcomes of local activities the worker ran to the code, within the task being
   * worked on; returns the commands that follow (the calls' markers first).
   */
  async resolveLocalActivities(outcomes: readonly LocalActivityOutcome[]): Promise<Command[]> {
    const commands = await this.#runActivation(outcomes.map((outcome) => ({ type: 'resolveLocalActivity', outcome })));
    this.#expected.push(...commands);
    if (commands.some((c) => TERMINAL_COMMAND_TYPES.includes(c.commandType))) this.#closed = true;
    return commands;
  }

  async #runActivation(jobs: ActivationJob[]): Promise<Command[]> {
    for (const job of jobs) {
      if (job.type !== 'resolveLocalActivity') continue;
      this.#pendingLocal.delete(job.outcome.seq);
      this.#cancelRequestedLocal.delete(job.outcome.seq);
    }
    const result: ActivationResult = await this.#sandbox!.activate({ ...this.#lastActivation!, jobs });
    if (result.usedFlags) this.#usedFlags.push(...result.usedFlags);
    if (result.taskFailure) {
      throw new WorkflowTaskFailedError(`workflow task failed: ${result.taskFailure.message}`, 'WorkflowError', result.taskFailure);
    }
    for (const r of result.localActivities ?? []) this.#pendingLocal.set(r.seq, r);
    for (const seq of result.cancelledLocalActivities ?? []) this.#pendingLocal.delete(seq);
    for (const seq of result.abandonedLocalActivities ?? []) {
      this.#pendingLocal.delete(seq);
      this.#abandonedLocal.add(seq);
    }
    for (const seq of result.cancelRequestedLocalActivities ?? []) if (this.#pendingLocal.has(seq)) this.#cancelRequestedLocal.add(seq);
    return result.commands.map((c) => this.#toWire(c));
  }

  #toWire(command: SandboxCommand): Command {
    if (command.commandType !== 'RequestCancelActivityTask') return command;
    const scheduledEventId = this.#ids.scheduledEventId(command.attributes.activityId);
    if (scheduledEventId === undefined) {
      throw new SteadfastError(`cannot cancel activity ${command.attributes.activityId}: its ActivityTaskScheduled event is unknown`);
    }
    return { commandType: 'RequestCancelActivityTask', attributes: { scheduledEventId } };
  }

  #match(event: HistoryEvent, role: Extract<EventRole<EventType>, { role: 'records' }>): void {
    if (skipPatchMarkers(this.#expected, event)) return;
    const command = this.#expected.shift();
    if (!command) {
      throw new DeterminismViolationError(
        `non-deterministic workflow: history has ${describeEvent(event)}, but the code produced no matching command ` +
        `in the workflow task started at event ${this.#expectedTask}`, event.eventId);
    }
    const mismatch = commandMismatch(command, event);
    if (mismatch) {
      throw new DeterminismViolationError(
        `non-deterministic workflow: history has ${describeEvent(event)}, but the code produced ${describeCommand(command)} ` +
        `(${mismatch}). The workflow code changed in a way that is incompatible with this run's history.`, event.eventId);
    }
    role.remember?.(event, this.#ids);
    if (isCloseEvent(event)) this.#closed = true;
  }

  #checkAllMatched(next: HistoryEvent): void {
    const left = this.#expected[0];
    if (left) {
      throw new DeterminismViolationError(
        `non-deterministic workflow: the code produced ${describeCommand(left)} in the workflow task started at event ` +
        `${this.#expectedTask}, but history has no matching event before ${describeEvent(next)}`, next.eventId);
    }
  }
}
