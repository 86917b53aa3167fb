/**
 * The one injected clock. Everything that reads time or waits (retry(), the engine's timers,
 * the worker's poll backoff) takes a Clock, so tests move time instead of waiting for it.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Resolves after `ms` of this clock's time; rejects with the signal's reason when `signal`
   * aborts first. A wait that ends either way leaves no timer behind.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

/** Node's timers fire at once (with a warning) past 2^31 − 1 ms; longer sleeps chain timers. */
const MAX_TIMER_MS = 2_147_483_647;

/** Wall-clock time and real timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout>;
      let left = Math.max(0, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal!));
      };
      const arm = () => {
        const step = Math.min(left, MAX_TIMER_MS);
        left -= step;
        timer = setTimeout(() => {
          if (left > 0) return arm();
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, step);
      };
      arm();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};

/** Why a sleep behind {@link onTimeout} was ended early (a reason, so abort() makes no DOMException). */
const STOPPED = Symbol('timeout stopped');

/**
 * Calls `fire` once `ms` of `clock`'s time pass, unless the function it returns is called first.
 * On the system clock this is one timer, with no promise and no AbortSignal (activities, local
 * activities and retry() bound every attempt with one); any other clock's goes through its `sleep`.
 */
export function onTimeout(clock: Clock, ms: number, fire: () => void): () => void {
  if (clock === systemClock && ms <= MAX_TIMER_MS) {
    const timer = setTimeout(fire, Math.max(0, ms));
    return () => clearTimeout(timer);
  }
  const stop = new AbortController();
  clock.sleep(ms, stop.signal).then(fire, () => undefined);
  return () => stop.abort(STOPPED);
}

interface PendingSleep {
  due: number;
  seq: number;
  resolve: () => void;
}

/**
 * A clock that moves only when told to. Sleeps resolve, in due order, as `advance()` or `set()`
 * moves time past them; `nextDue()` tells when the earliest pending sleep ends, which is what
 * the time-skipping test environment jumps to when all work is idle.
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #sleeps: PendingSleep[] = [];

  /** @param start the initial time in ms since the epoch. @default 0 */
  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const entry: PendingSleep = { due: this.#now + ms, seq: this.#seq++, resolve: () => {} };
      const onAbort = () => {
        this.#sleeps = this.#sleeps.filter((s) => s !== entry);
        reject(abortReason(signal!));
      };
      entry.resolve = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.#sleeps.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The time at which the earliest pending sleep ends, or undefined when none is pending. */
  nextDue(): number | undefined {
    let min: number | undefined;
    for (const s of this.#sleeps) if (min === undefined || s.due < min) min = s.due;
    return min;
  }

  /** Number of sleeps waiting on this clock. */
  pendingSleeps(): number {
    return this.#sleeps.length;
  }

  /** Moves time forward by `ms` and wakes every sleep that is due, earliest first. */
  async advance(ms: number): Promise<void> {
    await this.set(this.#now + ms);
  }

  /**
   * Moves time to `ms` (never backwards), waking due sleeps one at a time in due order and
   * letting each continuation run before the next wakes, so chains of sleeps see the same
   * order of events as under real time.
   */
  async set(ms: number): Promise<void> {
    const target = Math.max(ms, this.#now);
    for (;;) {
      const due = this.#sleeps
        .filter((s) => s.due <= target)
        .sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (!due) break;
      this.#sleeps = this.#sleeps.filter((s) => s !== due);
      this.#now = Math.max(this.#now, due.due);
      due.resolve();
      await flushMicrotasks();
    }
    this.#now = target;
    await flushMicrotasks();
  }
}

/** Lets queued promise continuations run (several turns, for chains of awaits). */
export async function flushMicrotasks(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}
