/** Schedules in the engine: state, fire timers, overlap policies and operations. */
export { ScheduleOps } from './schedule-ops.ts';
export { fireScheduleTimer, isScheduleTimer, SCHEDULE_TIMER_KINDS, ACTIONS_PER_FIRE } from './schedule-fire.ts';
export { scheduledRunClosed, carryScheduledBy, type ScheduledBy } from './scheduled-by.ts';
export { DEFAULT_CATCHUP_WINDOW_MS, MAX_BUFFERED_ACTIONS } from './schedule-state.ts';
