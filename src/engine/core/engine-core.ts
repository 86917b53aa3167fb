import { setMaxListeners } from 'node:events';
import { WorkflowNotFoundError } from '../../common/errors.ts';
import type { Logger as FullLogger } from '../../common/logger.ts';
import { systemClock, type Clock } from '../../retry/clock.ts';
import { ServiceError } from '../../common/errors.ts';
import { StoreConflictError, type ConflictReason } from '../../store/errors.ts';
import type { ExecutionRecord, Store, TaskKind, Transition } from '../../store/types.ts';
import { faults } from '../../common/fault-points.ts';
import { Handoffs } from './handoffs.ts';
import { TransitionBuilder } from './transition.ts';
import { decideBatch, MAX_BATCH, type QueuedChange } from './run-batch.ts';
import { Waiters } from './waiters.ts';
import type { TaskTokens } from './task-token.ts';
import { DEFAULT_LIMITS, enforceHistoryLimits, type EngineLimits } from './limits.ts';
import { DEFAULT_MESSAGE_LIMITS, type MessageLimits } from '../messages/message-state.ts';

/** Where the engine reports problems it cannot hand to a caller (a timer that failed to fire). Any {@link FullLogger} fits. */
export type Logger = Pick<FullLogger, 'warn' | 'error'>;

/** Logs to stderr. */
export const consoleLogger: Logger = {
  warn: (m, meta) => console.warn(`[steadfast engine] ${m}`, meta ?? ''),
  error: (m, meta) => console.error(`[steadfast engine] ${m}`, meta ?? ''),
};

/** Size of the in-flight table below which expired entries are not swept. */
const MIN_IN_FLIGHT_SWEEP = 1024;

/**
 * Attempts of one transaction that keeps losing optimistic-concurrency races before the call
 * answers Unavailable. A lost race costs one re-read; a hundred in a row means a run (or
 * schedule) changed by something that commits faster than this caller can rebuild.
 */
export const MAX_TRANSACT_ATTEMPTS = 100;

/**
 * The conflicts after which {@link EngineCore.transact} re-reads and rebuilds: what was read
 * moved (`version`, `scheduleVersion`), another run of the workflow id opened meanwhile
 * (`alreadyOpen`), or a start that assumed its workflow id unused found a run
 * (`workflowIdUsed`). Any other conflict (`timerGone`, `duplicateRun`, `scheduleExists`) is an
 * answer, not a race, and reaches the caller.
 */
export const RETRIED_CONFLICTS: readonly ConflictReason[] = ['version', 'alreadyOpen', 'workflowIdUsed', 'scheduleVersion'];

/** Something a transaction commits: a run's transition (with eager dispatch) or any other store write. */
export type Commit = TransitionBuilder | { build(): Transition };

/** What one attempt of {@link EngineCore.transact} decided: the caller's answer, and what to commit for it (if anything). */
export interface Attempt<T> {
  result: T;
  commit?: Commit | undefined;
}

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
 * Tasks a transition started for waiting polls (eager-dispatch.ts). They go only once the commit
 * succeeded: a transition that lost a race is decided again, with new task and run ids, so a
 * task handed out before its commit returned could name events or a run that never exist.
 */
export interface EagerHandoff {
  /** The commit succeeded: the tasks go to their polls now. */
  committed(): void;
  /** The commit failed (or was never sent): what did not go is released. */
  release(): void;
}

/**
 * What the engine's parts share: the store, the clock, the transition loop, and the
 * bookkeeping behind {@link EngineCore.isIdle}.
 */
export class EngineCore {
  readonly queueWaiters = new Waiters();
  readonly closeWaiters = new Waiters();
  /** Long polls waiting in this process that take tasks started for them (eager dispatch). */
  readonly handoffs = new Handoffs();
  /** Set by the task service: starts the tasks of a transition that waiting polls can take. */
  eager?: (b: TransitionBuilder) => EagerHandoff | undefined;
  readonly shutdown = new AbortController();
  /**
   * Tasks known to be dispatchable now, per queue: raised by commit notifications and by the
   * timer loop when backoffs end, lowered by each claim, zeroed by a poll that finds none.
   */
  readonly readyQueues = new Map<string, number>();
  /** Tasks handed to workers and not answered yet, with the real time after which they no longer count. */
  readonly inFlight = new Map<string, number>();
  /** Signs and verifies task tokens; set by the engine before it serves. */
  tokens!: TaskTokens;
  /** Per-run limits, set from the engine's options. */
  limits: EngineLimits = { ...DEFAULT_LIMITS };
  /** Limits of signals, queries and updates, set from the engine's options. */
  messageLimits: MessageLimits = { ...DEFAULT_MESSAGE_LIMITS };
  #busy = 0;
  /** The last transaction queued in each lane (a run's id): the next one of the lane starts once it has settled. */
  readonly #lanes = new Map<string, Promise<unknown>>();
  /** Per run, the batch of changes ({@link mutate}) that waits for the lane and still takes more. */
  readonly #waiting = new Map<string, QueuedChange[]>();
  /** Queues a claim found empty, with when (real time); see {@link knownEmpty}. */
  readonly #emptyAt = new Map<string, number>();
  #sweepAt = MIN_IN_FLIGHT_SWEEP;
  /** Worker polls per queue key: how many run now, and when the last one ended (real time). */
  readonly #polls = new Map<string, { active: number; endedAt: number }>();
  #pollSweepAt = MIN_IN_FLIGHT_SWEEP;

  /**
   * @param clock time for everything the engine records or decides on (event times, timers,
   *   timeouts, backoffs); a test moves it.
   * @param waitClock real time for how long a caller is kept waiting (long polls, query and update
   *   waits, a stopped worker's refused polls, handed-out tasks that still count as busy). It is
   *   never recorded: a time-skipping test that jumps `clock` a day ahead must not end a poll
   *   that has waited a millisecond.
   */
  constructor(readonly store: Store, readonly clock: Clock, readonly identity: string, readonly logger: Logger, readonly waitClock: Clock = systemClock) {
    // Every waiting long poll listens for shutdown; hundreds of pollers are normal, not a leak.
    setMaxListeners(0, this.shutdown.signal);
  }

  get busy(): number {
    return this.#busy;
  }

  /** Runs `work` counted as a transition in progress (for isIdle). */
  async tracked<T>(work: () => Promise<T>): Promise<T> {
    this.#busy++;
    try {
      return await work();
    } finally {
      this.#busy--;
    }
  }

  /**
   * The one way state changes commit: `attempt` reads what it needs and decides (throwing
   * refuses the call), its commit goes through {@link commit} (eager dispatch), and a commit
   * that lost a race in {@link RETRIED_CONFLICTS} is re-read and decided again, up to
   * {@link MAX_TRANSACT_ATTEMPTS} times. `attempt` must only read and build: it may run again.
   * Transactions of one `lane` (the id of the run they change) run one after another in this
   * process, each deciding on what the one before wrote: a run that many things reach at once
   * (children closing, timers firing, signals) takes them in turn instead of all but one losing a
   * race and trying again. Races with other server processes remain, and are retried.
   * @throws ServiceError `Unavailable` naming `what` when every attempt lost its race.
   */
  transact<T>(what: string, attempt: () => Promise<Attempt<T>> | Attempt<T>, lane?: string): Promise<T> {
    return this.tracked(() => (lane === undefined ? this.#transact(what, attempt) : this.#inLane(lane, () => this.#transact(what, attempt))));
  }

  /** Runs `work` after every transaction queued before it in `lane` has settled. */
  async #inLane<T>(lane: string, work: () => Promise<T>): Promise<T> {
    const before = this.#lanes.get(lane);
    const mine = (before ? before.then(work, work) : work());
    const settled = mine.then(() => undefined, () => undefined);
    this.#lanes.set(lane, settled);
    try {
      return await mine;
    } finally {
      if (this.#lanes.get(lane) === settled) this.#lanes.delete(lane);
    }
  }

  async #transact<T>(what: string, attempt: () => Promise<Attempt<T>> | Attempt<T>): Promise<T> {
    {
      for (let i = 1; ; i++) {
        const { result, commit } = await attempt();
        if (commit instanceof TransitionBuilder) enforceHistoryLimits(commit, this.limits, this.logger);
        if (commit === undefined || (commit instanceof TransitionBuilder && commit.isEmpty())) return result;
        try {
          await this.commit(commit);
          return result;
        } catch (err) {
          if (faults.armed && err instanceof StoreConflictError) await faults.hit('engine.conflict');
          if (!(err instanceof StoreConflictError) || !RETRIED_CONFLICTS.includes(err.reason)) throw err;
          if (i >= MAX_TRANSACT_ATTEMPTS) {
            throw new ServiceError('Unavailable', `${what} kept losing races with concurrent changes (${err.reason}, ${i} attempts); retry the call`);
          }
        }
      }
    }
  }

  /** A transition of the run as read, at the clock's now. */
  edit(rec: ExecutionRecord): TransitionBuilder {
    return new TransitionBuilder(rec, this.clock.now());
  }

  /**
   * Reads the run, lets `fn` build its transition, commits it through {@link transact} in the
   * run's lane. Changes that arrive while the lane is busy are decided together when it frees, in
   * the order they came, and written as one transaction (run-batch.ts). `fn` must only change the
   * builder: it may run more than once (a lost race, a decision on the store's cached row that its
   * commit would not check, a change before it in its batch that refused).
   * @throws WorkflowNotFoundError when the run does not exist.
   * @throws whatever `fn` throws, decided on the stored run.
   */
  mutate<T>(runId: string, fn: (b: TransitionBuilder) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const change: QueuedChange = { fn, resolve: resolve as (v: unknown) => void, reject };
      const waiting = this.#waiting.get(runId);
      if (waiting && waiting.length < MAX_BATCH) {
        waiting.push(change);
        return;
      }
      const batch = [change];
      this.#waiting.set(runId, batch);
      this.transact(`changing run ${runId}`, async () => {
        // The lane is free: the batch takes no more changes; later ones form the next.
        if (this.#waiting.get(runId) === batch) this.#waiting.delete(runId);
        const cached = this.store.cachedExecution?.(runId);
        if (cached) {
          // A decision on a row that may be stale stands only when its commit writes the row at
          // the version read (a stale one conflicts and is read again): a refusal, nothing to
          // write, or deletes alone (a task its run no longer lists) are decided again on a read.
          const d = decideBatch((r) => this.edit(r), cached, batch);
          if (d.builder.writesRecord && d.outcomes.every((o) => o.kind !== 'refused')) return { result: d.outcomes, commit: d.builder };
        }
        const rec = await this.store.getExecution(runId);
        if (!rec) throw new WorkflowNotFoundError(`workflow run ${runId} not found`, '', runId);
        const d = decideBatch((r) => this.edit(r), rec, batch);
        return { result: d.outcomes, commit: d.builder };
      }, runId).then((outcomes) => {
        batch.forEach((c, i) => {
          const o = outcomes[i]!;
          if (o.kind === 'done') c.resolve(o.value);
          else if (o.kind === 'refused') c.reject(o.error);
          else this.mutate(runId, c.fn).then(c.resolve, c.reject);
        });
      }, (err: unknown) => {
        for (const c of batch) c.reject(err);
      });
    });
  }

  /**
   * Commits a transaction. A run's transition first starts the tasks it can for polls waiting
   * here; they go once the commit succeeded, and are released if it failed.
   */
  async commit(c: Commit): Promise<void> {
    if (!(c instanceof TransitionBuilder)) {
      await this.store.commit(c.build());
      return;
    }
    const handoff = this.eager?.(c);
    try {
      if (faults.armed) await faults.hit('engine.commit.before');
      await this.store.commit(c.build());
    } catch (err) {
      handoff?.release();
      throw err;
    }
    if (faults.armed) await faults.hit('engine.commit.after');
    handoff?.committed();
  }

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
