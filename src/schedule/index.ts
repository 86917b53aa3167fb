/**
 * steadfast/schedule: the languages of cron jobs and schedules, and when they fire.
 * `parseCronSchedule` reads a workflow's `cronSchedule` as robfig/cron does; `compileScheduleSpec`
 * reads a schedule's spec (intervals, calendars, cron strings, exclusions, bounds, jitter, time
 * zone) as Temporal does. Both compute next fire times in any IANA zone, daylight saving included.
 */
export { CronSyntaxError } from './errors.ts';
export { parseCronSchedule, type CronSchedule } from './cron.ts';
export {
  compileScheduleSpec, CompiledScheduleSpec, MAX_EXCLUDED_CANDIDATES,
  type ScheduleSpec, type IntervalSpec, type Instant, type CanonicalScheduleSpec, type ActionTime,
} from './schedule-spec.ts';
export type { CalendarSpec, CalendarField, CalendarRange, CalendarValue } from './calendar-spec.ts';
export type { CanonicalCalendar } from './canonical.ts';
export { MIN_YEAR, MAX_YEAR } from './field.ts';
