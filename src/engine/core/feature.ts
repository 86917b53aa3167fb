import type { CommandType } from '../../history/commands.ts';
import type { DeliveryKind, TimerKind } from '../../history/timer-kinds.ts';
import type { TimerRecord } from '../../store/types.ts';
import type { CommandHandler, DescribeSection, Fire, Rebuild } from './engine-core.ts';
import type { StateSlice } from './state.ts';
import type { TimerRowData } from './timer-data.ts';
import type { NewRunView, RunOutcome, TransitionBuilder, WorkflowTaskCompletionReport } from './transition.ts';

export type { CommandHandler, DescribeSection, Fire, FeatureRegistry, Rebuild } from './engine-core.ts';
export type { StateSlice } from './state.ts';
export type { NewRunView, RunOutcome, WorkflowTaskCompletionReport } from './transition.ts';

/** What one run timer does when it fires, inside its run's transition (which consumes its row). */
export type RunTimerHandler<K extends TimerKind> = (b: TransitionBuilder, data: TimerRowData[K], timer: TimerRecord<K>) => void;

/**
 * What one feature of the engine declares in one place: the commands it handles, the timers it
 * arms and the deliveries it sends to other runs (each fired here), its part of `describe`, how
 * its state is rebuilt from a history, its slice of the run state, and the moments of a run's
 * life it takes part in. features.ts composes them into the {@link FeatureRegistry} the core is
 * built with; its registries are mapped types over the kinds, so a command, timer or delivery
 * kind no feature handles fails to compile.
 */
export interface Feature {
  commands?: { [K in CommandType]?: CommandHandler };
  timers?: { [K in TimerKind]?: Fire<K> };
  deliveries?: { [K in DeliveryKind]?: Fire<K> };
  describe?: DescribeSection;
  rebuild?: Rebuild;
  state?: StateSlice;
  /** In the transition that closes a run, after its close event: tell others, clear the slice. */
  onClose?: (b: TransitionBuilder) => void;
  /** In the transition that continues a run's chain (continue-as-new, retry, cron): carry the slice to `next`. */
  onContinue?: (from: TransitionBuilder, next: TransitionBuilder) => void;
  /**
   * Before a run ends with `outcome`: true when the feature ended it itself (a cron run continues
   * its chain as new instead of closing), so the caller writes no close.
   */
  onRunEnding?: (b: TransitionBuilder, outcome: RunOutcome, workflowTaskCompletedEventId?: number) => boolean;
  /** The delay before a new run's first workflow task, when the feature sets one (a cron chain's first fire time). */
  firstTaskBackoffMs?: (run: NewRunView, now: number) => number | undefined;
  /** In the transition that records a workflow task's completion, after its commands: keep what the completion reports. */
  onWorkflowTaskCompleted?: (b: TransitionBuilder, completion: WorkflowTaskCompletionReport) => void;
}

/** A timer kind fired inside its run's transition, as one line of a feature's `timers`. */
export function runTimer<K extends TimerKind>(apply: RunTimerHandler<K>): Fire<K> {
  return (core, timer) => core.mutate(timer.runId, (b) => applyRunTimer(b, timer, apply));
}

/** Applies a fired run timer to its run's transition, consuming the timer row in it. */
export function applyRunTimer<K extends TimerKind>(b: TransitionBuilder, timer: TimerRecord<K>, apply: RunTimerHandler<K>): void {
  b.consumeTimerId = timer.id;
  apply(b, timer.data as TimerRowData[K], timer);
}
