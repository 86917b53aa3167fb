import type { CommandType } from '../../history/commands.ts';
import type { EventType } from '../../history/events.ts';
import type { ActivationJobType } from '../../workflow/activation.ts';
import { activityFeature } from './activity.ts';
import { cancelFeature } from './cancel.ts';
import { childFeature } from './child.ts';
import { continueAsNewFeature } from './continue-as-new.ts';
import type { CommandMatcher, EventRole } from './feature.ts';
import { markerFeature } from './marker.ts';
import { searchAttributesFeature } from './search-attributes.ts';
import { signalFeature } from './signal.ts';
import { timerFeature } from './timer.ts';
import { updateFeature } from './update.ts';
import { workflowFeature } from './workflow.ts';

export { ReplayIds } from './replay-ids.ts';
export type { CommandMatcher, EventRole, WorkerFeature } from './feature.ts';
export { localActivityOutcomes, markerJobs, skipPatchMarkers } from './marker.ts';
export { queryHistory, queryRequest } from './query.ts';

/** Every feature of the worker, each the one home of its commands and events. */
export const WORKER_FEATURES = [
  workflowFeature, activityFeature, timerFeature, markerFeature, childFeature, signalFeature, updateFeature, cancelFeature, continueAsNewFeature,
  searchAttributesFeature,
] as const;

/**
 * How each command is matched on replay, from the features. Typed over every command type: a
 * command no feature matches fails to compile.
 */
export const COMMAND_MATCHERS: { readonly [K in CommandType]: CommandMatcher } = {
  ...workflowFeature.commands,
  ...activityFeature.commands,
  ...timerFeature.commands,
  ...markerFeature.commands,
  ...childFeature.commands,
  ...signalFeature.commands,
  ...updateFeature.commands,
  ...cancelFeature.commands,
  ...continueAsNewFeature.commands,
  ...searchAttributesFeature.commands,
};

/**
 * What each event means to a replaying run, from the features. Typed over every event type: an
 * event no feature claims fails to compile.
 */
export const EVENT_ROLES: { readonly [K in EventType]: EventRole<K> } = {
  ...workflowFeature.events,
  ...activityFeature.events,
  ...timerFeature.events,
  ...markerFeature.events,
  ...childFeature.events,
  ...signalFeature.events,
  ...updateFeature.events,
  ...cancelFeature.events,
  ...continueAsNewFeature.events,
  ...searchAttributesFeature.events,
};

/** Name of a feature of {@link WORKER_FEATURES}. */
export type WorkerFeatureName = (typeof WORKER_FEATURES)[number]['name'];

/**
 * The feature whose events make each activation job kind (the runtime's handler of the kind is
 * in src/workflow/activator.ts). Typed over every job kind, as Temporal's internals.ts types its
 * activator: a job kind without a feature fails to compile.
 */
export const JOB_FEATURES: { readonly [K in ActivationJobType]: WorkerFeatureName } = {
  startWorkflow: 'workflow',
  resolveActivity: 'activity',
  fireTimer: 'timer',
  notifyHasPatch: 'marker',
  resolveSideEffect: 'marker',
  resolveLocalActivity: 'marker',
  resolveChildStart: 'child',
  resolveChild: 'child',
  signalWorkflow: 'signal',
  resolveSignalExternal: 'signal',
  doUpdate: 'update',
  cancelWorkflow: 'cancel',
  resolveRequestCancelExternal: 'cancel',
};
