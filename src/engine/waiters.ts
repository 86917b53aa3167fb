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
        });
      },
    };
  }

  /** Wakes everyone watching `key`. */
  notify(key: string): void {
    const set = this.#watchers.get(key);
    if (!set) return;
    this.#watchers.delete(key);
    for (const w of set) {
      w.fired = true;
      w.wake?.();
    }
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
