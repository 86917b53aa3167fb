import type { Feature } from '../core/feature.ts';

/**
 * Queries: no command, timer, delivery or state. A query is answered by a worker through
 * query tasks that live only while the caller waits (queries.ts).
 */
export const queryFeature = { commands: {}, timers: {}, deliveries: {} } satisfies Feature;
