import type { Clock } from '../../retry/clock.ts';
import type { TaskKind } from '../../store/types.ts';

/** Size of the in-flight table below which expired entries are not swept. */
const MIN_IN_FLIGHT_SWEEP = 1024;

/**
 * How long after its last poll ended a queue still counts as polled, real ms. A worker polls
 * again as soon as a poll answers (or hands its task over, which then counts as in flight), so
 * a gap longer than this means nobody is polling the queue.
 */
const POLL_GAP_MS = 1000;

/**
 * How long a queue that a claim found empty is taken to stay empty while no task is announced
 * for it, real ms: a poll starting meanwhile waits without claiming. A task can become claimable
 * unannounced only when a lease ends (a server that claimed it crashed, or failed to start it);
 * polls notice that this much later at most.
 */
const EMPTY_TRUST_MS = 1000;

/**
 * How long a claimed task stays reserved while it is being started, ms: the claim-to-start
 * transition takes milliseconds, so this bounds how long a server's crash delays the task.
 */
export const TASK_LEASE_MS = 5_000;

/** The key of a workflow task attempt handed to a worker, in {@link EngineCore.inFlight}. */
export const wtKey = (t: { runId: string; seq: number; attempt: number }) => `w:${t.runId}:${t.seq}:${t.attempt}`;
/** The key of an activity attempt handed to a worker, in {@link EngineCore.inFlight}. */
export const atKey = (t: { runId: string; scheduledEventId: number; attempt: number }) => `a:${t.runId}:${t.scheduledEventId}:${t.attempt}`;

/** The key of a task queue in the waiter and readiness tables. */
export function queueKey(namespace: string, taskQueue: string, kind: TaskKind): string {
  return `${kind}\u0000${namespace}\u0000${taskQueue}`;
}

/**
 * Turns of the event loop's immediates a poll waits before it answers with tasks handed to it
 * (task-service.ts): a caller that left just before is seen by then.
 */
export const POLL_ANSWER_TURNS = 2;

/**
 * What the engine knows of its task queues in this process: which hold tasks ready now, which a
 * claim found empty, which workers poll, and which handed-out tasks await an answer; the
 * bookkeeping behind the engine's isIdle and its polls' waits.
 */
export class QueueBook {
  /**
   * Tasks known to be dispatchable now, per queue: raised by commit notifications and by the
   * timer loop when backoffs end, lowered by each claim, zeroed by a poll that finds none.
   */
  readonly readyQueues = new Map<string, number>();
  /** Tasks handed to workers and not answered yet, with the real time after which they no longer count. */
  readonly inFlight = new Map<string, number>();
  /** Queues a claim found empty, with when (real time); see {@link knownEmpty}. */
  readonly #emptyAt = new Map<string, number>();
  #sweepAt = MIN_IN_FLIGHT_SWEEP;
  /** Worker polls per queue key: how many run now, and when the last one ended (real time). */
  readonly #polls = new Map<string, { active: number; endedAt: number }>();
  #pollSweepAt = MIN_IN_FLIGHT_SWEEP;

  /**
   * @param waitClock real time (never recorded): how long polls wait and handed-out tasks count.
   */
  constructor(readonly waitClock: Clock) {}

  /** A claim found the queue empty and no task was announced for it meanwhile. */
  markEmpty(key: string): void {
    this.readyQueues.delete(key);
    // A hint only: dropped wholesale rather than swept when many queues were polled once.
    if (this.#emptyAt.size >= MIN_IN_FLIGHT_SWEEP) this.#emptyAt.clear();
    this.#emptyAt.set(key, this.waitClock.now());
  }

  /** True when a claim on the queue would find nothing: one found it empty lately and no task was announced since. */
  knownEmpty(key: string): boolean {
    const at = this.#emptyAt.get(key);
    if (at === undefined) return false;
    if (this.waitClock.now() - at < EMPTY_TRUST_MS && !this.readyQueues.has(key)) return true;
    this.#emptyAt.delete(key);
    return false;
  }

  /** Notifications may have been missed: every queue may hold tasks. */
  forgetEmpty(): void {
    this.#emptyAt.clear();
  }

  /** Records that `count` tasks became dispatchable on a queue (at least that many are there). */
  markReady(key: string, count: number, add: boolean): void {
    this.#emptyAt.delete(key);
    const now = this.readyQueues.get(key) ?? 0;
    this.readyQueues.set(key, add ? now + count : Math.max(now, count));
  }

  /** A claim took one task of the queue. */
  claimed(key: string): void {
    const n = (this.readyQueues.get(key) ?? 0) - 1;
    if (n > 0) this.readyQueues.set(key, n);
    else this.readyQueues.delete(key);
  }

  /** A worker's poll of a workflow or activity task queue began. */
  pollStarted(key: string): void {
    const p = this.#polls.get(key);
    if (p) p.active++;
    else this.#polls.set(key, { active: 1, endedAt: 0 });
  }

  /** That poll answered or gave up. */
  pollEnded(key: string): void {
    const p = this.#polls.get(key);
    if (!p) return;
    p.active = Math.max(0, p.active - 1);
    const now = (p.endedAt = this.waitClock.now());
    // An idle entry older than POLL_GAP_MS answers isPolled() as no entry does: dropped whenever
    // the table doubles, so queues polled once (a worker per queue, then gone) do not pile up.
    if (this.#polls.size <= this.#pollSweepAt) return;
    for (const [k, q] of this.#polls) if (q.active === 0 && now - q.endedAt >= POLL_GAP_MS) this.#polls.delete(k);
    this.#pollSweepAt = Math.max(MIN_IN_FLIGHT_SWEEP, 2 * this.#polls.size);
  }

  /**
   * True when some worker polls the queue now, or did within {@link POLL_GAP_MS}: a task ready
   * there will be taken. A task on a queue nobody polls waits for time (its schedule-to-start
   * timeout) instead, so it does not keep the engine busy.
   */
  isPolled(key: string): boolean {
    // Query and query-answer rows live only while a caller waits for them: always counted.
    if (!key.startsWith('workflow\u0000') && !key.startsWith('activity\u0000')) return true;
    const p = this.#polls.get(key);
    return p !== undefined && (p.active > 0 || this.waitClock.now() - p.endedAt < POLL_GAP_MS);
  }

  /** Queues with tasks ready now that some worker polls. */
  readyPolledQueues(): number {
    let n = 0;
    for (const key of this.readyQueues.keys()) if (this.isPolled(key)) n++;
    return n;
  }

  /** Counts a task handed to a worker until it is answered or `timeoutMs` of real time passes. */
  addInFlight(key: string, timeoutMs: number): void {
    const now = this.waitClock.now();
    this.inFlight.set(key, now + timeoutMs);
    // Answers and timeout timers remove entries; one whose answer never came and whose timer fired
    // on another server would stay, so expired ones are swept whenever the table doubles.
    if (this.inFlight.size <= this.#sweepAt) return;
    for (const [k, until] of this.inFlight) if (until <= now) this.inFlight.delete(k);
    this.#sweepAt = Math.max(MIN_IN_FLIGHT_SWEEP, 2 * this.inFlight.size);
  }

  /** True when some handed-out task is still awaited. */
  hasInFlight(): boolean {
    const now = this.waitClock.now();
    for (const [key, until] of this.inFlight) {
      if (until > now) return true;
      this.inFlight.delete(key);
    }
    return false;
  }
}
