import { systemClock, type Clock } from '../../retry/clock.ts';

/** One poll registered with {@link PollerStops.enter}. */
export interface PollLease {
  /** Aborts when the caller's signal does, or when the poll's worker stops. */
  readonly signal: AbortSignal;
  /** Ends the registration; call it once the poll has answered. */
  release(): void;
}

/**
 * Graceful poll shutdown: a worker that is stopping tells the engine (`shutdownWorker`), and
 * the engine ends that worker's waiting long polls with their empty answer. The worker then lets
 * its polls finish instead of cutting their connections, so a task handed out at the moment of
 * shutdown reaches the worker (which still runs it) instead of being lost until its timeout.
 *
 * Memory is bounded: a worker key is known only while one of its polls is open (a key whose
 * polls all ended is forgotten), and stopped keys are kept for {@link PollerStops.MEMORY_MS}, at
 * most {@link PollerStops.MAX_STOPPED} of them. Polls that each carry a new identity therefore
 * leave nothing behind.
 */
export class PollerStops {
  /** Open polls per worker key. */
  readonly #open = new Map<string, Set<AbortController>>();
  /** Stopped keys and until when (real time, ms) a late poll of theirs is answered empty at once; oldest first. */
  readonly #stopped = new Map<string, number>();

  /** @param clock real time (the engine's wait clock). */
  constructor(private readonly clock: Clock = systemClock) {}

  /** How long a stopped worker's late polls (already in flight when it stopped) are refused, ms. */
  static readonly MEMORY_MS = 30_000;
  /** Most stopped keys remembered; beyond it the oldest is forgotten early (its late polls then just wait). */
  static readonly MAX_STOPPED = 10_000;

  static key(namespace: string, taskQueue: string, identity: string, workerInstanceId: string | undefined): string {
    return `${namespace}\u0000${taskQueue}\u0000${identity}\u0000${workerInstanceId ?? ''}`;
  }

  /** Whether polls of this key must be answered empty at once. */
  isStopped(key: string): boolean {
    const until = this.#stopped.get(key);
    if (until === undefined) return false;
    if (until > this.clock.now()) return true;
    this.#stopped.delete(key);
    return false;
  }

  /**
   * Registers a poll of `key`; undefined when the key's worker has stopped (answer empty now).
   * The caller must {@link PollLease.release} the lease when the poll ends.
   */
  enter(key: string, caller: AbortSignal | undefined): PollLease | undefined {
    if (this.isStopped(key)) return undefined;
    const poll = new AbortController();
    let open = this.#open.get(key);
    if (!open) this.#open.set(key, (open = new Set()));
    open.add(poll);
    const onCaller = () => poll.abort(caller?.reason);
    if (caller?.aborted) poll.abort(caller.reason);
    else caller?.addEventListener('abort', onCaller, { once: true });
    return {
      signal: poll.signal,
      release: () => {
        caller?.removeEventListener('abort', onCaller);
        const set = this.#open.get(key);
        if (!set?.delete(poll)) return;
        if (set.size === 0) this.#open.delete(key);
      },
    };
  }

  /** Ends the key's waiting polls and refuses its late ones for a while. */
  stop(key: string): void {
    const now = this.clock.now();
    for (const [k, until] of this.#stopped) {
      if (until > now) break;
      this.#stopped.delete(k);
    }
    this.#stopped.delete(key);
    this.#stopped.set(key, now + PollerStops.MEMORY_MS);
    if (this.#stopped.size > PollerStops.MAX_STOPPED) this.#stopped.delete(this.#stopped.keys().next().value!);
    const open = this.#open.get(key);
    this.#open.delete(key);
    for (const poll of open ?? []) poll.abort('worker stopped');
  }

  /**
   * Ends every waiting poll in `namespace` with its empty answer (the namespace was deleted): the
   * worker's next poll is refused with NamespaceNotFound. Its workers are not marked stopped, so
   * polls of a namespace registered again under the name wait as usual.
   */
  endNamespace(namespace: string): void {
    const prefix = `${namespace}\u0000`;
    for (const [key, open] of this.#open) {
      if (!key.startsWith(prefix)) continue;
      for (const poll of open) poll.abort('namespace deleted');
    }
  }

  /** Keys with open polls and stopped keys remembered, for tests and metrics. */
  get size(): { open: number; stopped: number } {
    return { open: this.#open.size, stopped: this.#stopped.size };
  }
}
