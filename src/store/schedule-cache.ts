import { approximateBytes, ByteBoundedMap } from './byte-bounded-map.ts';
import type { ScheduleRecord, Transition } from './types.ts';

/** The cache key of a schedule (also what NOTIFY payloads name). */
export function scheduleKey(namespace: string, scheduleId: string): string {
  return `${namespace}\u0000${scheduleId}`;
}

/**
 * Schedule rows as this store last committed them, by namespace and id, at most `capacity` rows
 * and `maxBytes` bytes (approximateBytes: an action's arguments and memo are payloads of up to
 * 2 MiB), oldest-inserted entries evicted first. Filled only after a COMMIT, never by a read; a deleted schedule's entry goes.
 * What it may answer for is the store's decision (PostgreSQL: see `PostgresStore.cachedSchedule`).
 */
/**
 * Schedule rows a store keeps in memory; beyond this many (or a quarter of cacheMaxBytes), the
 * oldest go. A row with its ten recent actions holds about 3.6 KB of heap (measured); its
 * action's arguments and memo may hold 2 MiB each.
 */
export const SCHEDULE_CACHE_SIZE = 10_000;

export class ScheduleCache {
  readonly #map: ByteBoundedMap<ScheduleRecord>;
  constructor(capacity: number, maxBytes: number) {
    this.#map = new ByteBoundedMap(capacity, maxBytes);
  }

  /** The schedule's row, if held. */
  get(namespace: string, scheduleId: string): ScheduleRecord | undefined {
    return this.#map.get(scheduleKey(namespace, scheduleId));
  }

  /** Drops the entry of a {@link scheduleKey}. */
  delete(key: string): void {
    this.#map.delete(key);
  }

  /** Drops every entry. */
  clear(): void {
    this.#map.clear();
  }

  /** Forgets the schedules a transition writes (it failed, or its outcome is unknown). */
  forget(t: Transition): void {
    for (const w of t.schedules ?? []) this.#map.delete(scheduleKey(w.record.namespace, w.record.scheduleId));
  }

  /** Records the schedule rows a committed transition wrote; a deleted one is dropped. */
  remember(t: Transition): void {
    for (const w of t.schedules ?? []) {
      const key = scheduleKey(w.record.namespace, w.record.scheduleId);
      const before = this.#map.get(key);
      // Two batches in flight may settle out of order: a newer cached version is kept.
      if (before && before.version > w.record.version) continue;
      // The written record itself: a ScheduleTx clones the state it reads and is done with the
      // record once it commits.
      if (w.delete) this.#map.delete(key);
      else this.#map.set(key, w.record, approximateBytes(w.record));
    }
  }
}
