/**
 * The built-in `__temporal_workflow_metadata` query, as Temporal answers it: the workflow's
 * type, the names of the signal, query and update handlers set at the time it is asked, which
 * the web UI offers in its name boxes, and the run's current details (`setCurrentDetails`).
 */
export const WORKFLOW_METADATA_QUERY = '__temporal_workflow_metadata';

/** One handler in the answer; `description` is there when the handler has one. */
export interface InteractionDefinition {
  name: string;
  description?: string;
}

/** The answer of {@link WORKFLOW_METADATA_QUERY}. */
export interface WorkflowMetadata {
  definition: {
    type: string;
    queryDefinitions: InteractionDefinition[];
    signalDefinitions: InteractionDefinition[];
    updateDefinitions: InteractionDefinition[];
  };
  currentDetails: string;
}

const named = (names: Iterable<string>): InteractionDefinition[] => [...names].sort().map((name) => ({ name }));

/** The metadata of a run whose handlers are the keys given; the built-in queries are listed with the others. */
export function workflowMetadata(
  type: string, handlers: { signals: Iterable<string>; queries: Iterable<string>; updates: Iterable<string> }, builtInQueries: readonly string[],
  currentDetails = '',
): WorkflowMetadata {
  return {
    definition: {
      type,
      queryDefinitions: named(new Set([...builtInQueries, ...handlers.queries])),
      signalDefinitions: named(handlers.signals),
      updateDefinitions: named(handlers.updates),
    },
    currentDetails,
  };
}
