import {
  ActivityFailure, CancelledFailure, Failure, fromFailureInfo, isCancellation, toFailureInfo, type FailureInfo,
} from '../common/failure.ts';
import { warnUnfinishedHandlers } from './handlers.ts';
import { IllegalStateError } from '../common/errors.ts';
import { TERMINAL_COMMAND_TYPES, type CommandAttributes } from '../history/commands.ts';
import type {
  Activation, ActivationJob, ActivationJobType, ActivationResult, MessageRequest, SandboxCommand, SandboxInit, SandboxRuntime, WorkflowInfo,
  WorkflowInfoData,
} from './activation.ts';
import { systemNow } from './current-run.ts';
import { CancellationScope, rootScope } from './cancellation-scope.ts';
import { ContinueAsNew } from './continue-as-new.ts';
import { seededRandom } from './random.ts';
import { MessageRegistry } from './message-registry.ts';
import { MarkerState } from './markers.ts';
import { ChildState } from './child-state.ts';
import { LocalActivityState } from './local-activity-state.ts';
import { checkCommandPayloads } from './command-payloads.ts';
import type { ActivityCancellationType } from './activity-cancellation.ts';
import { ValidationError } from '../errors/index.ts';
import { ReplayFlags, ReplayFlagState } from './flags.ts';
import { headersOf, inbound, type RunInterceptors } from './interceptors.ts';
import type { Headers, WireHeaders } from '../common/headers.ts';
import type { UserMetadata } from '../history/user-metadata.ts';

function unsafeInfo(isReplaying: boolean): WorkflowInfo['unsafe'] {
  return Object.freeze({ now: systemNow, isReplaying, isReplayingHistoryEvents: isReplaying });
}

/** The run's {@link WorkflowInfo} before its first activation: the data with Dates made in this realm, and Temporal's names beside ours. */
function infoOf(data: WorkflowInfoData, firstTaskTime: number): WorkflowInfo {
  const { startTime, executionTime, executionExpirationTime, ...rest } = data;
  return Object.freeze({
    ...rest,
    startTime: new Date(startTime),
    runStartTime: new Date(firstTaskTime),
    executionTime: new Date(executionTime),
    ...(executionExpirationTime !== undefined ? { executionExpirationTime: new Date(executionExpirationTime) } : {}),
    ...(data.workflowExecutionTimeoutMs !== undefined ? { executionTimeoutMs: data.workflowExecutionTimeoutMs } : {}),
    ...(data.workflowRunTimeoutMs !== undefined ? { runTimeoutMs: data.workflowRunTimeoutMs } : {}),
    taskTimeoutMs: data.workflowTaskTimeoutMs,
    ...(data.lastCompletionResult !== undefined ? { lastResult: data.lastCompletionResult } : {}),
    historyLength: 0,
    historySize: 0,
    continueAsNewSuggested: false,
    unsafe: unsafeInfo(false),
  });
}

interface Completion {
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

type JobHandlers = { [K in ActivationJobType]: (job: Extract<ActivationJob, { type: K }>) => void };

/**
 * The workflow runtime of one run, living inside its sandbox: it turns activation jobs into
 * resolved promises and workflow code's calls into commands. Operation ids are sequence
 * numbers per kind ("1", "2", … for timers; the same for activities), so a replay that takes
 * the same path produces the same ids.
 */
export class Activator implements SandboxRuntime {
  /** Frozen; replaced whole when the run changes its memo (upsertMemo). */
  info: WorkflowInfo;
  now: number;
  isReplaying = false;
  readonly random: () => number;
  cancelRequested = false;
  workflows: Record<string, unknown> = {};
  /** Signal, query and update handlers, and messages waiting for them. */
  readonly messages: MessageRegistry;
  /** Patches and side-effect results the history recorded. */
  readonly markers = new MarkerState();
  /** Local activity calls waiting for the worker. */
  readonly local = new LocalActivityState(this);
  /** Child workflows started by this run, by sequence number. */
  readonly children = new ChildState();
  /** Replay flags recorded by the history, and those first used by the current task. */
  readonly flags = new ReplayFlagState();
  /** The scope the workflow function runs in (made on first use; see rootScope()). */
  rootScope: CancellationScope | undefined;
  /** Globals this run assigned, kept while other runs of the same realm execute. */
  readonly globals = new Map<PropertyKey, PropertyDescriptor>();
  /** The scope of each pending `setTimeout` by its handle, for `clearTimeout`; handles count from 1 per run. */
  readonly timeouts = { seq: 0, scopes: new Map<number, CancellationScope>() };
  /** The run's interceptors (interceptors.ts), set when the run is made. */
  interceptors: RunInterceptors = { inbound: [], outbound: [] };
  /** The headers the run was started with. */
  startHeaders: Headers = {};
  /** What the run says it is doing now (`setCurrentDetails`), answered by the `__temporal_workflow_metadata` query. */
  currentDetails = '';

  readonly #completions = { timer: new Map<string, Completion>(), activity: new Map<string, Completion>() };
  readonly #seq = { timer: 0, activity: 0, condition: 0 };
  readonly #conditions = new Map<number, { fn: () => boolean; resolve: () => void; reject: (e: unknown) => void }>();
  /** Told how many `condition()` predicates a run waits on, when they change (the realm's dispatcher tells the host). */
  static onConditionCount: ((n: number) => void) | undefined;

  reportConditions(): void {
    Activator.onConditionCount?.(this.#conditions.size);
  }
  #commands: SandboxCommand[] = [];
  /** The run's closing command, sent after the activation's other commands (ReplayFlags.CommandsAfterCloseKept). */
  #closing: SandboxCommand | undefined;
  /** True once an activation sent the closing command: nothing is added any more. */
  #closed = false;
  #taskFailure: FailureInfo | undefined;

  /** One entry per job type: adding signals, updates or patches is adding an entry here. */
  readonly #handlers: JobHandlers = {
    startWorkflow: (job) => this.#startWorkflow(job.args, job.header),
    fireTimer: (job) => this.#take('timer', job.timerId)?.resolve(undefined),
    resolveActivity: (job) => {
      const completion = this.#take('activity', job.activityId);
      if (!completion) return; // already rejected by a cancellation (Temporal's TRY_CANCEL)
      if (job.failure) completion.reject(fromFailureInfo(job.failure));
      else completion.resolve(job.result);
    },
    cancelWorkflow: (job) => {
      this.cancelRequested = true;
      rootScope().cancel(job.reason ?? 'Workflow cancelled');
    },
    signalWorkflow: (job) => this.messages.onSignal(job),
    doUpdate: (job) => this.messages.onUpdate(job),
    resolveSignalExternal: (job) => this.messages.onSignalExternalResolved(job),
    resolveRequestCancelExternal: (job) => this.messages.onCancelExternalResolved(job),
    notifyHasPatch: (job) => {
      this.markers.knownPatches.add(job.patchId);
    },
    resolveSideEffect: (job) => {
      this.markers.sideEffects.set(job.seq, job.result);
    },
    resolveLocalActivity: (job) => this.local.resolve(job.outcome),
    resolveChildStart: (job) => this.children.resolveStart(job),
    resolveChild: (job) => this.children.resolve(job),
  };

  constructor(init: SandboxInit) {
    this.info = infoOf(init.info, init.now);
    this.now = init.now;
    this.random = seededRandom(init.randomnessSeed);
    this.messages = new MessageRegistry(this, init.captureStacks ?? false);
  }

  answer(requestJson: string): string {
    return JSON.stringify(this.messages.answer(JSON.parse(requestJson) as MessageRequest));
  }

  /** The answer of a query an async interceptor answered, once the realm's microtasks ran. */
  answerSettled(): string {
    return JSON.stringify(this.messages.settledAnswer());
  }

  /** The sequence number the next operation of `kind` will take (interceptor inputs' `seq`). */
  nextSeq(kind: 'timer' | 'activity'): number {
    return this.#seq[kind] + 1;
  }

  /** A signal or update handler threw: handled like an error thrown by the workflow function. */
  handlerThrew(err: unknown): void {
    this.#workflowThrew(err);
  }

  activate(activationJson: string): void {
    const activation = JSON.parse(activationJson) as Activation;
    this.now = activation.timestamp;
    this.isReplaying = activation.isReplaying;
    this.info = Object.freeze({
      ...this.info,
      historyLength: activation.historyLength, historySize: activation.historySize, continueAsNewSuggested: activation.continueAsNewSuggested,
      unsafe: unsafeInfo(activation.isReplaying),
    });
    if (activation.flags) this.flags.addRecorded(activation.flags);
    for (const job of activation.jobs) {
      try {
        (this.#handlers[job.type] as (j: ActivationJob) => void)(job);
      } catch (err) {
        this.failTask(err);
      }
    }
  }

  checkConditions(): boolean {
    let fired = false;
    for (const [id, c] of this.#conditions) {
      let ok: boolean;
      try {
        ok = c.fn();
      } catch (err) {
        this.#conditions.delete(id);
        this.reportConditions();
        this.messages.untrack(`condition:${id}`);
        c.reject(err);
        fired = true;
        continue;
      }
      if (ok) {
        this.#conditions.delete(id);
        this.reportConditions();
        this.messages.untrack(`condition:${id}`);
        c.resolve();
        fired = true;
      }
    }
    return fired;
  }

  rejectUnhandled(reason: unknown): void {
    const info = toFailureInfo(reason);
    this.failTask(new IllegalStateError(`Unhandled promise rejection in workflow code: ${info.message}`, { cause: reason }));
  }

  conclude(): string {
    this.messages.rejectUnhandledAdmitted();
    const result: ActivationResult = { commands: this.#closing ? [...this.#commands, this.#closing] : this.#commands, ...this.local.take() };
    if (this.#taskFailure) result.taskFailure = this.#taskFailure;
    if (this.#closing) this.#closed = true;
    this.#closing = undefined;
    const usedFlags = this.flags.takeFirstUsed();
    if (usedFlags.length) result.usedFlags = usedFlags;
    this.#commands = [];
    return JSON.stringify(result);
  }

  /** Fails the current workflow task (the workflow stays Running and the task is retried). */
  failTask(err: unknown): void {
    this.#taskFailure ??= toFailureInfo(err);
  }

  /**
   * Adds a command to this activation's batch; a closing command is held back and sent last.
   * After the run closed, later commands of the same activation are kept (dropped in histories
   * without ReplayFlags.CommandsAfterCloseKept) and a second closing command is dropped.
   */
  pushCommand(command: SandboxCommand): void {
    if (this.messages.readOnly) {
      // Not thrown: the awaitable would reject unhandled. The command is dropped (queries run in
      // a throwaway sandbox) and the answer reports the violation.
      this.messages.readOnlyViolation ??= `${this.messages.readOnly} must be read-only, but it emitted ${command.commandType}`;
      return;
    }
    if (this.#closed) return;
    const closing = TERMINAL_COMMAND_TYPES.includes(command.commandType);
    if (this.#closing && (closing || !this.flags.has(ReplayFlags.CommandsAfterCloseKept, this.isReplaying))) return;
    checkCommandPayloads(command);
    if (closing) this.#closing = command;
    else this.#commands.push(command);
  }

  /**
   * Adds a command the runtime makes from what workflow code returned (a result, an update's
   * outcome): a value JSON cannot carry fails the workflow task, naming the value.
   */
  pushOrFailTask(command: SandboxCommand): void {
    try {
      this.pushCommand(command);
    } catch (err) {
      this.failTask(err);
    }
  }

  /** Takes back a command not yet sent; false when it was already sent. */
  dropCommand(command: SandboxCommand): boolean {
    const i = this.#commands.indexOf(command);
    if (i < 0) return false;
    this.#commands.splice(i, 1);
    return true;
  }

  /** Starts a durable timer in the current scope (StartTimer, with the timer's summary if given); resolves when it fires. */
  startTimer(ms: number, userMetadata?: UserMetadata): Promise<void> {
    const scope = CancellationScope.current();
    if (scope.consideredCancelled) return scope.cancelRequested;
    const timerId = String(++this.#seq.timer);
    return new Promise<void>((resolve, reject) => {
      const command: SandboxCommand = {
        commandType: 'StartTimer', attributes: { timerId, startToFireTimeoutMs: ms, ...(userMetadata ? { userMetadata } : {}) },
      };
      this.pushCommand(command);
      this.#completions.timer.set(timerId, { resolve: () => resolve(), reject });
      this.messages.track(`timer:${timerId}`, `sleep ${ms} ms (timer ${timerId})`);
      if (!scope.cancellable) return;
      scope.cancelRequested.catch((reason: unknown) => {
        if (!this.#take('timer', timerId)) return;
        if (!this.dropCommand(command)) this.pushCommand({ commandType: 'CancelTimer', attributes: { timerId } });
        reject(reason);
      });
    });
  }

  /**
   * Schedules an activity in the current scope (ScheduleActivityTask); resolves with its result.
   * Cancelling the scope acts as `cancellationType` says (activity-cancellation.ts); an
   * activity whose command was not sent yet is dropped and rejects at once whatever the type.
   */
  scheduleActivity(
    input: Omit<CommandAttributes['ScheduleActivityTask'], 'activityId'> & { activityId?: string },
    cancellationType: ActivityCancellationType = 'TRY_CANCEL',
  ): Promise<unknown> {
    const scope = CancellationScope.current();
    const seq = String(++this.#seq.activity);
    const attributes = { ...input, activityId: input.activityId ?? seq };
    const { activityId } = attributes;
    const cancelled = (cause: unknown) => new ActivityFailure(
      'Activity cancelled', attributes.activityType, activityId, 'CancelRequested',
      cause instanceof Error ? cause : new CancelledFailure('Activity cancelled'),
    );
    if (scope.consideredCancelled) return scope.cancelRequested.catch((reason) => Promise.reject(cancelled(reason)));
    if (this.#completions.activity.has(activityId)) {
      throw new ValidationError('activityId', 'must be unique among the pending activities of the run', activityId);
    }
    return new Promise((resolve, reject) => {
      const command: SandboxCommand = { commandType: 'ScheduleActivityTask', attributes };
      this.pushCommand(command);
      this.#completions.activity.set(activityId, { resolve, reject });
      this.messages.track(`activity:${activityId}`, `activity ${attributes.activityType} (activity ${activityId})`);
      if (!scope.cancellable) return;
      scope.cancelRequested.catch((reason: unknown) => {
        if (!this.#completions.activity.has(activityId)) return;
        const unsent = this.dropCommand(command);
        if (!unsent && cancellationType !== 'ABANDON') {
          this.pushCommand({ commandType: 'RequestCancelActivityTask', attributes: { activityId } });
        }
        // WAIT_CANCELLATION_COMPLETED: the ActivityTaskCanceled (or Completed, Failed) event settles it.
        if (!unsent && cancellationType === 'WAIT_CANCELLATION_COMPLETED') return;
        this.#take('activity', activityId);
        reject(cancelled(reason));
      });
    });
  }

  /** Blocks until `fn()` is true; re-checked after every activation has settled. */
  waitForCondition(fn: () => boolean): Promise<void> {
    const scope = CancellationScope.current();
    if (scope.consideredCancelled) return scope.cancelRequested;
    const id = ++this.#seq.condition;
    return new Promise<void>((resolve, reject) => {
      this.#conditions.set(id, { fn, resolve, reject });
      this.reportConditions();
      this.messages.track(`condition:${id}`, `condition ${id}`);
      if (!scope.cancellable) return;
      scope.cancelRequested.catch((reason: unknown) => {
        if (!this.#conditions.delete(id)) return;
        this.reportConditions();
        reject(reason);
      });
    });
  }

  #take(kind: 'timer' | 'activity', id: string): Completion | undefined {
    const completion = this.#completions[kind].get(id);
    if (completion) this.#completions[kind].delete(id);
    this.messages.untrack(`${kind}:${id}`);
    return completion;
  }

  #startWorkflow(args: unknown[], header: WireHeaders | undefined): void {
    this.startHeaders = headersOf(header);
    const fn = this.workflows[this.info.workflowType];
    if (typeof fn !== 'function') {
      const known = Object.keys(this.workflows).filter((k) => typeof this.workflows[k] === 'function');
      throw new IllegalStateError(
        `workflow type "${this.info.workflowType}" is not exported by the workflows module; exported: ${known.join(', ') || '(none)'}`,
      );
    }
    const execute = inbound(this.interceptors, 'execute', async (input) => (fn as (...a: unknown[]) => unknown)(...input.args));
    rootScope()
      .run(() => execute({ args, headers: this.startHeaders }))
      .then(
        (result) => {
          warnUnfinishedHandlers(this.messages.running.values(), 'completed');
          this.pushOrFailTask({ commandType: 'CompleteWorkflowExecution', attributes: { result: result ?? null } });
        },
        (err: unknown) => this.#workflowThrew(err),
      );
  }

  /**
   * Temporal's rule: a ContinueAsNew continues the run, a cancellation after a cancel request
   * cancels it, any failure class (ApplicationFailure, ActivityFailure, …) fails it, and any
   * other error fails only the workflow task, so that deploying a fix lets the run go on.
   */
  #workflowThrew(err: unknown): void {
    if (err instanceof ContinueAsNew) {
      warnUnfinishedHandlers(this.messages.running.values(), 'continued as new');
      this.pushOrFailTask({ commandType: 'ContinueAsNewWorkflowExecution', attributes: err.attributes });
    } else if (this.cancelRequested && isCancellation(err)) {
      this.pushCommand({ commandType: 'CancelWorkflowExecution', attributes: {} });
    } else if (err instanceof Failure) {
      this.pushOrFailTask({ commandType: 'FailWorkflowExecution', attributes: { failure: toFailureInfo(err) } });
    } else {
      this.failTask(err);
    }
  }
}

export { activator, inWorkflowContext } from './current-run.ts';
