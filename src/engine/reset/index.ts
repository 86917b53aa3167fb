import type { Feature } from '../core/feature.ts';

/**
 * Reset: no command, timer or delivery of its own. It builds a new run from the history
 * (reset.ts), hands the children over (reset-children.ts) and sends their deliveries, and names
 * the new run in the terminated run's WorkflowExecutionTerminated (`newExecutionRunId`).
 */
export const resetFeature = { commands: {}, timers: {}, deliveries: {} } satisfies Feature;
