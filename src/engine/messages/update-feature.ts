import { applyCompleteUpdateCommand, rebuildUpdates } from './updates.ts';
import type { Feature } from '../core/feature.ts';

/** Updates: CompleteWorkflowExecutionUpdate. Its state slice is `messages.updates`; the service calls are in updates.ts. */
export const updateFeature = {
  commands: { CompleteWorkflowExecutionUpdate: applyCompleteUpdateCommand },
  timers: {},
  deliveries: {},
  rebuild: rebuildUpdates,
} satisfies Feature;
