import type { WireHeaders } from '../../common/headers.ts';
import { ServiceError } from '../../common/errors.ts';
import type { EventAttributes, EventType, ParentExecutionRef, WorkflowTaskFailedCause } from '../../history/events.ts';
import type { RetryPolicyData } from '../../retry/policy-data.ts';
import type { UserMetadata } from '../../history/user-metadata.ts';

/**
 * The mutable state of one run, kept as JSON in its execution row so that a transition never
 * re-reads history: the core's part and each feature's slice, under one version. Times are ms
 * since the epoch on the injected clock. Rows are read through {@link runStateOf}, which brings
 * a row of an older version up to this one.
 */
export type RunState = { v: typeof RUN_STATE_VERSION } & CoreRunState & RunSlices;

/**
 * The features' slices of the run state. Empty here: each feature adds its fields where it is
 * defined (`declare module '../core/state.ts' { interface RunSlices { ... } }`) and declares
 * their initial values and migrations as its `state` (a {@link StateSlice}).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RunSlices {}

/**
 * A feature's slice of the run state: its fields of {@link RunSlices}, their values in a new run,
 * and how a row written before the slice existed (run state version 1) is brought up to date.
 */
export interface StateSlice {
  /** The slice's fields in a new run (a fresh object each call). */
  initial(): Partial<RunSlices>;
  /** Brings the slice of a state read at version `from` up to the current version, in place. */
  migrate?(s: Partial<RunSlices>, from: number): void;
}

/**
 * The version of {@link RunState} this code writes. Version 1 is every row without `v`: the
 * feature slices (messages, children, cancel requests) were created on first use, so such a
 * row may lack them.
 */
export const RUN_STATE_VERSION = 2;

/**
 * The run state of an execution row, migrated to {@link RUN_STATE_VERSION} when the row is older
 * (on a shallow copy: the row itself is not changed): a slice a version-1 row lacks gets its
 * initial value, then each slice's `migrate` runs. A row of a newer version than this code knows
 * is refused rather than misread.
 */
export function runStateOf(rec: { state: unknown }, slices: readonly StateSlice[]): RunState {
  const raw = rec.state as Record<string, unknown> & { v?: number };
  const from = raw.v ?? 1;
  if (from === RUN_STATE_VERSION) return raw as unknown as RunState;
  if (from > RUN_STATE_VERSION || !Number.isInteger(from) || from < 1) {
    throw new ServiceError('Internal', `run state version ${String(raw.v)} is not one this engine reads (it reads 1 to ${RUN_STATE_VERSION}); upgrade the server`);
  }
  const s: Record<string, unknown> = { ...raw };
  for (const slice of slices) {
    for (const [key, value] of Object.entries(slice.initial())) s[key] ??= value;
    slice.migrate?.(s as Partial<RunSlices>, from);
  }
  s.v = RUN_STATE_VERSION;
  return s as unknown as RunState;
}

/**
 * The core's part of the run state of an execution row, for a reader that needs none of the
 * features' slices (they are not brought up to date).
 */
export function coreStateOf(rec: { state: unknown }): { v: typeof RUN_STATE_VERSION } & CoreRunState {
  return runStateOf(rec, []);
}

/** Bytes of a run's history as its row counts them (undefined for rows written before the size was kept). */
export function historySizeOf(rec: { state: unknown }): number | undefined {
  return coreStateOf(rec).historySizeBytes;
}

/** The core's part of the run state: its config, workflow tasks, buffered events, cancel and terminate, its chain. */
export interface CoreRunState {
  cfg: RunConfig;
  /** The WorkflowBackoff timer of a start delay not yet over (see endStartDelay in start.ts). */
  startDelayTimerId?: string;
  /** Last workflow task sequence number handed out; identifies a workflow task across attempts. */
  wtSeq: number;
  /** The scheduled or started workflow task, if any. */
  wt?: WorkflowTaskInfo | undefined;
  /** Attempt of the next workflow task: 1, or more after consecutive failures and timeouts. */
  wtAttempt: number;
  /**
   * Why the last attempt of the workflow task failed, while attempts keep failing (cleared when
   * one completes). Later attempts are transient, so this is the only record of their failures.
   */
  wtLastFailure?: WorkflowTaskFailureRecord;
  /** Started-event id of the last completed workflow task; 0 before the first. */
  previousStartedEventId: number;
  /** Events that arrived while a workflow task was started; appended after its completion. */
  buffered: BufferedEvent[];
  cancelRequested: boolean;
  /** Request id of the cancel request that set cancelRequested: its repeat succeeds, also after the run closed. */
  cancelRequestId?: string;
  /** Request id of the terminate request that closed the run: its repeat succeeds. */
  terminateRequestId?: string;
  /**
   * Bytes of the run's history, each event counted as its UTF-8 JSON. Absent until the first
   * event is counted (rows written before the size was kept count from their next event on).
   */
  historySizeBytes?: number;
  continuedFromRunId?: string;
  continuedAsNewToRunId?: string;
  /** The parent of a child workflow's run, carried along the child's chain. */
  parent?: ParentExecutionRef;
  /** Result of the chain's last completed run, passed to every later run (`getLastCompletionResult()`). */
  lastCompletionResult?: unknown;
}

/** Per-run settings resolved at start. */
export interface RunConfig {
  args: unknown[];
  workflowTaskTimeoutMs: number;
  workflowRunTimeoutMs?: number;
  workflowExecutionTimeoutMs?: number;
  retryPolicy?: RetryPolicyData;
  /** When the chain's execution timeout ends it, ms. */
  expirationTime?: number;
  /** Start time of the chain's first run, ms (for the retry policy's expiration interval). */
  chainStartTime: number;
  cronSchedule?: string;
  /** Headers of the start; continue-as-new carries them to the next run unless it gives its own. */
  header?: WireHeaders;
  /** The start's static summary and details; the chain's later runs keep them. */
  userMetadata?: UserMetadata;
}

/** A failed workflow task attempt, as describe shows it; the stack is cut to its first frames. */
export interface WorkflowTaskFailureRecord {
  /** Why the attempt failed; `TimedOut` when no answer came within the workflow task timeout. */
  cause: WorkflowTaskFailedCause | 'TimedOut';
  message: string;
  type?: string;
  stack?: string;
  attempt: number;
  /** ms since the epoch. */
  time: number;
  identity: string;
}

/** A workflow task that is scheduled or started. */
export interface WorkflowTaskInfo {
  seq: number;
  attempt: number;
  taskQueue: string;
  scheduledTime: number;
  /** Id of the task row waiting on the queue (until started). */
  taskId?: string;
  /**
   * A transient task (attempt > 1 after a failure or timeout) has no persisted Scheduled/Started
   * events: its ids are assigned when it starts and written only when it completes.
   */
  transient: boolean;
  scheduledEventId?: number;
  startedEventId?: number;
  startedTime?: number;
  timeoutTimerId?: string;
  identity?: string;
  requestId?: string;
  /** The started task's WorkflowTaskStarted suggests continue-as-new (a transient task's is written at its completion). */
  suggestContinueAsNew?: true;
}

/**
 * An event waiting for the started workflow task to finish. `linkStartedToPrevious` sets
 * `attributes.startedEventId` to the id of the event buffered just before it (the
 * ActivityTaskStarted written together with an activity's close event).
 */
export interface BufferedEvent {
  eventType: EventType;
  eventTime: string;
  attributes: EventAttributes[EventType];
  linkStartedToPrevious?: boolean;
}

/** A fresh state for a new run: the core's part and each feature's slice. */
export function initialState(cfg: RunConfig, slices: readonly StateSlice[]): RunState {
  const state = { v: RUN_STATE_VERSION, cfg, wtSeq: 0, wtAttempt: 1, previousStartedEventId: 0, buffered: [], cancelRequested: false };
  for (const slice of slices) Object.assign(state, slice.initial());
  return state as unknown as RunState;
}

/** What a task row carries. */
export type TaskData = { seq: number } | { scheduledEventId: number; attempt: number };
