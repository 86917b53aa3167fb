import type { Clock } from '../../retry/clock.ts';

/** Queues remembered; beyond it the one used longest ago is forgotten (its bucket starts full again). */
const MAX_QUEUES = 10_000;

interface Bucket {
  rate: number;
  tokens: number;
  at: number;
}

/**
 * The activity task rate of each queue (the worker option maxTaskQueueActivitiesPerSecond, sent
 * with each activity poll as `maxTasksPerSecond`; the last poll's value holds, as in Temporal):
 * a token bucket shared by every poll of the queue on this server, holding at most one
 * second's worth of tasks (at least one).
 */
export class ActivityRateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  /** @param clock real time (the engine's wait clock). */
  constructor(private readonly clock: Clock) {}

  #bucket(key: string, rate: number): Bucket {
    const now = this.clock.now();
    let b = this.#buckets.get(key);
    if (!b) {
      if (this.#buckets.size >= MAX_QUEUES) this.#buckets.delete(this.#buckets.keys().next().value!);
      b = { rate, tokens: Math.max(1, rate), at: now };
    } else {
      this.#buckets.delete(key);
      b.tokens = Math.min(Math.max(1, rate), b.tokens + ((now - b.at) / 1000) * b.rate);
      b.rate = rate;
      b.at = now;
    }
    this.#buckets.set(key, b);
    return b;
  }

  /**
   * Takes one task's token, waiting for it when the queue is at its rate; false when the wait
   * would outlast `deadline` (wait clock ms) or `signal` aborts first.
   */
  async take(key: string, rate: number, deadline: number, signal: AbortSignal | undefined): Promise<boolean> {
    for (;;) {
      const b = this.#bucket(key, rate);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return true;
      }
      const waitMs = Math.ceil(((1 - b.tokens) / b.rate) * 1000);
      if (this.clock.now() + waitMs > deadline || signal?.aborted) return false;
      const woke = await new Promise<boolean>((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(ok);
        };
        const onAbort = () => done(false);
        const timer = setTimeout(() => done(true), waitMs);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      if (!woke) return false;
    }
  }

  /** Gives back a token a poll took and did not use (the queue had no task). */
  refund(key: string): void {
    const b = this.#buckets.get(key);
    if (b) b.tokens = Math.min(Math.max(1, b.rate), b.tokens + 1);
  }
}
