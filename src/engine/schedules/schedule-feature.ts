import { fireScheduleTimer } from './index.ts';
import type { Feature } from '../core/feature.ts';

/**
 * Runs started by schedules: the ScheduleFire timer of a schedule and the ScheduleRunClosed
 * delivery a closing run sends to the schedule that started its chain. Its state slice is
 * `scheduledBy` (schedules/scheduled-by.ts).
 */
export const scheduleStartFeature = {
  commands: {},
  timers: { ScheduleFire: fireScheduleTimer },
  deliveries: { ScheduleRunClosed: fireScheduleTimer },
} satisfies Feature;
