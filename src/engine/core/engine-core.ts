import type { CommandType } from '../../history/commands.ts';
import type { HistoryEvent } from '../../history/events.ts';
import type { WorkflowExecutionDescription } from '../../protocol/index.ts';
import type { DeliveryKind, TimerKind } from '../../history/timer-kinds.ts';
import type { CommandHandler } from './commands.ts';
export type { CommandHandler } from './commands.ts';
import type { Timer } from './timer-data.ts';
import { setMaxListeners } from 'node:events';
import { WorkflowNotFoundError } from '../../common/errors.ts';
import { systemClock, type Clock } from '../../retry/clock.ts';
import { ServiceError } from '../../common/errors.ts';
import { StoreConflictError, type ConflictReason } from '../../store/errors.ts';
import type { ExecutionRecord, Store, Transition } from '../../store/types.ts';
import { faults } from '../../common/fault-points.ts';
import { Handoffs } from './handoffs.ts';
import { TransitionBuilder, type RunHooks } from './transition.ts';
import { decideBatch, MAX_BATCH, type QueuedChange } from './run-batch.ts';
import { Waiters } from './waiters.ts';
import type { TaskTokens } from './task-token.ts';
import { enforceHistoryLimits, type EngineLimits } from './limits.ts';
import type { Logger } from './logger.ts';
import { QueueBook } from './queue-book.ts';
import { runStateOf, type RunState } from './state.ts';

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
  /**
   * Called once the commit is on its way to the store, before it is written (never when there
   * is nothing to commit): work that may overlap the write starts here, and waits for the
   * outcome before anything leaves it (an eager start's first task, tasks/eager-dispatch.ts).
   */
  submitted?: (() => void) | undefined;
}

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


/** Fires one row of the timers table of kind `K` (a true timer or a delivery). */
export type Fire<K extends TimerKind | DeliveryKind> = (core: EngineCore, timer: Timer<K>) => Promise<void>;

/** Fills a feature's part of describeWorkflowExecution's answer from the run's state. */
export type DescribeSection = (s: RunState, d: WorkflowExecutionDescription, now: number) => void;

/**
 * Rebuilds a feature's slice of a new run's state from the history the run starts with: a
 * reset run's copied events and the events re-applied after them (reset/). It re-arms what the
 * copied history leaves pending (tasks, timers, deliveries), as the original run had armed it.
 */
export type Rebuild = (b: TransitionBuilder, events: readonly HistoryEvent[]) => void;

/**
 * Every feature's parts, composed once (features.ts) and handed to the core when it is built;
 * the Feature contract each feature fills is core/feature.ts.
 */
export interface FeatureRegistry extends RunHooks {
  readonly commands: { readonly [K in CommandType]: CommandHandler };
  readonly timers: { readonly [K in TimerKind]: Fire<K> };
  readonly deliveries: { readonly [K in DeliveryKind]: Fire<K> };
  readonly describe: readonly DescribeSection[];
  readonly rebuild: readonly Rebuild[];
}

/** What the core is built from (engine.ts); nothing is set on it afterwards. */
export interface CoreParts {
  store: Store;
  /**
   * Time for everything the engine records or decides on (event times, timers, timeouts,
   * backoffs); a test moves it.
   */
  clock: Clock;
  /**
   * Real time for how long a caller is kept waiting (long polls, query and update waits, a
   * stopped worker's refused polls, handed-out tasks that still count as busy). It is never
   * recorded: a time-skipping test that jumps `clock` a day ahead must not end a poll that has
   * waited a millisecond. @default systemClock
   */
  waitClock?: Clock;
  identity: string;
  logger: Logger;
  /** Every feature's commands, timers, deliveries, state slices and hooks (features.ts). */
  features: FeatureRegistry;
  /** Per-run limits. */
  limits: EngineLimits;
  /** Signs and verifies task tokens. */
  tokens: TaskTokens;
  /** Starts the tasks of a transition that polls waiting here can take (tasks/eager-dispatch.ts). */
  eager?: (core: EngineCore, b: TransitionBuilder) => EagerHandoff | undefined;
}

/**
 * What the engine's parts share: the store, the clocks, the features, the transition loop, and
 * (QueueBook) the bookkeeping of queues behind the engine's isIdle.
 */
export class EngineCore extends QueueBook {
  readonly queueWaiters = new Waiters();
  readonly closeWaiters = new Waiters();
  /** Long polls waiting in this process that take tasks started for them (eager dispatch). */
  readonly handoffs = new Handoffs();
  readonly shutdown = new AbortController();
  readonly store: Store;
  readonly clock: Clock;
  readonly identity: string;
  readonly logger: Logger;
  readonly features: FeatureRegistry;
  readonly limits: EngineLimits;
  readonly tokens: TaskTokens;
  readonly #eager: CoreParts['eager'];
  #busy = 0;
  /** The last transaction queued in each lane (a run's id): the next one of the lane starts once it has settled. */
  readonly #lanes = new Map<string, Promise<unknown>>();
  /** Per run, the batch of changes ({@link mutate}) that waits for the lane and still takes more. */
  readonly #waiting = new Map<string, QueuedChange[]>();
  constructor(parts: CoreParts) {
    super(parts.waitClock ?? systemClock);
    this.store = parts.store;
    this.clock = parts.clock;
    this.identity = parts.identity;
    this.logger = parts.logger;
    this.features = parts.features;
    this.limits = parts.limits;
    this.tokens = parts.tokens;
    this.#eager = parts.eager;
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
        const { result, commit, submitted } = await attempt();
        if (commit instanceof TransitionBuilder) enforceHistoryLimits(commit, this.limits, this.logger);
        if (commit === undefined || (commit instanceof TransitionBuilder && commit.isEmpty())) return result;
        try {
          const written = this.commit(commit);
          submitted?.();
          await written;
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

  /** A transition of the run as read, at the clock's now (or `now`). */
  edit(rec: ExecutionRecord, now = this.clock.now()): TransitionBuilder {
    return new TransitionBuilder(rec, now, this.features);
  }

  /** The run state of a row as read, migrated to the current version (state.ts). */
  runState(rec: ExecutionRecord): RunState {
    return runStateOf(rec, this.features.slices);
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
    const handoff = this.#eager?.(this, c);
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
}
