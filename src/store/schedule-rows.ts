/* The schedules table's rows, shared by both dialects. */
import { StoreConflictError } from './errors.ts';
import type { ScheduleRecord, ScheduleWrite } from './types.ts';
import { type ColumnName, SCHEDULES } from './columns.ts';

type Row = Record<string, unknown>;

/** A schedules row as a record. */
export function toSchedule(row: Row): ScheduleRecord {
  return {
    namespace: String(row.namespace), scheduleId: String(row.schedule_id), createTime: Number(row.create_time),
    version: Number(row.version), state: JSON.parse(String(row.state)),
  };
}

/** A new schedule's values, in the order of {@link SCHEDULES}, which both dialects' insert statements are made of. */
export function scheduleValues(r: ScheduleRecord): unknown[] {
  const row: Record<ColumnName<typeof SCHEDULES>, unknown> = {
    namespace: r.namespace, schedule_id: r.scheduleId, create_time: r.createTime, state: JSON.stringify(r.state), version: r.version,
  };
  return SCHEDULES.map((c) => row[c.column]);
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
