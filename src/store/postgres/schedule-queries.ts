/* The PostgreSQL store's schedule statements and the schedule part of a transition. */
import type pg from 'pg';
import { scheduleConflict, scheduleValues, toSchedule } from '../schedule-rows.ts';
import { insertSql, SCHEDULES } from '../columns.ts';
import type { ScheduleRecord, Transition } from '../types.ts';

/** Each schedule query's one home. */
const SCHEDULE_SQL = {
  get: 'SELECT * FROM schedules WHERE namespace = $1 AND schedule_id = $2',
  list: 'SELECT * FROM schedules WHERE namespace = $1 AND schedule_id > $2 ORDER BY schedule_id LIMIT $3',
  insert: `${insertSql('postgres', 'schedules', SCHEDULES)} ON CONFLICT DO NOTHING`,
  update: 'UPDATE schedules SET state = $3, version = $4 WHERE namespace = $1 AND schedule_id = $2 AND version = $5',
  remove: 'DELETE FROM schedules WHERE namespace = $1 AND schedule_id = $2 AND version = $3',
} as const;

type Query = (sql: string, params: unknown[]) => Promise<pg.QueryResult>;

/** The schedule of that id. */
export async function getSchedule(query: Query, namespace: string, scheduleId: string): Promise<ScheduleRecord | undefined> {
  const row = (await query(SCHEDULE_SQL.get, [namespace, scheduleId])).rows[0] as Record<string, unknown> | undefined;
  return row ? toSchedule(row) : undefined;
}

/** A page of schedules in id order. */
export async function listSchedules(query: Query, namespace: string, afterId: string | undefined, limit: number): Promise<ScheduleRecord[]> {
  return (await query(SCHEDULE_SQL.list, [namespace, afterId ?? '', limit])).rows.map((r) => toSchedule(r as Record<string, unknown>));
}

/** Writes the transition's schedule rows inside its transaction; a lost race is a StoreConflictError. */
export async function applySchedules(c: pg.PoolClient, t: Transition): Promise<void> {
  for (const w of t.schedules ?? []) {
    const r = w.record;
    let changed: number | null;
    if (w.expectedVersion === undefined) {
      changed = (await c.query(SCHEDULE_SQL.insert, scheduleValues(r))).rowCount;
      if (changed !== 1) throw scheduleConflict(w, 0)!;
      continue;
    }
    changed = w.delete ? (await c.query(SCHEDULE_SQL.remove, [r.namespace, r.scheduleId, w.expectedVersion])).rowCount
      : (await c.query(SCHEDULE_SQL.update, [r.namespace, r.scheduleId, JSON.stringify(r.state), r.version, w.expectedVersion])).rowCount;
    if (changed !== 1) throw scheduleConflict(w, undefined)!;
  }
}
