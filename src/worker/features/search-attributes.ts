import { defineFeature, records } from './feature.ts';

/**
 * Search attributes set by workflow code (upsertSearchAttributes): the command matches its
 * UpsertWorkflowSearchAttributes event by type, with no keys, as Temporal's SDKs match it
 * outside strict mode; the values, like activity arguments, may change between deployments.
 */
export const searchAttributesFeature = defineFeature({
  name: 'searchAttributes',
  commands: {
    UpsertWorkflowSearchAttributes: { events: ['UpsertWorkflowSearchAttributes'], keys: [] },
  },
  events: {
    UpsertWorkflowSearchAttributes: records(),
  },
});
