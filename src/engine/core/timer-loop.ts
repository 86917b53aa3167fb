import type { Clock } from '../../retry/clock.ts';
import type { QueueRef, Store, TimerRecord } from '../../store/types.ts';

/**
 * How long a claimed timer stays reserved for its claimer, ms; after a crash another server
 * fires it then. Firing a timer is one transition (milliseconds), and a second firing is refused
 * by the store (the timer row is consumed in the transition), so a short lease is safe; it is
 * what a crashed server's timers wait before another server takes them.
 */
export const TIMER_LEASE_MS = 5_000;
const CLAIM_BATCH = 100;
/**
 * Rounds of claimed timers firing at once: the next round is claimed (and its transitions
 * built and queued for the group commit) while the one before it commits, instead of each claim
 * waiting for the whole previous round. Every claimed timer starts firing when its claim returns,
 * so a lease waits no longer than before.
 */
const ROUNDS_IN_FLIGHT = 2;
/** A plain abort reason: abort() without one builds a DOMException (and its stack) every time. */
const WAKE = 'wake';

/**
 * Fires due timers and wakes pollers of queues whose tasks became visible. It waits with
 * `clock.sleep` until the store's next wake time, so a ManualClock's `nextDue()` is always the
 * engine's next timer; a notification of an earlier timer or task (own commits, or another
 * server's through LISTEN/NOTIFY) cuts the sleep short.
 */
export class TimerLoop {
  #stopped = false;
  #busy = false;
  #poked = false;
  #target: number | undefined;
  #wake = new AbortController();
  #done: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly owner: string,
    private readonly fire: (timer: TimerRecord) => Promise<void>,
    private readonly onReady: (queue: QueueRef & { count: number }) => void,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** True while the loop is firing timers or reading wake times (not while it sleeps). */
  get busy(): boolean {
    return this.#busy;
  }

  start(): void {
    this.#done ??= this.#run();
  }

  /** Something becomes due at `at`: wake up if that is before the current sleep ends. */
  poke(at: number): void {
    if (this.#busy) {
      this.#poked = true;
      return;
    }
    if (this.#target === undefined || at < this.#target) this.#wake.abort(WAKE);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake.abort(WAKE);
    await this.#done;
  }

  /**
   * Claims and fires the timers due at `now`, {@link CLAIM_BATCH} a claim, until a claim comes
   * back short; every round has settled when it returns, and the first failure is thrown then.
   */
  async #fireDue(now: number): Promise<void> {
    const rounds: Promise<void>[] = [];
    let failure: { err: unknown } | undefined;
    try {
      for (;;) {
        const due = await this.store.claimDueTimers({ now, limit: CLAIM_BATCH, leaseMs: TIMER_LEASE_MS, owner: this.owner });
        rounds.push(Promise.allSettled(due.map((t) => this.fire(t))).then((results) => {
          for (const r of results) if (r.status === 'rejected') failure ??= { err: r.reason };
        }));
        if (due.length < CLAIM_BATCH || this.#stopped) break;
        if (rounds.length >= ROUNDS_IN_FLIGHT) await rounds.shift();
      }
    } finally {
      await Promise.all(rounds);
    }
    if (failure) throw failure.err;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      this.#busy = true;
      this.#poked = false;
      let next: number | undefined;
      try {
        const now = this.clock.now();
        await this.#fireDue(now);
        for (const q of await this.store.readyQueues(now)) this.onReady(q);
        next = await this.store.nextWakeTime(now);
      } catch (err) {
        if (this.#stopped) break;
        this.onError(err);
        next = this.clock.now() + 1000;
      } finally {
        this.#busy = false;
      }
      if (this.#stopped) break;
      if (this.#poked) continue;
      this.#wake = new AbortController();
      this.#target = next;
      try {
        if (next === undefined) await new Promise((resolve) => this.#wake.signal.addEventListener('abort', resolve, { once: true }));
        else await this.clock.sleep(Math.max(0, next - this.clock.now()), this.#wake.signal);
      } catch {
        // woken early by poke() or stop()
      }
      this.#target = undefined;
    }
  }
}
