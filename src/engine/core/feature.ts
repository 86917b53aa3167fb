import type { CommandType } from '../../history/commands.ts';
import type { HistoryEvent } from '../../history/events.ts';
import type { WorkflowExecutionDescription } from '../../protocol/index.ts';
import type { DeliveryKind, TimerKind } from '../../history/timer-kinds.ts';
import type { CommandContext } from './commands.ts';
import type { EngineCore } from './engine-core.ts';
import type { RunState } from './state.ts';
import type { Timer } from './timer-data.ts';
import type { TransitionBuilder } from './transition.ts';

/** Validates one command's attributes against the run's state and applies it to the transition. */
export type CommandHandler = (ctx: CommandContext, attributes: Record<string, unknown>) => void;

/** Fires one row of the timers table of kind `K` (a true timer or a delivery). */
export type Fire<K extends TimerKind | DeliveryKind> = (core: EngineCore, timer: Timer<K>) => Promise<void>;

/** Fills a feature's part of describeWorkflowExecution's answer from the run's state. */
export type DescribeSection = (s: RunState, d: WorkflowExecutionDescription, now: number) => void;

/**
 * Rebuilds a feature's slice of a new run's state from the history the run starts with: a
 * reset run's copied events and the events re-applied after them (reset.ts). It re-arms what the
 * copied history leaves pending (tasks, timers, deliveries), as the original run had armed it.
 */
export type Rebuild = (b: TransitionBuilder, events: readonly HistoryEvent[]) => void;

/**
 * What one feature of the engine declares in one place: the commands it handles, the true
 * timers it arms, the deliveries it sends to other runs, its part of `describe`, and how its
 * part of the run state is rebuilt from a history (`rebuild`: a reset run has nothing else to
 * start from, so a feature whose state a history implies must have one). Its slice of the run
 * state is a type in RunState (state.ts). The registries in index.ts are mapped types over the
 * kinds, composed from the features, so a kind no feature handles fails to compile.
 */
export interface Feature {
  commands: { [K in CommandType]?: CommandHandler };
  timers: { [K in TimerKind]?: Fire<K> };
  deliveries: { [K in DeliveryKind]?: Fire<K> };
  describe?: DescribeSection;
  rebuild?: Rebuild;
}
