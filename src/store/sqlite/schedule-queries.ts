/* The SQLite store's schedule statements and the schedule part of a transition. */
import type BetterSqlite3 from 'better-sqlite3';
import { prepareAll, type Prepared } from './queries.ts';
import { scheduleConflict, scheduleValues, toSchedule } from '../schedule-rows.ts';
import { insertSql, SCHEDULES } from '../columns.ts';
import type { ScheduleRecord, Transition } from '../types.ts';

type Row = Record<string, unknown>;

const SQL = {
  get: 'SELECT * FROM schedules WHERE namespace = @namespace AND schedule_id = @scheduleId',
  list: `SELECT * FROM schedules WHERE namespace = @namespace AND schedule_id > @afterId
    ORDER BY schedule_id LIMIT @limit`,
  version: 'SELECT version FROM schedules WHERE namespace = @namespace AND schedule_id = @scheduleId',
  insert: insertSql('sqlite', 'schedules', SCHEDULES),
  update: `UPDATE schedules SET state = @state, version = @version
    WHERE namespace = @namespace AND schedule_id = @scheduleId AND version = @expectedVersion`,
  remove: 'DELETE FROM schedules WHERE namespace = @namespace AND schedule_id = @scheduleId AND version = @expectedVersion',
} as const;

/** The schedule statements of one connection, prepared once. */
export class SqliteSchedules {
  readonly #q: Prepared<typeof SQL>;

  constructor(db: BetterSqlite3.Database) {
    this.#q = prepareAll(db, SQL);
  }

  get(namespace: string, scheduleId: string): ScheduleRecord | undefined {
    const row = this.#q.get.get({ namespace, scheduleId }) as Row | undefined;
    return row ? toSchedule(row) : undefined;
  }

  list(namespace: string, afterId: string | undefined, limit: number): ScheduleRecord[] {
    return (this.#q.list.all({ namespace, afterId: afterId ?? '', limit }) as Row[]).map(toSchedule);
  }

  /** The conflict the transition's schedule writes would meet, by reads alone. */
  check(t: Transition): Error | undefined {
    for (const w of t.schedules ?? []) {
      const row = this.#q.version.get({ namespace: w.record.namespace, scheduleId: w.record.scheduleId }) as { version: number } | undefined;
      const err = scheduleConflict(w, row?.version);
      if (err) return err;
    }
    return undefined;
  }

  /** Writes the transition's schedule rows (inside its transaction). */
  apply(t: Transition): void {
    for (const w of t.schedules ?? []) {
      const r = w.record;
      const key = { namespace: r.namespace, scheduleId: r.scheduleId };
      if (w.expectedVersion === undefined) {
        const err = scheduleConflict(w, (this.#q.version.get(key) as { version: number } | undefined)?.version);
        if (err) throw err;
        this.#q.insert.run(...scheduleValues(r));
        continue;
      }
      const res = w.delete ? this.#q.remove.run({ ...key, expectedVersion: w.expectedVersion })
        : this.#q.update.run({ ...key, state: JSON.stringify(r.state), version: r.version, expectedVersion: w.expectedVersion });
      if (res.changes !== 1) throw scheduleConflict(w, undefined)!;
    }
  }
}
