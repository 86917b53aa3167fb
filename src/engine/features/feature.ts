import type { CommandType } from '../../history/commands.ts';
import type { WorkflowExecutionDescription } from '../../protocol/index.ts';
import type { DeliveryKind, TimerKind } from '../../history/timer-kinds.ts';
import type { CommandContext } from '../commands.ts';
import type { EngineCore } from '../core.ts';
import type { RunState } from '../state.ts';
import type { Timer } from '../timer-data.ts';

/** Validates one command's attributes against the run's state and applies it to the transition. */
export type CommandHandler = (ctx: CommandContext, attributes: Record<string, unknown>) => void;

/** Fires one row of the timers table of kind `K` (a true timer or a delivery). */
export type Fire<K extends TimerKind | DeliveryKind> = (core: EngineCore, timer: Timer<K>) => Promise<void>;

/** Fills a feature's part of describeWorkflowExecution's answer from the run's state. */
export type DescribeSection = (s: RunState, d: WorkflowExecutionDescription, now: number) => void;

/**
 * What one feature of the engine declares in one place: the commands it handles, the true
 * timers it arms, the deliveries it sends to other runs, and its part of `describe`. Its slice
 * of the run state is a type in RunState (state.ts). The registries in index.ts are mapped
 * types over the kinds, composed from the features, so a kind no feature handles fails to
 * compile.
 */
export interface Feature {
  commands: { [K in CommandType]?: CommandHandler };
  timers: { [K in TimerKind]?: Fire<K> };
  deliveries: { [K in DeliveryKind]?: Fire<K> };
  describe?: DescribeSection;
}
