/**
 * Graceful poll shutdown: a worker that is stopping tells the engine (`shutdownWorker`), and
 * the engine ends that worker's waiting long polls with their empty answer. The worker then lets
 * its polls finish instead of cutting their connections, so a task handed out at the moment of
 * shutdown reaches the worker (which still runs it) instead of being lost until its timeout.
 */
export class PollerStops {
  readonly #controllers = new Map<string, AbortController>();
  /** Stopped keys and until when (real time, ms) a late poll of theirs is answered empty at once. */
  readonly #stopped = new Map<string, number>();

  /** How long a stopped worker's late polls (already in flight when it stopped) are refused, ms. */
  static readonly MEMORY_MS = 30_000;

  static key(namespace: string, taskQueue: string, identity: string, workerInstanceId: string | undefined): string {
    return `${namespace}\u0000${taskQueue}\u0000${identity}\u0000${workerInstanceId ?? ''}`;
  }

  /** Whether polls of this key must be answered empty at once. */
  isStopped(key: string): boolean {
    const until = this.#stopped.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.#stopped.delete(key);
    return false;
  }

  /** A signal that aborts when the key's worker stops. */
  signalFor(key: string): AbortSignal {
    let c = this.#controllers.get(key);
    if (!c) {
      c = new AbortController();
      this.#controllers.set(key, c);
    }
    return c.signal;
  }

  /** Ends the key's waiting polls and refuses its late ones for a while. */
  stop(key: string): void {
    const now = Date.now();
    for (const [k, until] of this.#stopped) if (until <= now) this.#stopped.delete(k);
    this.#stopped.set(key, now + PollerStops.MEMORY_MS);
    this.#controllers.get(key)?.abort();
    this.#controllers.delete(key);
  }
}
