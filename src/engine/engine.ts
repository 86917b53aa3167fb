import { hostname } from 'node:os';
import type { UndeliveredTask, UndeliveredTaskReturn } from './tasks/undelivered-tasks.ts';
import { ServiceError } from '../common/errors.ts';
import { newUuid } from '../common/ids.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { validatePoll } from './core/requests.ts';
import type {
  ActivityTask, CallOptions, CancelWorkflowRequest, ExecutionRequest, GetHistoryRequest, GetHistoryResponse,
  ListWorkflowExecutionsRequest, ListWorkflowExecutionsResponse, PollRequest, RecordHeartbeatRequest, RecordHeartbeatResponse,
  RespondActivityTaskCanceledRequest, RespondActivityTaskCompletedRequest, RespondActivityTaskCompletedResponse, RespondActivityTaskFailedRequest,
  RespondWorkflowTaskCompletedRequest, RespondWorkflowTaskCompletedResponse, RespondWorkflowTaskFailedRequest, StartWorkflowExecutionRequest, ResetWorkflowRequest,
  ResetWorkflowResponse, ShutdownWorkerRequest, StartWorkflowExecutionResponse, TerminateWorkflowRequest,
  WorkflowExecutionDescription, WorkflowService, WorkflowTask,
} from '../protocol/index.ts';
import type {
  PollUpdateRequest, QueryTask, QueryWorkflowRequest, QueryWorkflowResponse, RespondQueryTaskCompletedRequest,
  SignalWithStartRequest, SignalWorkflowRequest, UpdateWorkflowRequest, UpdateWorkflowResponse,
} from '../protocol/index.ts';
import { systemClock, type Clock } from '../retry/clock.ts';
import { ValidationError } from '../errors/index.ts';
import type { ExecutionRecord, Store, StoreNotification } from '../store/types.ts';
import { TaskService } from './tasks/task-service.ts';
import { EngineCore } from './core/engine-core.ts';
import { queueKey } from './core/queue-book.ts';
import type { Logger } from './core/logger.ts';
import { jsonLogger } from '../common/logger.ts';
import { validateStart } from './core/requests.ts';
import {
  cancelWorkflowRequestSchema, executionRequestSchema, getHistoryRequestSchema, terminateWorkflowRequestSchema,
} from '../protocol/schemas/executions.ts';
import { parseRequest } from '../protocol/parse.ts';
import { terminateRun } from './core/runs.ts';
import { startWorkflow } from './core/start.ts';
import { resolveMessageLimits, type MessageLimits } from './messages/message-state.ts';
import { composeFeatures } from './features.ts';
import { eagerDispatch } from './tasks/eager-dispatch.ts';
import { Messages } from './messages/messages.ts';
import { TimerLoop } from './core/timer-loop.ts';
import { fireTimer } from './core/timer-dispatch.ts';
import { ScheduleOps } from './schedules/index.ts';
import type {
  CreateScheduleRequest, ListSchedulesRequest, ListSchedulesResponse, PatchScheduleRequest, ScheduleDescription, ScheduleRef,
  UpdateScheduleRequest,
} from '../protocol/index.ts';
import { resolveLimits, type EngineLimits } from './core/limits.ts';
import { resetWorkflowExecution } from './reset/reset.ts';
import {
  newStoredTokenKey, parseStoredTokenKey, STORED_TOKEN_KEY_NAME, TaskTokens, type TaskTokenKey,
} from './core/task-token.ts';
import { describe, listExecutions } from './visibility/visibility.ts';
import { resolveRun } from './core/resolve-run.ts';
import { countExecutions, createSearchAttribute, listSearchAttributes, validateStartAttributes } from './visibility/search-attributes.ts';
import type {
  CountWorkflowExecutionsRequest, CountWorkflowExecutionsResponse, CreateSearchAttributeRequest, ListSearchAttributesRequest,
  ListSearchAttributesResponse,
} from '../protocol/index.ts';
import type {
  DescribeNamespaceRequest, ListNamespacesRequest, ListNamespacesResponse, NamespaceDescription, RegisterNamespaceRequest,
  UpdateNamespaceRequest,
} from '../protocol/index.ts';
import { NamespaceRegistry } from './namespaces/namespaces.ts';
import { DEFAULT_RETENTION_SWEEP_INTERVAL_MS, RetentionSweeper } from './namespaces/retention.ts';

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

/**
 * The durable engine: implements {@link WorkflowService} over a {@link Store}. Every state change
 * of a run is one store transaction; timers fire from the store; long polls are woken by
 * in-process notification and, on PostgreSQL, LISTEN/NOTIFY from other servers.
 */
/** Keys of {@link EngineOptions}. */
const ENGINE_OPTION_KEYS = optionKeys<EngineOptions>({
  store: true, clock: true, waitClock: true, identity: true, logger: true, ownsStore: true, limits: true, messageLimits: true, taskTokenKeys: true,
  retentionSweepIntervalMs: true,
});

export class Engine implements WorkflowService, UndeliveredTaskReturn {
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
    this.#core = new EngineCore({
      store: opts.store, clock: opts.clock ?? systemClock, waitClock: opts.waitClock ?? systemClock, identity,
      logger: opts.logger ?? jsonLogger({ component: 'engine' }), features: composeFeatures({ messageLimits }),
      limits: resolveLimits(opts.limits), tokens, eager: eagerDispatch,
    });
    this.#tasks = new TaskService(this.#core);
    this.#messages = new Messages(this.#core, messageLimits);
    this.#schedules = new ScheduleOps(this.#core);
    this.#ownsStore = opts.ownsStore ?? false;
    this.#namespaces = new NamespaceRegistry(opts.store, this.#core.clock);
    this.#retention = new RetentionSweeper(opts.store, this.#core.clock, this.#core.waitClock,
      opts.retentionSweepIntervalMs ?? DEFAULT_RETENTION_SWEEP_INTERVAL_MS, this.#core.logger);
    this.#loop = new TimerLoop(opts.store, this.#core.clock, identity, (t) => fireTimer(this.#core, t),
      (q) => this.#taskReady(queueKey(q.namespace, q.taskQueue, q.kind), q.count, false),
      (err) => this.#core.logger.error('timer loop failed; retrying in 1s', { err: String(err) }));
    this.#unsubscribe = opts.store.subscribe((n) => this.#onNotification(n));
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
    } else if (n.type === 'resync') {
      // Closes and timers committed by other servers meanwhile went unannounced: waiting
      // result() polls re-read their runs and the timer loop re-scans, instead of waiting out their timeouts.
      this.#loop.poke(0);
      this.#core.forgetEmpty();
      this.#core.closeWaiters.notifyAll();
    } else {
      this.#core.closeWaiters.notify(n.runId);
    }
  }

  async startWorkflowExecution(req: StartWorkflowExecutionRequest): Promise<StartWorkflowExecutionResponse> {
    await this.#namespaces.check(req);
    const s = validateStart(req);
    const searchAttributes = await validateStartAttributes(this.#core.store, s.namespace, req.searchAttributes);
    if (searchAttributes) s.searchAttributes = searchAttributes;
    return startWorkflow(this.#core, s);
  }

  async describeWorkflowExecution(req: ExecutionRequest): Promise<WorkflowExecutionDescription> {
    await this.#namespaces.check(req);
    const rec = await resolveRun(this.#core.store, parseRequest(executionRequestSchema, req));
    return describe(this.#core.features, rec, this.#core.clock.now());
  }

  async listWorkflowExecutions(req: ListWorkflowExecutionsRequest): Promise<ListWorkflowExecutionsResponse> {
    await this.#namespaces.check(req);
    return listExecutions(this.#core.store, req);
  }

  async countWorkflowExecutions(req: CountWorkflowExecutionsRequest): Promise<CountWorkflowExecutionsResponse> {
    await this.#namespaces.check(req);
    return countExecutions(this.#core.store, req);
  }

  async createSearchAttribute(req: CreateSearchAttributeRequest): Promise<void> {
    await this.#namespaces.check(req);
    return createSearchAttribute(this.#core.store, req);
  }

  async listSearchAttributes(req: ListSearchAttributesRequest): Promise<ListSearchAttributesResponse> {
    await this.#namespaces.check(req);
    return listSearchAttributes(this.#core.store, req);
  }

  async getWorkflowExecutionHistory(input: GetHistoryRequest, opts?: CallOptions): Promise<GetHistoryResponse> {
    await this.#namespaces.check(input);
    const ref = parseRequest(getHistoryRequestSchema, input);
    const { pageSize, closeEventOnly, waitForClose, waitTimeoutMs: waitMs, nextPageToken: token } = ref;
    let from = 1;
    if (token !== undefined) {
      from = Number(Buffer.from(token, 'base64url').toString('utf8'));
      if (!Number.isInteger(from) || from < 1) throw new ValidationError('nextPageToken', 'must be a token from an earlier page', token);
    }
    const { store, closeWaiters, shutdown } = this.#core;
    // Watching before the first read (when the run id is known) makes that read the check a wait needs.
    let watch = waitForClose && ref.runId !== undefined ? closeWaiters.watch(ref.runId) : undefined;
    let rec: ExecutionRecord;
    let held: ExecutionRecord | undefined;
    try {
      // A cached row only decides whether to wait: the watch, registered first, hears of a close
      // by any server (another server's NOTIFY drops the row before it wakes anyone), and the
      // answer comes from a closed row, which never changes again.
      held = watch ? store.cachedExecution?.(ref.runId!) : undefined;
      rec = held && held.namespace === ref.namespace && held.workflowId === ref.workflowId ? held : await resolveRun(store, ref);
    } catch (err) {
      watch?.cancel();
      throw err;
    }
    if (waitForClose) {
      const deadline = this.#core.waitClock.now() + waitMs;
      while (rec.status === 'Running') {
        if (!watch) {
          watch = closeWaiters.watch(rec.runId);
          // A closed run never changes again, so a cached closed row is the stored one.
          const cached = store.cachedExecution?.(rec.runId);
          rec = cached && cached.status !== 'Running' ? cached : (await store.getExecution(rec.runId))!;
        }
        const remaining = deadline - this.#core.waitClock.now();
        if (rec.status !== 'Running' || remaining <= 0 || opts?.signal?.aborted || shutdown.signal.aborted) break;
        await watch.wait(remaining, [opts?.signal, shutdown.signal]);
        watch = undefined;
      }
      watch?.cancel();
      // "Still running" is answered from the stored row, never from a cached one.
      if (rec === held && rec.status === 'Running') rec = (await store.getExecution(rec.runId)) ?? rec;
      if (rec.status === 'Running') return { events: [] };
    }
    if (closeEventOnly) {
      return { events: rec.status === 'Running' ? [] : await store.readHistory(rec.runId, rec.nextEventId - 1, 1) };
    }
    const events = await store.readHistory(rec.runId, from, pageSize);
    const last = events[events.length - 1];
    const res: GetHistoryResponse = { events };
    if (events.length === pageSize && last) {
      const more = await store.readHistory(rec.runId, last.eventId + 1, 1);
      if (more.length) res.nextPageToken = Buffer.from(String(last.eventId + 1), 'utf8').toString('base64url');
    }
    return res;
  }

  async requestCancelWorkflowExecution(input: CancelWorkflowRequest): Promise<void> {
    await this.#namespaces.check(input);
    const { reason, identity, requestId, ...ref } = parseRequest(cancelWorkflowRequestSchema, input);
    const rec = await resolveRun(this.#core.store, ref);
    await this.#core.mutate(rec.runId, (b) => {
      if (requestId !== undefined && b.state.cancelRequestId === requestId) return;
      if (b.closed) throw new ServiceError('FailedPrecondition', `workflow ${rec.workflowId} run ${rec.runId} is already ${b.record.status}`);
      if (b.state.cancelRequested) return;
      b.state.cancelRequested = true;
      if (requestId !== undefined) b.state.cancelRequestId = requestId;
      b.addEvent('WorkflowExecutionCancelRequested', { ...(reason !== undefined ? { reason } : {}), ...(identity !== undefined ? { identity } : {}) });
      b.ensureWorkflowTask();
    });
  }

  async terminateWorkflowExecution(input: TerminateWorkflowRequest): Promise<void> {
    await this.#namespaces.check(input);
    const req = parseRequest(terminateWorkflowRequestSchema, input);
    const rec = await resolveRun(this.#core.store, req);
    const { reason, identity, requestId } = req;
    await this.#core.mutate(rec.runId, (b) => {
      if (requestId !== undefined && b.state.terminateRequestId === requestId) return;
      if (b.closed) throw new ServiceError('FailedPrecondition', `workflow ${rec.workflowId} run ${rec.runId} is already ${b.record.status}`);
      if (requestId !== undefined) b.state.terminateRequestId = requestId;
      terminateRun(b, reason, req.details, identity);
    });
  }

  async resetWorkflowExecution(req: ResetWorkflowRequest): Promise<ResetWorkflowResponse> {
    await this.#namespaces.check(req);
    return resetWorkflowExecution(this.#core, req);
  }

  async pollWorkflowTaskQueue(req: PollRequest, opts?: CallOptions): Promise<WorkflowTask | null> {
    await this.#namespaces.check(req);
    return this.#tasks.pollWorkflowTaskQueue(req, opts);
  }

  async respondWorkflowTaskCompleted(req: RespondWorkflowTaskCompletedRequest): Promise<RespondWorkflowTaskCompletedResponse> {
    return this.#tasks.respondWorkflowTaskCompleted(req);
  }

  async respondWorkflowTaskFailed(req: RespondWorkflowTaskFailedRequest): Promise<void> {
    return this.#tasks.respondWorkflowTaskFailed(req);
  }

  async pollActivityTaskQueue(req: PollRequest, opts?: CallOptions): Promise<ActivityTask | null> {
    await this.#namespaces.check(req);
    return this.#tasks.pollActivityTaskQueue(req, opts);
  }

  async recordActivityTaskHeartbeat(req: RecordHeartbeatRequest): Promise<RecordHeartbeatResponse> {
    return this.#tasks.recordActivityTaskHeartbeat(req);
  }

  async respondActivityTaskCompleted(req: RespondActivityTaskCompletedRequest): Promise<RespondActivityTaskCompletedResponse> {
    return this.#tasks.respondActivityTaskCompleted(req);
  }

  async respondActivityTaskFailed(req: RespondActivityTaskFailedRequest): Promise<void> {
    return this.#tasks.respondActivityTaskFailed(req);
  }

  async shutdownWorker(req: ShutdownWorkerRequest): Promise<void> {
    await this.#namespaces.check(req);
    return this.#tasks.shutdownWorker(req);
  }

  /** See TaskService.returnUndeliveredTask: a polled task whose caller was gone goes back. */
  returnUndeliveredTask(task: UndeliveredTask): Promise<void> {
    return this.#tasks.returnUndeliveredTask(task);
  }

  async respondActivityTaskCanceled(req: RespondActivityTaskCanceledRequest): Promise<void> {
    return this.#tasks.respondActivityTaskCanceled(req);
  }
  async signalWorkflowExecution(req: SignalWorkflowRequest): Promise<void> {
    await this.#namespaces.check(req);
    return this.#messages.signal(req);
  }

  async signalWithStartWorkflowExecution(req: SignalWithStartRequest): Promise<StartWorkflowExecutionResponse> {
    await this.#namespaces.check(req);
    return this.#messages.signalWithStart(req);
  }

  async queryWorkflow(req: QueryWorkflowRequest): Promise<QueryWorkflowResponse> {
    await this.#namespaces.check(req);
    return this.#messages.query(req);
  }

  async pollQueryTaskQueue(req: PollRequest, opts?: CallOptions): Promise<QueryTask | null> {
    await this.#namespaces.check(req);
    return this.#tasks.withPoll(validatePoll(req), opts?.signal, (signal) => this.#messages.pollQuery(req, { signal }));
  }

  async respondQueryTaskCompleted(req: RespondQueryTaskCompletedRequest): Promise<void> {
    return this.#messages.respondQuery(req);
  }

  async updateWorkflowExecution(req: UpdateWorkflowRequest): Promise<UpdateWorkflowResponse> {
    await this.#namespaces.check(req);
    return this.#messages.update(req);
  }

  async pollWorkflowExecutionUpdate(req: PollUpdateRequest, opts?: CallOptions): Promise<UpdateWorkflowResponse> {
    await this.#namespaces.check(req);
    return this.#messages.pollUpdate(req, opts);
  }

  async createSchedule(req: CreateScheduleRequest): Promise<{ conflictToken: number }> {
    await this.#namespaces.check(req);
    return this.#schedules.createSchedule(req);
  }

  async describeSchedule(req: ScheduleRef): Promise<ScheduleDescription> {
    await this.#namespaces.check(req);
    return this.#schedules.describeSchedule(req);
  }

  async updateSchedule(req: UpdateScheduleRequest): Promise<void> {
    await this.#namespaces.check(req);
    return this.#schedules.updateSchedule(req);
  }

  async patchSchedule(req: PatchScheduleRequest): Promise<void> {
    await this.#namespaces.check(req);
    return this.#schedules.patchSchedule(req);
  }

  async deleteSchedule(req: ScheduleRef): Promise<void> {
    await this.#namespaces.check(req);
    return this.#schedules.deleteSchedule(req);
  }

  async listSchedules(req: ListSchedulesRequest): Promise<ListSchedulesResponse> {
    await this.#namespaces.check(req);
    return this.#schedules.listSchedules(req);
  }

  registerNamespace(req: RegisterNamespaceRequest): Promise<NamespaceDescription> {
    return this.#namespaces.register(req);
  }

  describeNamespace(req: DescribeNamespaceRequest): Promise<NamespaceDescription> {
    return this.#namespaces.describe(req);
  }

  listNamespaces(req: ListNamespacesRequest): Promise<ListNamespacesResponse> {
    return this.#namespaces.list(req);
  }

  updateNamespace(req: UpdateNamespaceRequest): Promise<NamespaceDescription> {
    return this.#namespaces.update(req);
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
