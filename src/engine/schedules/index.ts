import type { Feature } from '../core/feature.ts';
import { fireScheduleTimer } from './schedule-fire.ts';
import { carryScheduledBy, scheduledRunClosed } from './scheduled-by.ts';

/** Schedules in the engine: state, fire timers, overlap policies and operations. */
export { ScheduleOps } from './schedule-ops.ts';
export { fireScheduleTimer, isScheduleTimer, SCHEDULE_TIMER_KINDS, ACTIONS_PER_FIRE } from './schedule-fire.ts';
export { DEFAULT_CATCHUP_WINDOW_MS, MAX_BUFFERED_ACTIONS } from './schedule-state.ts';

// Needs visibility/: a schedule's action is checked against its namespace's search attributes.

/**
 * Runs started by schedules: the ScheduleFire timer of a schedule, and the ScheduleRunClosed
 * delivery a closing run sends to the schedule that started its chain. Its state slice is
 * `scheduledBy` (scheduled-by.ts), carried along the chain.
 */
export const schedulesFeature = {
  timers: { ScheduleFire: fireScheduleTimer },
  deliveries: { ScheduleRunClosed: fireScheduleTimer },
  onClose: scheduledRunClosed,
  onContinue: carryScheduledBy,
} satisfies Feature;
