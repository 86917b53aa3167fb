import { retryInterval } from '../retry/temporal.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import type { Clock } from '../retry/clock.ts';
import type { Logger } from './logger.ts';

/**
 * Backoff between failed polls, in the retry layer's model: 200 ms doubling to 10 s, ±20 %
 * jitter so that workers restarted together do not reconnect in lockstep.
 */
const POLL_BACKOFF: RetryPolicyData = {
  initialIntervalMs: 200, backoffCoefficient: 2, maximumIntervalMs: 10_000, maximumAttempts: 0, nonRetryableErrorTypes: [], jitter: 0.2,
};

/**
 * Tracks whether the service is reachable, shared by all poll loops of a worker, so an outage
 * is logged once when it starts and once when it ends, not once per failed poll.
 */
export class ConnectionMonitor {
  #failures = 0;
  #since = 0;
  constructor(private readonly logger: Logger, private readonly clock: Clock, private readonly where: string) {}

  /** Counts a failed call; returns how many failures in a row there have been. */
  failed(err: unknown): number {
    if (this.#failures === 0) {
      this.#since = this.clock.now();
      this.logger.warn(`cannot reach the steadfast service (${this.where}): ${(err as Error)?.message ?? String(err)}; ` +
        'retrying with backoff until it is back', { service: this.where });
    }
    return ++this.#failures;
  }

  /** Counts a call that went through; logs the recovery after an outage. */
  succeeded(): void {
    if (this.#failures === 0) return;
    this.logger.info(`the steadfast service (${this.where}) is reachable again after ${this.#failures} failed polls ` +
      `over ${this.clock.now() - this.#since} ms`, { service: this.where });
    this.#failures = 0;
  }

  /** True during an outage. */
  get down(): boolean {
    return this.#failures > 0;
  }
}

/** Delay before the next poll after `failures` failed polls in a row. */
export function pollBackoffMs(failures: number, seedKey: string): number {
  return retryInterval(POLL_BACKOFF, failures, seedKey);
}

/** A counting semaphore: slots for concurrent task executions. */
export class Slots {
  #free: number;
  #waiters: (() => void)[] = [];
  /**
   * @param keepForOthers slots a poll's extra slots leave free (see Worker: activity slots keep a
   *   quarter for the eager activities of workflow task completions).
   */
  constructor(readonly size: number, readonly keepForOthers = 0) {
    this.#free = size;
  }

  /** Resolves when a slot is taken; rejects when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(signal.reason);
      };
      this.#waiters.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Takes up to `n` free slots without waiting; returns how many were taken. */
  tryAcquire(n: number): number {
    return this.#take(n, 0);
  }

  /** Takes up to `n` free slots for a poll's extra tasks, leaving {@link keepForOthers} free; returns how many were taken. */
  tryAcquireExtra(n: number): number {
    return this.#take(n, this.keepForOthers);
  }

  #take(n: number, keep: number): number {
    const taken = Math.max(0, Math.min(n, this.#free - keep));
    this.#free -= taken;
    return taken;
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#free++;
  }
}
