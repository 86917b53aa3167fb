/** A registration made before checking the store, so a notification in between is never lost. */
export interface Watch {
  /** Resolves at once if notified since {@link Waiters.watch}; else on notify, after `ms` of real time, or on abort. */
  wait(ms: number, signals: (AbortSignal | undefined)[]): Promise<void>;
  /** Drops the registration (when the store check already found what was wanted). */
  cancel(): void;
  /** True once a notification arrived. */
  readonly notified: boolean;
}

interface Watcher {
  fired: boolean;
  wake?: () => void;
  signals?: (AbortSignal | undefined)[];
}

/**
 * Wake-ups for long polls, keyed by a string (a task queue, a run id). A poller first calls
 * `watch(key)`, then checks the store, then `wait`s: a notification that lands between the
 * check and the wait still wakes it. Nothing is kept for keys nobody watches, so notifying
 * every closed run id leaks nothing.
 */
export class Waiters {
  #watchers = new Map<string, Set<Watcher>>();

  /** Starts listening for notifications of `key`. */
  watch(key: string): Watch {
    const w: Watcher = { fired: false };
    let set = this.#watchers.get(key);
    if (!set) this.#watchers.set(key, (set = new Set()));
    set.add(w);
    const cancel = () => {
      const s = this.#watchers.get(key);
      s?.delete(w);
      if (s?.size === 0) this.#watchers.delete(key);
    };
    return {
      cancel,
      get notified() {
        return w.fired;
      },
      wait: (ms, signals) => {
        if (w.fired || signals.some((s) => s?.aborted)) {
          cancel();
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            for (const s of signals) s?.removeEventListener('abort', done);
            cancel();
            resolve();
          };
          const timer = setTimeout(done, Math.max(0, ms));
          for (const s of signals) s?.addEventListener('abort', done, { once: true });
          w.wake = done;
          w.signals = signals;
        });
      },
    };
  }

  /**
   * Wakes up to `count` of the watchers of `key` that are waiting (the longest waiting first),
   * and marks every watcher still checking the store, which then checks again instead of
   * waiting. A waiter whose poll was aborted is skipped (it is leaving anyway), so a wake-up
   * always lands on a poll that will look. Waking only as many polls as tasks arrived, instead
   * of all (each then tried a claim): with 100 long polls per kind, SQLite idle p50 start-to-
   * result 19.1–21.5 → 9.1–9.7 ms (`npm run bench -- engine`); no difference measurable at 10.
   * @param count how many waiting watchers to wake; @default Infinity (all).
   */
  notify(key: string, count = Infinity): void {
    const set = this.#watchers.get(key);
    if (!set) return;
    let left = count;
    for (const w of set) {
      if (w.wake) {
        if (left <= 0 || w.signals?.some((s) => s?.aborted)) continue;
        left--;
      }
      set.delete(w);
      w.fired = true;
      w.wake?.();
    }
    if (set.size === 0 && this.#watchers.get(key) === set) this.#watchers.delete(key);
  }

  /** Wakes every watcher (shutdown). */
  notifyAll(): void {
    for (const key of [...this.#watchers.keys()]) this.notify(key);
  }

  /** Number of registered watchers, for tests and metrics. */
  get size(): number {
    let n = 0;
    for (const s of this.#watchers.values()) n += s.size;
    return n;
  }
}
