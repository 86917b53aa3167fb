import { defineFeature, records } from './feature.ts';

/**
 * Continue-as-new closes the run and names the next; the next run replays its own history. A
 * cron or retry continuation records the run's complete or fail command instead (workflow.ts).
 */
export const continueAsNewFeature = defineFeature({
  name: 'continue-as-new',
  commands: {
    ContinueAsNewWorkflowExecution: { events: ['WorkflowExecutionContinuedAsNew'], keys: [] },
  },
  events: {
    WorkflowExecutionContinuedAsNew: records(),
  },
});
