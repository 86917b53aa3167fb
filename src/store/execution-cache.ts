import type { HistoryEvent } from '../history/events.ts';
import { approximateBytes, ByteBoundedMap } from './byte-bounded-map.ts';
import type { ExecutionRecord, Transition } from './types.ts';

/** Most events kept in memory per run; a longer history is read from the database. */
const MAX_CACHED_EVENTS = 256;

/** One run as a store last committed it. */
interface CachedRun {
  rec: ExecutionRecord;
  /** The run's events from `firstEventId` to its last committed one, when all are known here. */
  events: HistoryEvent[] | undefined;
  firstEventId: number;
  /** The estimated bytes of `events`, kept so that appending events does not measure the earlier ones again. @default measured */
  eventBytes?: number;
}

/**
 * Execution rows (and their recent events) as this store last committed them, by run id, at
 * most `capacity` runs and `maxBytes` bytes (approximateBytes of the row and its events),
 * oldest-inserted entries evicted first. Filled only after a COMMIT, never by a read; what it
 * may answer for is the store's decision (SQLite: everything, as the file's only writer;
 * PostgreSQL: see `PostgresStore.cachedExecution`).
 */
/** Execution rows a store keeps in memory; beyond this many (or its cacheMaxBytes), the oldest go. */
export const EXECUTION_CACHE_SIZE = 10_000;

export class ExecutionCache {
  readonly #map: ByteBoundedMap<CachedRun>;
  constructor(capacity: number, maxBytes: number) {
    this.#map = new ByteBoundedMap(capacity, maxBytes);
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.#map.bytes;
  }

  /** The run's entry, if held. */
  get(runId: string): CachedRun | undefined {
    return this.#map.get(runId);
  }

  /** Holds an entry, evicting the oldest beyond capacity or bytes. */
  set(entry: CachedRun): void {
    const eventBytes = entry.events ? (entry.eventBytes ?? approximateBytes(entry.events)) : 0;
    this.#map.set(entry.rec.runId, { ...entry, eventBytes }, approximateBytes(entry.rec) + eventBytes);
  }

  /** Drops the run's entry. */
  delete(runId: string): void {
    this.#map.delete(runId);
  }

  /** Drops every entry. */
  clear(): void {
    this.#map.clear();
  }

  /** Forgets the runs a transition writes (it failed, or its outcome is unknown). */
  forget(t: Transition): void {
    for (const w of t.executions) this.#map.delete(w.record.runId);
  }

  /**
   * Records the rows a committed transition wrote. `seqs[i]` is the seq the store gave the
   * i-th execution if it inserted it (an update's record carries the seq it was read with); a
   * row whose seq is not known is forgotten instead.
   */
  remember(t: Transition, seqs: readonly (number | undefined)[]): void {
    t.executions.forEach((w, i) => {
      const before = this.#map.get(w.record.runId);
      // Two batches in flight may settle out of order: a newer cached version is kept.
      if (before && before.rec.version > w.record.version) return;
      // An update's cached row is kept only if it is the version this transition replaced.
      const prior = w.expectedVersion !== undefined && before?.rec.version === w.expectedVersion ? before : undefined;
      const seq = seqs[i] ?? w.record.seq ?? prior?.rec.seq;
      if (seq === undefined) {
        this.#map.delete(w.record.runId);
        return;
      }
      // Events are kept while every one since the first kept is known: a new run's from event 1,
      // an older run's from the first transition this store committed for it.
      let events: HistoryEvent[] | undefined;
      let firstEventId = w.events[0]?.eventId ?? 0;
      let eventBytes = 0;
      if (w.expectedVersion === undefined) events = [...w.events];
      else if (prior?.events && prior.firstEventId + prior.events.length === (w.events[0]?.eventId ?? w.record.nextEventId)) {
        events = prior.events.concat(w.events);
        firstEventId = prior.firstEventId;
        eventBytes = prior.eventBytes ?? approximateBytes(prior.events);
      }
      if (events && events.length > MAX_CACHED_EVENTS) events = undefined;
      if (events) eventBytes += approximateBytes(w.events);
      // The written record itself: a transition's builder is done with it once it commits, and
      // readers never change a record (a TransitionBuilder copies the row and clones its state).
      this.set({ rec: { ...w.record, seq }, events, firstEventId, eventBytes });
    });
  }

  /**
   * Events `fromEventId` to `fromEventId + limit - 1` of a run when every one of them is cached
   * (committed events never change), else undefined.
   */
  history(runId: string, fromEventId: number, limit: number): HistoryEvent[] | undefined {
    if (limit <= 0) return [];
    const c = this.#map.get(runId);
    if (!c?.events || fromEventId < c.firstEventId) return undefined;
    const start = fromEventId - c.firstEventId;
    return start + limit <= c.events.length ? c.events.slice(start, start + limit) : undefined;
  }
}
