import type { PollerRecord } from '../../store/types.ts';

/** How long a worker counts as a queue's poller after its last poll, ms. */
export const POLLER_MEMORY_MS = 5 * 60_000;
/** The window of a poller's rate, ms. */
const RATE_WINDOW_MS = 60_000;
/** How often one poller's row is rewritten while it keeps polling, ms: the table stays a few writes a minute per worker. */
export const POLLER_WRITE_INTERVAL_MS = 10_000;
/** Poll times kept per poller for its rate. */
const MAX_POLL_TIMES = 600;
/** Size of the table at which pollers unseen for POLLER_MEMORY_MS are swept. */
const MIN_SWEEP = 1024;
/**
 * Most pollers kept in memory; beyond it the one that polled longest ago is dropped (the table
 * still knows it). Thousands of short-lived identities cannot grow the heap past this.
 */
const MAX_POLLERS = 4096;

interface Entry {
  record: PollerRecord;
  /** Start times of its recent polls, oldest first. */
  times: number[];
  /** When its row was last written. */
  writtenAt: number;
}

const keyOf = (namespace: string, taskQueue: string, kind: string, identity: string) =>
  `${namespace}\u0000${taskQueue}\u0000${kind}\u0000${identity}`;

/**
 * The workers polling task queues through this server: who, when last, how often. A poller's row
 * (task_queue_pollers) is written on its first poll and then every {@link POLLER_WRITE_INTERVAL_MS}
 * while it keeps polling, so servers restarted or beside this one still know it.
 */
export class PollerBook {
  readonly #entries = new Map<string, Entry>();
  #sweepAt = MIN_SWEEP;

  /**
   * A poll began at `now`; answers the row to write when it is due.
   */
  polled(namespace: string, taskQueue: string, kind: 'workflow' | 'activity', identity: string, now: number): PollerRecord | undefined {
    const key = keyOf(namespace, taskQueue, kind, identity);
    let e = this.#entries.get(key);
    if (!e) {
      e = { record: { namespace, taskQueue, kind, identity, lastAccessTime: now, ratePerSecond: 0 }, times: [], writtenAt: -Infinity };
      if (this.#entries.size > this.#sweepAt) this.#sweep(now);
      if (this.#entries.size >= MAX_POLLERS) this.#entries.delete(this.#entries.keys().next().value!);
    } else {
      // Kept in order of last poll, so the first entry is the one that polled longest ago.
      this.#entries.delete(key);
    }
    this.#entries.set(key, e);
    e.times.push(now);
    while (e.times.length > MAX_POLL_TIMES || (e.times.length > 0 && e.times[0]! <= now - RATE_WINDOW_MS)) e.times.shift();
    e.record.lastAccessTime = now;
    e.record.ratePerSecond = rate(e.times);
    if (now - e.writtenAt < POLLER_WRITE_INTERVAL_MS) return undefined;
    e.writtenAt = now;
    return { ...e.record };
  }

  /** The pollers this server saw since `since`, of one queue or of the namespace's every queue. */
  pollers(namespace: string, taskQueue: string | undefined, since: number): PollerRecord[] {
    const out: PollerRecord[] = [];
    for (const e of this.#entries.values()) {
      const r = e.record;
      if (r.namespace === namespace && (taskQueue === undefined || r.taskQueue === taskQueue) && r.lastAccessTime >= since) out.push({ ...r });
    }
    return out;
  }

  #sweep(now: number): void {
    for (const [k, e] of this.#entries) if (now - e.record.lastAccessTime > POLLER_MEMORY_MS) this.#entries.delete(k);
    this.#sweepAt = Math.max(MIN_SWEEP, 2 * this.#entries.size);
  }
}

/** Polls per second over the rate window, two decimals. */
function rate(times: readonly number[]): number {
  return Math.round((times.length / (RATE_WINDOW_MS / 1000)) * 100) / 100;
}

/**
 * Merges the pollers a store remembers with those this server saw (the later access wins), one per
 * kind and identity, the latest first.
 */
export function mergePollers(stored: readonly PollerRecord[], seen: readonly PollerRecord[]): PollerRecord[] {
  const byKey = new Map<string, PollerRecord>();
  for (const p of [...stored, ...seen]) {
    const key = keyOf(p.namespace, p.taskQueue, p.kind, p.identity);
    const had = byKey.get(key);
    if (!had || p.lastAccessTime >= had.lastAccessTime) byKey.set(key, p);
  }
  return [...byKey.values()].sort((a, b) => b.lastAccessTime - a.lastAccessTime || a.identity.localeCompare(b.identity));
}
