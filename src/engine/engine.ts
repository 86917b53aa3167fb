import { hostname } from 'node:os';
import { newUuid } from '../common/ids.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { jsonLogger } from '../common/logger.ts';
import { ValidationError } from '../errors/index.ts';
import { METHODS } from '../protocol/methods.ts';
import { WORKFLOW_SERVICE_METHODS, type WorkflowService } from '../protocol/index.ts';
import { systemClock, type Clock } from '../retry/clock.ts';
import { openStore } from '../store/open-store.ts';
import type { PostgresStoreOptions } from '../store/postgres/postgres-store.ts';
import type { Store, StoreNotification } from '../store/types.ts';
import { ActivitiesById } from './activity/by-id.ts';
import { requestCancel, terminate } from './cancel/cancel-requests.ts';
import { EngineCore } from './core/engine-core.ts';
import { resolveLimits, type EngineLimits } from './core/limits.ts';
import type { Logger } from './core/logger.ts';
import { queueKey } from './core/queue-book.ts';
import { eagerTaskAhead, validatePoll, validateStart } from './core/requests.ts';
import { resolveRun } from './core/resolve-run.ts';
import { startWorkflow } from './core/start.ts';
import { newStoredTokenKey, parseStoredTokenKey, STORED_TOKEN_KEY_NAME, TaskTokens, type TaskTokenKey } from './core/task-token.ts';
import { fireTimer } from './core/timer-dispatch.ts';
import { TimerLoop } from './core/timer-loop.ts';
import { composeFeatures } from './features.ts';
import { resolveMessageLimits, type MessageLimits } from './messages/message-state.ts';
import { Messages } from './messages/messages.ts';
import { NamespaceRegistry } from './namespaces/namespaces.ts';
import { DEFAULT_RETENTION_SWEEP_INTERVAL_MS, RetentionSweeper } from './namespaces/retention.ts';
import { resetWorkflowExecution } from './reset/index.ts';
import { ScheduleOps } from './schedules/index.ts';
import { eagerDispatch, startEagerly } from './tasks/eager-dispatch.ts';
import { TaskService } from './tasks/task-service.ts';
import { taskQueuesOf, type TaskQueues } from './task-queues/task-queues.ts';
import type { UndeliveredTask, UndeliveredTaskReturn } from './tasks/undelivered-tasks.ts';
import { getHistory } from './visibility/history-read.ts';
import { deleteWorkflowExecution } from './visibility/delete-execution.ts';
import { countExecutions, removeSearchAttributes, createSearchAttribute, listSearchAttributes, validateStartAttributes } from './visibility/search-attributes.ts';
import { describe, listExecutions } from './visibility/visibility.ts';
import { parseRequest } from '../protocol/parse.ts';
import { executionRequestSchema } from '../protocol/schemas/executions.ts';

/** Options of {@link Engine.create}. */
export interface EngineOptions {
  store: Store;
  /** Time for everything semantic (timeouts, backoffs, event times). @default systemClock */
  clock?: Clock;
  /**
   * Real time for how long callers wait (long polls, query and update waits); never recorded.
   * Tests that move `clock` keep this one real. @default systemClock
   */
  waitClock?: Clock;
  /** Names this engine in task and timer leases. @default host-pid-random */
  identity?: string;
  /** @default JSON lines on stderr (jsonLogger) */
  logger?: Logger;
  /** Close the store on shutdown. @default false */
  ownsStore?: boolean;
  /**
   * Pending-command and history limits per run (Temporal's defaults: 2,000 each; warn at 10,240
   * events or 10 MiB, terminate past 51,200 events or 50 MiB).
   */
  limits?: Partial<EngineLimits>;
  /** Limits of signals, queries and updates (see MessageLimits for the defaults). */
  messageLimits?: Partial<MessageLimits>;
  /**
   * Keys that sign task tokens, newest first (the first signs, all verify; see
   * parseTaskTokenKeys). Servers sharing a database must list the same keys.
   * @default one random key generated once and kept in the store, shared by its servers
   */
  taskTokenKeys?: readonly TaskTokenKey[];
  /**
   * How often this engine deletes closed runs past their namespace's retention, ms of `waitClock`
   * time; 0 turns the sweep off (another server of the database may still sweep).
   * @default 60 000 (DEFAULT_RETENTION_SWEEP_INTERVAL_MS)
   */
  retentionSweepIntervalMs?: number;
}

/** Keys of {@link EngineOptions}. */
const ENGINE_OPTION_KEYS = optionKeys<EngineOptions>({
  store: true, clock: true, waitClock: true, identity: true, logger: true, ownsStore: true, limits: true, messageLimits: true, taskTokenKeys: true,
  retentionSweepIntervalMs: true,
});

/**
 * Options of {@link Engine.open}: the engine's (but its store, which it opens and owns) and the
 * store's (`cacheMaxBytes` for both stores; `schema` and `poolSize` for PostgreSQL).
 */
export type EngineOpenOptions = Omit<EngineOptions, 'store' | 'ownsStore'> & PostgresStoreOptions;

const STORE_OPTION_KEYS = optionKeys<PostgresStoreOptions>({ cacheMaxBytes: true, schema: true, poolSize: true });
const OPEN_OPTION_KEYS = [...ENGINE_OPTION_KEYS.filter((k) => k !== 'store' && k !== 'ownsStore'), ...STORE_OPTION_KEYS];

/** The parts that serve the engine's calls. */
interface Services {
  core: EngineCore;
  tasks: TaskService;
  byId: ActivitiesById;
  messages: Messages;
  schedules: ScheduleOps;
  namespaces: NamespaceRegistry;
  queues: TaskQueues;
}

/** Every service call, and the feature that serves it. */
function serviceCalls({ core, tasks, byId, messages, schedules, namespaces, queues }: Services) {
  return {
    startWorkflowExecution: async (req, o?) => {
      const s = validateStart(req);
      const searchAttributes = await validateStartAttributes(core.store, s.namespace, req.searchAttributes);
      if (searchAttributes) s.searchAttributes = searchAttributes;
      if (req.requestEagerExecution === true) {
        return startEagerly(core, s, s.identity ?? 'eager-start', (h) => tasks.eagerWorkflowTask(h), eagerTaskAhead(o));
      }
      return startWorkflow(core, s);
    },
    describeWorkflowExecution: async (req) =>
      queues.annotate(describe(core.features, await resolveRun(core.store, parseRequest(executionRequestSchema, req)), core.clock.now())),
    getWorkflowExecutionHistory: (req, o?) => getHistory(core, req, o),
    listWorkflowExecutions: (req) => listExecutions(core.store, req),
    countWorkflowExecutions: (req) => countExecutions(core.store, req),
    createSearchAttribute: (req) => createSearchAttribute(core.store, req),
    listSearchAttributes: (req) => listSearchAttributes(core.store, req),
    deleteWorkflowExecution: (req) => deleteWorkflowExecution(core, req),
    removeSearchAttributes: (req) => removeSearchAttributes(core.store, req),
    requestCancelWorkflowExecution: (req) => requestCancel(core, req),
    terminateWorkflowExecution: (req) => terminate(core, req),
    resetWorkflowExecution: (req) => resetWorkflowExecution(core, req),
    pollWorkflowTaskQueue: (req, o?) => tasks.pollWorkflowTaskQueue(req, o),
    respondWorkflowTaskCompleted: (req) => tasks.respondWorkflowTaskCompleted(req),
    respondWorkflowTaskFailed: (req) => tasks.respondWorkflowTaskFailed(req),
    pollActivityTaskQueue: (req, o?) => tasks.pollActivityTaskQueue(req, o),
    recordActivityTaskHeartbeat: (req) => tasks.recordActivityTaskHeartbeat(req),
    respondActivityTaskCompleted: (req) => tasks.respondActivityTaskCompleted(req),
    respondActivityTaskFailed: (req) => tasks.respondActivityTaskFailed(req),
    respondActivityTaskCanceled: (req) => tasks.respondActivityTaskCanceled(req),
    recordActivityTaskHeartbeatById: (req) => byId.recordActivityTaskHeartbeatById(req),
    respondActivityTaskCompletedById: (req) => byId.respondActivityTaskCompletedById(req),
    respondActivityTaskFailedById: (req) => byId.respondActivityTaskFailedById(req),
    respondActivityTaskCanceledById: (req) => byId.respondActivityTaskCanceledById(req),
    shutdownWorker: (req) => tasks.shutdownWorker(req),
    describeTaskQueue: (req) => queues.describe(req),
    listTaskQueues: (req) => queues.list(req),
    signalWorkflowExecution: (req) => messages.signal(req),
    signalWithStartWorkflowExecution: (req) => messages.signalWithStart(req),
    updateWithStartWorkflowExecution: (req) => messages.updateWithStart(req),
    queryWorkflow: (req) => messages.query(req),
    pollQueryTaskQueue: (req, o?) => tasks.withPoll(validatePoll(req), o?.signal, (signal) => messages.pollQuery(req, { signal })),
    respondQueryTaskCompleted: (req) => messages.respondQuery(req),
    updateWorkflowExecution: (req) => messages.update(req),
    pollWorkflowExecutionUpdate: (req, o?) => messages.pollUpdate(req, o),
    createSchedule: (req) => schedules.createSchedule(req),
    describeSchedule: (req) => schedules.describeSchedule(req),
    updateSchedule: (req) => schedules.updateSchedule(req),
    patchSchedule: (req) => schedules.patchSchedule(req),
    deleteSchedule: (req) => schedules.deleteSchedule(req),
    listSchedules: (req) => schedules.listSchedules(req),
    registerNamespace: (req) => namespaces.register(req),
    describeNamespace: (req) => namespaces.describe(req),
    listNamespaces: (req) => namespaces.list(req),
    updateNamespace: (req) => namespaces.update(req),
    deleteNamespace: (req) => namespaces.delete(req),
  } satisfies WorkflowService;
}


// The service calls are own properties of each engine, set in its constructor from serviceCalls.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Engine extends ReturnType<typeof serviceCalls> {}

/**
 * The durable engine: implements {@link WorkflowService} over a {@link Store}. Every state change
 * of a run is one store transaction; timers fire from the store; long polls are woken by
 * in-process notification and, on PostgreSQL, LISTEN/NOTIFY from other servers. Each service
 * call is one line of serviceCalls, handed to the feature that serves it; a call that
 * acts inside a namespace (METHODS' `inNamespace`) first checks that the namespace is registered.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Engine implements UndeliveredTaskReturn {
  readonly #core: EngineCore;
  readonly #tasks: TaskService;
  readonly #loop: TimerLoop;
  readonly #unsubscribe: () => void;
  readonly #ownsStore: boolean;
  readonly #messages: Messages;
  readonly #schedules: ScheduleOps;
  readonly #namespaces: NamespaceRegistry;
  readonly #retention: RetentionSweeper;
  #stopped = false;

  private constructor(opts: EngineOptions, tokens: TaskTokens) {
    const identity = opts.identity ?? `${hostname()}-${process.pid}-${newUuid().slice(0, 8)}`;
    const messageLimits = resolveMessageLimits(opts.messageLimits);
    const core = this.#core = new EngineCore({
      store: opts.store, clock: opts.clock ?? systemClock, waitClock: opts.waitClock ?? systemClock, identity,
      logger: opts.logger ?? jsonLogger({ component: 'engine' }), features: composeFeatures({ messageLimits }),
      limits: resolveLimits(opts.limits), tokens, eager: eagerDispatch,
    });
    this.#tasks = new TaskService(core);
    this.#messages = new Messages(core, messageLimits);
    this.#schedules = new ScheduleOps(core);
    this.#ownsStore = opts.ownsStore ?? false;
    this.#namespaces = new NamespaceRegistry(opts.store, core.clock, (name) => {
      this.#tasks.endPollsIn(name);
      this.#retention.purge(name);
    });
    this.#retention = new RetentionSweeper(opts.store, core.clock, core.waitClock,
      opts.retentionSweepIntervalMs ?? DEFAULT_RETENTION_SWEEP_INTERVAL_MS, core.logger);
    this.#loop = new TimerLoop(opts.store, core.clock, identity, (t) => fireTimer(core, t),
      (q) => this.#taskReady(queueKey(q.namespace, q.taskQueue, q.kind), q.count, false),
      (err) => core.logger.error('timer loop failed; retrying in 1s', { err: String(err) }));
    this.#unsubscribe = opts.store.subscribe((n) => this.#onNotification(n));
    const calls = serviceCalls({ core, tasks: this.#tasks, byId: new ActivitiesById(core), messages: this.#messages, schedules: this.#schedules, namespaces: this.#namespaces,
      queues: taskQueuesOf(core) });
    for (const method of WORKFLOW_SERVICE_METHODS) {
      const call = calls[method] as (req: unknown, opts?: unknown) => Promise<unknown>;
      const namespaces = this.#namespaces;
      (this as Record<string, unknown>)[method] = METHODS[method].inNamespace
        ? async (req: unknown, o?: unknown) => {
          await namespaces.check(req);
          return call(req, o);
        }
        : call;
    }
  }

  /** Creates an engine over a store and starts its timer loop. */
  static async create(opts: EngineOptions): Promise<Engine> {
    if (!opts || typeof opts !== 'object' || !opts.store) throw new ValidationError('store', 'is required', undefined);
    refuseUnknownKeys('Engine', opts, ENGINE_OPTION_KEYS);
    const interval = opts.retentionSweepIntervalMs;
    if (interval !== undefined && (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 0)) {
      throw new ValidationError('retentionSweepIntervalMs', 'must be a whole number of milliseconds >= 0', interval);
    }
    const keys = opts.taskTokenKeys
      ?? [parseStoredTokenKey(await opts.store.sharedSecret(STORED_TOKEN_KEY_NAME, newStoredTokenKey()))];
    const engine = new Engine(opts, new TaskTokens(keys));
    await engine.#namespaces.load();
    engine.#loop.start();
    engine.#retention.start();
    return engine;
  }

  /**
   * Opens the database (`sqlite:PATH`, created if missing, or `postgres://…`; migrations are
   * applied) and an engine over it that owns it: {@link shutdown} closes the database too. This
   * is the engine inside the application's own process, with no server between:
   * `new Client({ connection: engine })` and `Worker.create({ connection: engine, … })` call it
   * directly, and a start with `requestEagerStart` runs its first workflow task in this process's
   * worker at once. Any number of processes may open one PostgreSQL database this way, beside
   * servers of it; a SQLite file is opened by one process at a time.
   * @throws ValidationError naming the option that breaks a rule (an unknown one among them).
   */
  static async open(database: string, options: EngineOpenOptions = {}): Promise<Engine> {
    if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be an object', options);
    refuseUnknownKeys('Engine.open', options, OPEN_OPTION_KEYS);
    const storeOptions: Record<string, unknown> = {};
    const engineOptions: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) (STORE_OPTION_KEYS.includes(key) ? storeOptions : engineOptions)[key] = value;
    const store = await openStore(database, storeOptions);
    try {
      return await Engine.create({ ...(engineOptions as Omit<EngineOptions, 'store'>), store, ownsStore: true });
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
  }

  /** The store this engine runs on. */
  get store(): Store {
    return this.#core.store;
  }

  /**
   * True when the engine has nothing to do until time moves: no task is ready to dispatch now
   * on a queue some worker polls (a queue this engine knows to hold a visible task counts until
   * a poll of it finds none; a queue nobody has polled for a second does not count, as no worker
   * can make progress there before a timeout — schedule-to-start — moves it on), no
   * task handed to a worker is awaiting its answer (it counts until answered, or until its
   * timeout — workflow task timeout, activity start-to-close — has passed in real time, so a
   * vanished worker cannot block forever), no transition is running, and the timer loop is
   * asleep. A time-skipping environment advances the clock to `ManualClock.nextDue()` only then.
   */
  isIdle(): boolean {
    const c = this.#core;
    return c.busy === 0 && !this.#loop.busy && c.readyPolledQueues() === 0 && !c.hasInFlight();
  }

  /** What keeps the engine from being idle, for diagnostics and test environments. */
  pendingWork(): { transitions: number; timerLoopBusy: boolean; readyQueues: number; unpolledReadyQueues: number; inFlightTasks: number } {
    const c = this.#core;
    c.hasInFlight();
    const polled = c.readyPolledQueues();
    return {
      transitions: c.busy, timerLoopBusy: this.#loop.busy, readyQueues: polled, unpolledReadyQueues: c.readyQueues.size - polled,
      inFlightTasks: c.inFlight.size,
    };
  }

  /** Ends long polls (they answer null), stops the timer loop; closes the store only if it owns it. */
  async shutdown(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#core.shutdown.abort();
    this.#core.queueWaiters.notifyAll();
    this.#core.closeWaiters.notifyAll();
    await this.#loop.stop();
    await this.#retention.stop();
    this.#unsubscribe();
    if (this.#ownsStore) await this.#core.store.close();
  }

  #taskReady(key: string, count: number, add: boolean): void {
    this.#core.markReady(key, count, add);
    this.#core.queueWaiters.notify(key, count);
  }

  #onNotification(n: StoreNotification): void {
    if (n.type === 'task') {
      if (n.visibleAt <= this.#core.clock.now()) this.#taskReady(queueKey(n.namespace, n.taskQueue, n.kind), n.count, true);
      else this.#loop.poke(n.visibleAt);
    } else if (n.type === 'timer') {
      this.#loop.poke(n.dueAt);
    } else if (n.type === 'namespaceDeleted') {
      this.#namespaces.forget(n.name);
      this.#tasks.endPollsIn(n.name);
    } else if (n.type === 'resync') {
      // Closes and timers committed by other servers meanwhile went unannounced: waiting
      // result() polls re-read their runs and the timer loop re-scans, instead of waiting out their timeouts.
      // A namespace deleted meanwhile too: names are looked up again.
      this.#namespaces.forget();
      this.#loop.poke(0);
      this.#core.forgetEmpty();
      this.#core.closeWaiters.notifyAll();
    } else {
      this.#core.closeWaiters.notify(n.runId);
    }
  }

  /** See TaskService.returnUndeliveredTask: a polled task whose caller was gone goes back. */
  returnUndeliveredTask(task: UndeliveredTask): Promise<void> {
    return this.#tasks.returnUndeliveredTask(task);
  }

  /**
   * Deletes now the closed runs past their namespace's retention (what the periodic sweep does),
   * judged by the engine's clock.
   * @returns how many runs were deleted.
   */
  sweepRetention(): Promise<number> {
    return this.#retention.sweep();
  }
}
