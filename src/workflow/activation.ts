import type { WireHeaders } from '../common/headers.ts';
import type { FailureInfo } from '../common/failure.ts';
import type { Command } from '../history/commands.ts';
import type { LocalActivityOutcome, LocalActivityRequest } from './local-activity-types.ts';

/**
 * The facts of a run the worker hands its sandbox when the run is made: plain JSON (times as ISO
 * strings), so it crosses the sandbox boundary unchanged. `workflowInfo()` returns
 * {@link WorkflowInfo}, made from it inside the sandbox.
 */
export interface WorkflowInfoData {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  /** Run attempt under the workflow retry policy: 1 for the first run. */
  attempt: number;
  memo?: Record<string, unknown>;
  /**
   * The run's custom search attributes: those it started with (as stored for their types), then
   * each `upsertSearchAttributes` change as the workflow gave it (Dates as ISO strings).
   */
  searchAttributes?: Record<string, string | number | boolean | readonly (string | number | boolean)[]>;
  /** Run id of the first run of the chain (continue-as-new, retries, cron). */
  firstExecutionRunId: string;
  /** Run id of the run this one continued from, when it continued from one. */
  continuedFromExecutionRunId?: string;
  /** When the run started (ISO time of WorkflowExecutionStarted). */
  startTime: string;
  /** When the run's first workflow task was due: its start plus the first task's backoff (cron, retry), ISO time. */
  executionTime: string;
  /** When the chain's execution timeout ends it, ISO time. */
  executionExpirationTime?: string;
  workflowRunTimeoutMs?: number;
  workflowExecutionTimeoutMs?: number;
  workflowTaskTimeoutMs: number;
  /** The cron schedule of a cron job's runs (seed: "What is a Temporal Cron Job?"). */
  cronSchedule?: string;
  /**
   * Result of the last completed run of a cron chain (in every later run), or of the schedule's
   * most recently completed workflow when this run started; see `getLastCompletionResult()`.
   */
  lastCompletionResult?: unknown;
  /**
   * Why the previous run of the chain did not complete, in stored form (the failure of a failed
   * cron run, its run timeout or its cancellation, or the failure a workflow retry follows), or
   * the failure of the schedule's most recently closed failed workflow when this run started.
   */
  lastFailure?: FailureInfo;
  /** The parent run, when this run is a child. */
  parent?: { namespace: string; workflowId: string; runId: string };
}

/**
 * What a workflow sees of its own run: `workflowInfo()` returns it, in the shape of Temporal's
 * `WorkflowInfo` (times as Dates, history length and size, `unsafe`), with steadfast's fields
 * beside it. The history fields change with each workflow task, the same way on every replay.
 */
export interface WorkflowInfo extends Omit<WorkflowInfoData, 'startTime' | 'executionTime' | 'executionExpirationTime'> {
  /** When the run started (WorkflowExecutionStarted), as Temporal's `startTime`. */
  startTime: Date;
  /** When the run's first workflow task started. */
  runStartTime: Date;
  /** When the run's first workflow task was due: its start plus the first task's backoff (cron, retry). */
  executionTime: Date;
  /** When the chain's execution timeout ends it. */
  executionExpirationTime?: Date;
  /** {@link workflowExecutionTimeoutMs}, under Temporal's name. */
  executionTimeoutMs?: number;
  /** {@link workflowRunTimeoutMs}, under Temporal's name. */
  runTimeoutMs?: number;
  /** {@link workflowTaskTimeoutMs}, under Temporal's name. */
  taskTimeoutMs: number;
  /** {@link lastCompletionResult}, under Temporal's name. */
  lastResult?: unknown;
  /** Events in the history up to the current workflow task's WorkflowTaskStarted. */
  historyLength: number;
  /**
   * Bytes of those events as JSON (UTF-8), as the worker read them: the measure of the history
   * size limits, counted after the worker's payload codecs decoded the events.
   */
  historySize: number;
  /** True when the current workflow task started past the history limits' warning line (events or bytes). */
  continueAsNewSuggested: boolean;
  /** Facts that differ between the first execution and a replay: never branch on them. */
  unsafe: {
    /** The worker's clock, ms since the epoch. */
    now(): number;
    /** True while the worker replays workflow tasks that completed before. */
    isReplaying: boolean;
    /** The same as {@link isReplaying}. */
    isReplayingHistoryEvents: boolean;
  };
}

/** Data the sandbox reads before the workflow module is evaluated, so module top-level code is deterministic too. */
export interface SandboxInit {
  info: WorkflowInfoData;
  /** Seeds Math.random() and uuid4(); the same seed gives the same numbers on every replay. */
  randomnessSeed: string;
  /** Time of the first activation, ms since the epoch. */
  now: number;
  /** Record where each awaitable was created, for the `__stack_trace` query. @default false */
  captureStacks?: boolean;
}

/**
 * One unit of input to the workflow runtime, made from history events by the worker.
 * Keyed by `type` so that a new kind (signals, updates, patches, child results) is one entry
 * in the runtime's job-handler table.
 */
export type ActivationJob =
  | { type: 'startWorkflow'; args: unknown[]; header?: WireHeaders }
  | { type: 'fireTimer'; timerId: string }
  | { type: 'resolveActivity'; activityId: string; result?: unknown; failure?: FailureInfo }
  | { type: 'cancelWorkflow'; reason?: string }
  | { type: 'signalWorkflow'; signalName: string; args: unknown[]; header?: WireHeaders }
  /** A 'Version' marker recorded by the task being replayed: `patched(patchId)` is true there. */
  | { type: 'notifyHasPatch'; patchId: string }
  /** A 'SideEffect' marker recorded by the task being replayed: `sideEffect()` number `seq` returns `result`. */
  | { type: 'resolveSideEffect'; seq: number; result: unknown }
  /** A local activity call's outcome: from the worker that ran it, or from its marker on replay. */
  | { type: 'resolveLocalActivity'; outcome: LocalActivityOutcome }
  | { type: 'resolveChildStart'; seq: number; runId?: string; failure?: FailureInfo }
  | { type: 'resolveChild'; seq: number; result?: unknown; failure?: FailureInfo }
  /** An accepted update (WorkflowExecutionUpdateAccepted): run its handler. */
  | {
    type: 'doUpdate'; updateId: string; updateName: string; args: unknown[]; acceptedEventId: number; header?: WireHeaders;
    /**
     * An admitted update (WorkflowExecutionUpdateAdmitted, from an update-with-start): run its
     * validator first, and reject it (complete it with the validator's failure) when the
     * validator throws or no handler is set by the end of the activation.
     */
    validate?: boolean;
  }
  /** A SignalExternalWorkflowExecution reached its target, or failed. */
  | { type: 'resolveSignalExternal'; signalId: string; failure?: FailureInfo }
  /** A cancel request to another workflow (getExternalWorkflowHandle().cancel()) reached it, or failed. */
  | { type: 'resolveRequestCancelExternal'; seq: string; failure?: FailureInfo };

export type ActivationJobType = ActivationJob['type'];

/** All jobs of one workflow task, applied together before the workflow code runs on. */
export interface Activation {
  /** eventTime of the task's WorkflowTaskStarted, ms since the epoch: Date.now() inside the workflow. */
  timestamp: number;
  /** True when the task already completed once (its commands are in history). */
  isReplaying: boolean;
  /** The task's WorkflowTaskStarted event id: the history's length up to it. */
  historyLength: number;
  /** Bytes of the events up to that WorkflowTaskStarted, as JSON. */
  historySize: number;
  /** The engine's suggestion on that WorkflowTaskStarted (the history is past its warning line). */
  continueAsNewSuggested: boolean;
  jobs: ActivationJob[];
  /** Replay flags (flags.ts) the task being replayed recorded on its WorkflowTaskCompleted. */
  flags?: number[];
}

/**
 * A command as the sandbox produces it. Identical to the wire {@link Command} except that a
 * cancellation names the activity by id; the worker maps it to the scheduled event id.
 */
export type SandboxCommand =
  | Exclude<Command, { commandType: 'RequestCancelActivityTask' }>
  | { commandType: 'RequestCancelActivityTask'; attributes: { activityId: string } };

/** What the sandbox hands back after an activation has run to quiescence. */
export interface ActivationResult {
  commands: SandboxCommand[];
  /** Replay flags this activation used for the first time in the run: the task records them. */
  usedFlags?: number[];
  /**
   * Set when the workflow task must fail instead of completing (a non-failure error thrown
   * by workflow code, an unknown workflow type, an unhandled rejection): the workflow stays
   * Running and the task is retried, so a fixed deployment can carry on.
   */
  taskFailure?: FailureInfo;
  /** Local activities the code called in this activation, for the worker to run. */
  localActivities?: LocalActivityRequest[];
  /** Local activity calls (by seq) asked for earlier and cancelled by the code in this activation (TRY_CANCEL): the worker aborts them. */
  cancelledLocalActivities?: number[];
  /** Calls cancelled with ABANDON: settled in the code, left running in the worker. */
  abandonedLocalActivities?: number[];
  /** Calls cancelled with WAIT_CANCELLATION_COMPLETED: the worker aborts them and still reports how they end. */
  cancelRequestedLocalActivities?: number[];
}

/** One run's runtime inside a realm; the host reaches it only through the realm's {@link RealmMailbox}. */
export interface SandboxRuntime {
  /** Applies a JSON-encoded {@link Activation}; the caller then drains microtasks. */
  activate(activationJson: string): void;
  /** Re-checks `condition()` predicates; true when one was satisfied (drain and call again). */
  checkConditions(): boolean;
  /** Records an unhandled rejection seen by the host for this sandbox. */
  rejectUnhandled(reason: unknown): void;
  /** JSON-encoded {@link ActivationResult}; clears the command buffer. */
  conclude(): string;
  /** Answers a JSON-encoded {@link MessageRequest} read-only; JSON-encoded {@link MessageAnswer}. */
  answer(requestJson: string): string;
}

/** A query, or an update's validation, asked of the run's current state. */
export type MessageRequest =
  | { kind: 'query'; queryType: string; args: unknown[]; header?: WireHeaders }
  | { kind: 'validateUpdate'; updateName: string; args: unknown[]; updateId?: string; header?: WireHeaders };

/** The answer to a {@link MessageRequest}: a result, or the failure to report. */
export interface MessageAnswer {
  result?: unknown;
  failure?: FailureInfo;
  /** Set when an async query interceptor answers: the host reads the answer with `answerSettled` once the realm's microtasks ran. */
  pending?: true;
}

/** What the host can ask of a run through the realm: {@link SandboxRuntime}'s methods, and `create`. */
export type RealmMethod = 'create' | 'activate' | 'checkConditions' | 'conclude' | 'answer' | 'answerSettled' | 'rejectUnhandled';

/** The export under which a bundle with `interceptors.workflowModules` holds those modules, beside the workflows. */
export const INTERCEPTOR_MODULES = '__steadfastInterceptorModules';

/** The workflows module, bundled as a CommonJS-style factory that the realm evaluates once per run. */
export type WorkflowModuleFactory = (require: (name: string) => unknown, module: { exports: unknown }, exports: unknown) => void;

/**
 * How the host calls into a realm (passed in as `globalThis.__steadfastMailbox`): it fills in
 * the run, the method and the argument, evaluates the realm's one-line dispatch script, and
 * reads `result`. Every call runs the realm's microtasks to the end before it returns.
 */
export interface RealmMailbox {
  /** The run called: the opaque handle `create` returned. */
  run: unknown;
  method: RealmMethod;
  /** JSON text for `create` (a {@link SandboxInit}), `activate` and `answer`; the reason for `rejectUnhandled`. */
  arg: unknown;
  result: unknown;
  /** The workflows module; set by the host once the realm is made. */
  factory: WorkflowModuleFactory | undefined;
  /**
   * True when globals were added since the realm loaded (the host sees them on the context
   * object for free): before another run is called, the realm parks them with the run that
   * was current. False spares every call the walk over the globals.
   */
  extraGlobals: boolean;
  /**
   * How many `condition()` predicates the called run waits on when the call returns (its
   * microtasks included): the host re-checks them after an activation only when there are any.
   */
  conditions: number;
}

/** Host functions the worker passes into the sandbox (as `globalThis.__steadfastHost`). */
export interface SandboxHost {
  /**
   * Carries the current CancellationScope across awaits: one AsyncLocalStorage shared by every
   * run of the host. Each AsyncLocalStorage instance adds work to every promise the process
   * creates (measured: 29 % of a worker's CPU with one instance per run), so there is one.
   */
  scopeStorage: { run<R>(store: unknown, fn: () => R): R; getStore(): unknown };
  /** Receives workflow `console.*` output and `log` calls outside replay, with the `log` call's attributes. */
  log(level: 'trace' | 'debug' | 'info' | 'warn' | 'error', message: string, info: WorkflowInfo, attrs?: Record<string, unknown>): void;
}
