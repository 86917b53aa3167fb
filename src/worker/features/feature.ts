import type { CommandType } from '../../history/commands.ts';
import type { EventType, HistoryEvent } from '../../history/events.ts';
import type { ActivationJob } from '../../workflow/activation.ts';
import type { ReplayIds } from './replay-ids.ts';

/**
 * How one command shows up in history on replay: the event types it may produce and the
 * attributes that must agree (Temporal's rules: activity type and id, timer id, marker name).
 * Arguments, timeouts and durations are free to change between deployments.
 */
export interface CommandMatcher {
  readonly events: readonly EventType[];
  readonly keys: readonly string[];
}

/**
 * What one event type means to a replaying run: it wakes workflow code (an activation job),
 * it records a command the code must produce again (matched; `remember` keeps the ids later
 * events refer to), it belongs to the workflow task itself, or it concerns no workflow code.
 */
export type EventRole<K extends EventType> =
  | { readonly role: 'wakes'; readonly job: (event: HistoryEvent<K>, ids: ReplayIds) => ActivationJob | undefined }
  | { readonly role: 'records'; readonly remember?: (event: HistoryEvent<K>, ids: ReplayIds) => void }
  | { readonly role: 'task' }
  | { readonly role: 'silent' };

/**
 * One feature's part of the worker: the commands it emits with their replay matchers, and the
 * role of each event type it owns. The registry (index.ts) spreads every feature into maps
 * typed over all command and event types, so an event or command no feature claims fails to
 * compile.
 */
export interface WorkerFeature<C extends CommandType, E extends EventType, N extends string = string> {
  readonly name: N;
  readonly commands: { readonly [K in C]: CommandMatcher };
  readonly events: { readonly [K in E]: EventRole<K> };
}

/** Declares a feature, inferring its command and event types from the maps given. */
export function defineFeature<C extends CommandType, E extends EventType, N extends string>(feature: WorkerFeature<C, E, N>): WorkerFeature<C, E, N> {
  return feature;
}

/** The event wakes workflow code with the job `job` makes (undefined: it wakes nothing in this run). */
export function wakes<K extends EventType>(job: (event: HistoryEvent<K>, ids: ReplayIds) => ActivationJob | undefined): EventRole<K> {
  return { role: 'wakes', job };
}

/** The event records a command; `remember` keeps what later events of the run refer back to. */
export function records<K extends EventType>(remember?: (event: HistoryEvent<K>, ids: ReplayIds) => void): EventRole<K> {
  return remember ? { role: 'records', remember } : { role: 'records' };
}

/** The event belongs to the workflow task's own bookkeeping (the run reads it directly). */
export const TASK = { role: 'task' } as const;

/** The event concerns no workflow code (ActivityTaskStarted, a termination, a run timeout). */
export const SILENT = { role: 'silent' } as const;
