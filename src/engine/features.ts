import type { Feature, FeatureRegistry } from './core/feature.ts';
import { activityFeature } from './activity/index.ts';
import { cancelFeature } from './cancel/index.ts';
import { childFeature } from './child/index.ts';
import { localActivityFeature } from './local-activity/index.ts';
import { continueAsNewFeature } from './continue-as-new/index.ts';
import { cronFeature } from './cron/index.ts';
import { messagesFeature } from './messages/index.ts';
import type { MessageLimits } from './messages/message-state.ts';
import { schedulesFeature } from './schedules/index.ts';
import { searchAttributesFeature } from './visibility/index.ts';
import { timerFeature } from './timer/index.ts';
import { workflowTaskFeature } from './workflow-task/index.ts';

/** What the features are built with (the engine's options). */
export interface FeatureOptions {
  messageLimits: MessageLimits;
}

/**
 * Every feature of the engine, composed once into the registries the core is built with. The
 * command, timer and delivery registries are spelled out so that the compiler checks each is
 * complete: a kind no feature handles fails to compile here. The lists (describe sections,
 * rebuilds, slices, hooks) run in the order of `all`.
 */
export function composeFeatures(o: FeatureOptions): FeatureRegistry {
  const messages = messagesFeature(o.messageLimits);
  const all: readonly Feature[] = [
    workflowTaskFeature, activityFeature, timerFeature, childFeature, messages, cancelFeature, continueAsNewFeature, schedulesFeature,
    searchAttributesFeature, cronFeature, localActivityFeature,
  ];
  const list = <K extends keyof Feature>(key: K): NonNullable<Feature[K]>[] => all.flatMap((f) => (f[key] === undefined ? [] : [f[key]!]));
  return {
    commands: {
      ...workflowTaskFeature.commands, ...activityFeature.commands, ...timerFeature.commands, ...childFeature.commands,
      ...messages.commands, ...cancelFeature.commands, ...continueAsNewFeature.commands, ...searchAttributesFeature.commands,
    },
    timers: {
      ...workflowTaskFeature.timers, ...activityFeature.timers, ...timerFeature.timers, ...continueAsNewFeature.timers, ...schedulesFeature.timers,
    },
    deliveries: { ...childFeature.deliveries, ...messages.deliveries, ...cancelFeature.deliveries, ...schedulesFeature.deliveries },
    describe: list('describe'),
    rebuild: list('rebuild'),
    slices: list('state'),
    onClose: list('onClose'),
    onContinue: list('onContinue'),
    onRunEnding: list('onRunEnding'),
    firstTaskBackoffMs: list('firstTaskBackoffMs'),
    onWorkflowTaskCompleted: list('onWorkflowTaskCompleted'),
  };
}
