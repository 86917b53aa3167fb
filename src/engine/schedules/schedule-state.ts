import { ServiceError } from '../../common/errors.ts';
import type { FailureInfo } from '../../common/failure.ts';
import type { ScheduleActionData, ScheduleCounters, ScheduleIncident, ScheduleOverlapPolicy } from '../../protocol/index.ts';
import { compileScheduleSpec, type CompiledScheduleSpec } from '../../schedule/schedule-spec.ts';
import { approximateBytes, ByteBoundedMap } from '../../store/byte-bounded-map.ts';

/** The seed's default catchup window: one minute (Temporal's server now uses a year). */
export const DEFAULT_CATCHUP_WINDOW_MS = 60_000;
/** Most actions a BufferAll (or CancelOther) buffer holds; one more is recorded as an overrun. */
export const MAX_BUFFERED_ACTIONS = 1_000;
/** Recent actions kept (describe shows them all). */
export const RECENT_ACTIONS = 10;
/** Incidents kept, newest last. */
export const KEPT_INCIDENTS = 100;

/** An action waiting in the buffer for the running workflow to close. */
export interface BufferedAction {
  nominal: number;
  manual: boolean;
}

/** A pending backfill: nominal times after `cursor` up to `end` (inclusive), ms. */
export interface PendingBackfill {
  cursor: number;
  end: number;
  overlap: ScheduleOverlapPolicy;
}

/** A workflow the schedule started that has not closed (as far as the schedule heard). */
export interface RunningAction {
  workflowId: string;
  runId: string;
  nominal: number;
}

/** One taken action, for describe's recent actions. */
export interface RecentAction {
  nominal: number;
  takenAt: number;
  workflowId: string;
  runId: string;
  status: string;
}

/** The version of {@link ScheduleState} this code writes and reads. */
export const SCHEDULE_STATE_VERSION = 1;

/**
 * The state of a schedules row, read at {@link SCHEDULE_STATE_VERSION}. A row of another version
 * is refused rather than misread (a later version brings its migration here, as runStateOf does
 * for runs).
 */
export function scheduleStateOf(rec: { state: unknown }): ScheduleState {
  const s = rec.state as ScheduleState | null;
  if (s?.v !== SCHEDULE_STATE_VERSION) {
    throw new ServiceError('Internal', `schedule state version ${String(s?.v)} is not one this engine reads (it reads ${SCHEDULE_STATE_VERSION}); upgrade the server`);
  }
  return s;
}

/** The engine's state of one schedule, stored as the schedules row's JSON. Version 1. */
export interface ScheduleState {
  v: 1;
  spec: unknown;
  action: ScheduleActionData;
  overlap: ScheduleOverlapPolicy;
  catchupWindowMs: number;
  pauseOnFailure: boolean;
  paused: boolean;
  note: string;
  remainingActions?: number;
  updateTime: number;
  /**
   * Bumped by the changes a user makes (update, pause, unpause), not by runs, triggers or
   * backfills: an update made from an older describe is refused. Absent in rows written
   * before it existed, read as 1.
   */
  conflictToken?: number;
  /** Spec times at or before this nominal time have been processed (taken, skipped or missed). */
  processedUntil: number;
  /** The fire timer's row id and due time, when one is armed. */
  timerId?: string;
  timerDue?: number;
  running: RunningAction[];
  buffer: BufferedAction[];
  backfills: PendingBackfill[];
  recent: RecentAction[];
  incidents: ScheduleIncident[];
  counters: ScheduleCounters;
  lastCompletionResult?: unknown;
  lastFailure?: FailureInfo;
}

/** The run id the schedule's timers belong to (its fire timer and its runs' close notices). */
export function scheduleRunId(namespace: string, scheduleId: string): string {
  return `schedule:${namespace}:${scheduleId}`;
}

/** RFC 3339 to the second (milliseconds dropped), as Temporal appends to workflow ids. */
export function rfc3339(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** The id of the workflow started for the action at `nominal`. */
export function actionWorkflowId(state: ScheduleState, nominal: number): string {
  return `${state.action.workflowId}-${rfc3339(nominal)}`;
}

/**
 * Compiled specs by their JSON, at most 1,000 and 16 MiB (approximateBytes of the spec and its
 * key). A compiled spec is far larger than its JSON: 4,000 calendars and cron strings, 146 KB of
 * JSON, took 20 MB of heap (measured), so a count alone bounded nothing.
 */
const compiled = new ByteBoundedMap<CompiledScheduleSpec>(1000, 16 * 1024 * 1024);

/** The state's spec, compiled (cached by its JSON; specs were validated when stored). */
export function specOf(state: ScheduleState): CompiledScheduleSpec {
  const key = JSON.stringify(state.spec);
  let spec = compiled.get(key);
  if (!spec) {
    spec = compileScheduleSpec(state.spec);
    compiled.set(key, spec, approximateBytes(key) + approximateBytes(spec));
  }
  return spec;
}

/** Records an incident (kept bounded) and counts it. */
export function recordIncident(state: ScheduleState, kind: ScheduleIncident['kind'], nominal: number, now: number, detail: string): void {
  state.incidents.push({ kind, scheduledAt: rfc3339(nominal), at: new Date(now).toISOString(), detail });
  if (state.incidents.length > KEPT_INCIDENTS) state.incidents.splice(0, state.incidents.length - KEPT_INCIDENTS);
  const counter = { Skipped: 'skipped', BufferOverrun: 'bufferOverruns', MissedCatchup: 'missedCatchup', Failed: 'failed' } as const;
  state.counters[counter[kind]]++;
}

/** True when spec times are taken: not paused and actions remain. */
export function isActive(state: ScheduleState): boolean {
  return !state.paused && state.remainingActions !== 0;
}
