/* The schedules table's rows, shared by both dialects. */
import { StoreConflictError } from './errors.ts';
import type { ScheduleRecord, ScheduleWrite } from './types.ts';

type Row = Record<string, unknown>;

/** A schedules row as a record. */
export function toSchedule(row: Row): ScheduleRecord {
  return {
    namespace: String(row.namespace), scheduleId: String(row.schedule_id), createTime: Number(row.create_time),
    version: Number(row.version), state: JSON.parse(String(row.state)),
  };
}

/** The conflict a schedule write meets when the stored version is `stored` (undefined: no row). */
export function scheduleConflict(w: ScheduleWrite, stored: number | undefined): StoreConflictError | undefined {
  const { namespace, scheduleId } = w.record;
  if (w.expectedVersion === undefined) {
    return stored === undefined ? undefined : new StoreConflictError('scheduleExists', `schedule ${scheduleId} exists in namespace ${namespace}`);
  }
  return stored === w.expectedVersion ? undefined
    : new StoreConflictError('scheduleVersion', `schedule ${scheduleId} changed since version ${w.expectedVersion}`);
}
