import type { CommandType } from '../history/commands.ts';
import type { DeliveryKind, TimerKind } from '../history/timer-kinds.ts';
import { activityFeature } from './activity/index.ts';
import { cancelFeature } from './cancel/index.ts';
import { childFeature } from './child/index.ts';
import { continueAsNewFeature } from './continue-as-new/index.ts';
import type { CommandHandler, DescribeSection, Feature, Fire, Rebuild } from './core/feature.ts';
import { queryFeature } from './messages/query-feature.ts';
import { resetFeature } from './reset/index.ts';
import { scheduleStartFeature } from './schedules/schedule-feature.ts';
import { searchAttributesFeature } from './visibility/index.ts';
import { signalFeature } from './messages/signal-feature.ts';
import { timerFeature } from './timer/index.ts';
import { updateFeature } from './messages/update-feature.ts';
import { workflowTaskFeature } from './workflow-task/index.ts';

export type { CommandHandler, DescribeSection, Feature, Fire, Rebuild } from './core/feature.ts';

/** The engine's features, in the order their describe sections run. */
export const FEATURES: readonly Feature[] = [
  workflowTaskFeature, activityFeature, timerFeature, childFeature, signalFeature, updateFeature, queryFeature, cancelFeature,
  resetFeature, continueAsNewFeature, scheduleStartFeature, searchAttributesFeature,
];

/** Every command type and the feature handler that applies it; a command no feature handles fails to compile. */
export const COMMAND_HANDLERS: { [K in CommandType]: CommandHandler } = {
  ...workflowTaskFeature.commands, ...activityFeature.commands, ...timerFeature.commands, ...childFeature.commands,
  ...signalFeature.commands, ...updateFeature.commands, ...cancelFeature.commands, ...continueAsNewFeature.commands,
  ...searchAttributesFeature.commands,
};

/** Every true timer kind and the feature that fires it; a kind no feature fires fails to compile. */
export const TIMER_HANDLERS: { [K in TimerKind]: Fire<K> } = {
  ...workflowTaskFeature.timers, ...activityFeature.timers, ...timerFeature.timers, ...continueAsNewFeature.timers,
  ...scheduleStartFeature.timers,
};

/**
 * Every delivery kind and the feature that carries it; a kind no feature carries fails to
 * compile. A delivery is written by the transition that causes it (transactional outbox) and
 * carried by the timer loop at once; a crash between the two leaves the row, carried when its
 * lease ends, so each handler is idempotent.
 */
export const DELIVERY_HANDLERS: { [K in DeliveryKind]: Fire<K> } = {
  ...childFeature.deliveries, ...signalFeature.deliveries, ...cancelFeature.deliveries, ...scheduleStartFeature.deliveries,
};

/** The features' parts of describe, in {@link FEATURES} order. */
export const DESCRIBE_SECTIONS: readonly DescribeSection[] = FEATURES.flatMap((f) => (f.describe ? [f.describe] : []));

/** The features' state rebuilds, in {@link FEATURES} order (a reset run's state, reset.ts). */
export const REBUILDS: readonly Rebuild[] = FEATURES.flatMap((f) => (f.rebuild ? [f.rebuild] : []));
