/**
 * Wake-ups for long polls, keyed by a string (a task queue, a run id). A waiter first reads the
 * key's generation, then checks the store, then waits for a generation newer than the one it
 * read: a notification that lands between the check and the wait is never lost.
 */
export class Waiters {
  #gen = new Map<string, number>();
  #waiting = new Map<string, Set<() => void>>();

  generation(key: string): number {
    return this.#gen.get(key) ?? 0;
  }

  /** Wakes everyone waiting on `key`. */
  notify(key: string): void {
    this.#gen.set(key, this.generation(key) + 1);
    const set = this.#waiting.get(key);
    if (!set) return;
    this.#waiting.delete(key);
    for (const wake of set) wake();
  }

  /** Wakes every waiter (shutdown). */
  notifyAll(): void {
    for (const key of [...this.#waiting.keys()]) this.notify(key);
  }

  /** Number of waiters, for tests and metrics. */
  get size(): number {
    let n = 0;
    for (const s of this.#waiting.values()) n += s.size;
    return n;
  }

  /**
   * Resolves when `key` moves past generation `gen`, after `ms` of real time (a long poll's
   * wait is wall-clock time whatever the engine's clock), or when a signal aborts.
   */
  wait(key: string, gen: number, ms: number, signals: (AbortSignal | undefined)[]): Promise<void> {
    if (this.generation(key) !== gen || signals.some((s) => s?.aborted)) return Promise.resolve();
    return new Promise((resolve) => {
      let set = this.#waiting.get(key);
      if (!set) this.#waiting.set(key, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        this.#waiting.get(key)?.delete(done);
        if (this.#waiting.get(key)?.size === 0) this.#waiting.delete(key);
        for (const s of signals) s?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      for (const s of signals) s?.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }
}
