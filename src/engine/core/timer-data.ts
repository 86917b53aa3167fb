import type { TimerRowKind } from '../../history/timer-kinds.ts';
import type { TimerRecord } from '../../store/types.ts';

/**
 * What each kind of timers-table row carries, true timers and deliveries alike. The core's own
 * kinds are here; each feature adds the kinds it arms where it defines them
 * (`declare module '../core/timer-data.ts' { interface TimerRowData { ... } }`). The registries
 * that fire them are mapped types over the kinds (core/feature.ts), so a kind without its data
 * or without its handler fails to compile.
 */
export interface TimerRowData {
  /** The run or execution timeout: whichever deadline comes first. */
  RunTimeout: Record<string, never>;
  /** End of the first workflow task backoff of a retried, continued or cron run. */
  WorkflowBackoff: Record<string, never>;
  /** The start-to-close (or schedule-to-start on a sticky queue) timeout of one workflow task attempt. */
  WorkflowTaskTimeout: { seq: number; attempt: number };
}

/** A timers-table row of kind `K` with its data typed. */
export type Timer<K extends TimerRowKind = TimerRowKind> = TimerRecord<K> & { data: TimerRowData[K] };
