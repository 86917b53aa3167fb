import { mergeSearchAttributes } from '../../history/search-attribute-values.ts';
import type { SearchAttributeValue } from '../../visibility/attributes.ts';
import { commandSearchAttributes } from './search-attributes.ts';
import type { Feature } from '../core/feature.ts';

/**
 * Search attributes set by workflow code: the UpsertWorkflowSearchAttributes command, checked
 * against the namespace's registered attributes (loaded before the transaction, only for a
 * completion that carries attributes), recorded as the UpsertWorkflowSearchAttributes event and
 * applied to the run's row, whose visibility row the store writes in the same transaction. The
 * run's attributes live on the execution record (`searchAttributes`), not in a state slice;
 * continue-as-new, retries and cron carry them to the next run (runs.ts).
 */
export const searchAttributesFeature = {
  commands: {
    UpsertWorkflowSearchAttributes({ b, completedEventId, definitions }, a) {
      const changes = commandSearchAttributes(definitions, b.record.namespace, a.searchAttributes, 'upsertSearchAttributes');
      b.append('UpsertWorkflowSearchAttributes', { searchAttributes: changes, workflowTaskCompletedEventId: completedEventId });
      const merged = mergeSearchAttributes<SearchAttributeValue>(b.record.searchAttributes, changes);
      if (merged) b.record.searchAttributes = merged;
      else delete b.record.searchAttributes;
    },
  },
} satisfies Feature;
