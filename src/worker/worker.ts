import { setMaxListeners } from 'node:events';
import { afterImmediates } from '../common/immediates.ts';
import { WorkerMetrics, type PollOutcome } from './worker-metrics.ts';
import { WorkerTelemetry } from './worker-telemetry.ts';
import { newUuid } from '../common/ids.ts';
import { IllegalStateError } from '../common/errors.ts';
import { CancelledFailure } from '../common/failure.ts';
import type { ActivityTask, CallOptions, WorkflowService, WorkflowTask } from '../protocol/index.ts';
import { HttpWorkflowService } from '../client/http-service.ts';
import { offerToEagerStarts } from './eager-start.ts';
import { withPayloadCodecs } from '../codec/codec-service.ts';
import { runActivityTask, type RunningActivity } from './activity-executor.ts';
import { bundleWorkflows, type WorkflowBundle } from './bundler.ts';
import { loadWorkflowBundle } from './workflow-bundle.ts';
import { rateLimitedPoll } from './activity-rate.ts';
import { ConnectionMonitor, pollBackoffMs, Slots } from './poller.ts';
import { throttledFor } from '../common/errors.ts';
import { resolveWorkerOptions, type ResolvedWorkerOptions, type WorkerOptions } from './worker-options.ts';
import { LocalActivityRunner } from './local-activity-runner.ts';
import { NO_WORKFLOW_STATS, WorkflowTaskHandler, type WorkflowTaskStats } from './workflow-task-handler.ts';
import { QueryTaskHandler } from './query-handler.ts';
import {
  replayHistory, replayRunId, type HistoryAndWorkflowId, type ReplayableHistory, type ReplayResult, type ReplayWorkerOptions,
} from './replay.ts';
import { ValidationError } from '../errors/index.ts';
import type { QueryTask } from '../protocol/index.ts';

/** Queries (and update validations) answered at once; each replays its run in a throwaway sandbox. */
const QUERY_CONCURRENCY = 2;

/** Lifecycle of a {@link Worker}. */
export type WorkerState = 'created' | 'running' | 'stopping' | 'stopped';

/**
 * Most free execution slots one poll reserves, and so the most tasks it asks for
 * (PollRequest.maxTasks); the service accepts up to its own, larger per-request bound.
 */
const MAX_SLOTS_HELD_PER_POLL = 16;

/**
 * Polls one task queue for workflow tasks (answered by replaying workflow code in a sandbox)
 * and activity tasks (run as plain async functions). Survives outages of the service: polls
 * back off and resume when it is reachable again.
 */
export class Worker {
  readonly options: ResolvedWorkerOptions;
  readonly #service: WorkflowService;
  /** #service, through the payload codecs when the worker has any: where reports and history fetches go. */
  readonly #codecService: WorkflowService;
  readonly #ownsService: boolean;
  readonly #workflows: WorkflowTaskHandler | undefined;
  readonly #queries: QueryTaskHandler | undefined;
  readonly #monitor: ConnectionMonitor;
  readonly #stop = stopController();
  /** Aborted when shutdown begins: no new polls; polls already open are let finish. */
  readonly #drain = stopController();
  /** Sent with every poll, so shutdownWorker ends this worker's polls and no one else's. */
  readonly #instanceId = newUuid();
  #loops: Promise<void>[] = [];
  readonly #workflowTasks = new Set<Promise<void>>();
  readonly #activities = new Set<RunningActivity>();
  #state: WorkerState = 'created';
  /** Ends this worker's offer to eager starts (see client/eager-workers.ts). */
  #withdrawEager: () => void = () => undefined;
  #running: Promise<void> | undefined;
  readonly #telemetry: WorkerTelemetry;

  private constructor(options: ResolvedWorkerOptions, connection: WorkflowService, ownsService: boolean, bundle: WorkflowBundle | undefined) {
    this.options = options;
    const metrics = options.metricsRegistry && new WorkerMetrics(options.metricsRegistry, options.taskQueue, {
      slots: () => [
        { kind: 'workflow', used: this.#workflowTasks.size, max: options.maxConcurrentWorkflowTaskExecutions },
        { kind: 'activity', used: this.#activities.size, max: options.maxConcurrentActivityTaskExecutions },
      ],
      cache: () => {
        const s = this.workflowStats;
        // A continued task runs on the cached run: a hit.
        return { hits: s.cacheHits + s.continued, misses: s.replays, cached: s.cached };
      },
    });
    this.#telemetry = new WorkerTelemetry(options.logger, metrics);
    this.#service = this.#telemetry.observeService(connection);
    // Polls go out on #service and come back as they are: the handlers decode what a task carries.
    const { codec } = options;
    const service = codec ? withPayloadCodecs(this.#service, codec) : this.#service;
    this.#codecService = service;
    this.#ownsService = ownsService;
    this.#monitor = new ConnectionMonitor(options.logger, options.clock, options.address ?? 'in-process connection');
    if (bundle) {
      this.#workflows = new WorkflowTaskHandler({
        service, bundle, identity: options.identity, logger: options.logger, maxCachedWorkflows: options.maxCachedWorkflows,
        reuseV8Context: options.reuseV8Context, clock: options.clock, codec, taskQueue: options.taskQueue,
      });
      this.#workflows.localActivities = new LocalActivityRunner({
        activities: options.activities, clock: options.clock, logger: options.logger,
        maxConcurrent: options.maxConcurrentLocalActivityExecutions, errorCodes: options.errorCodes, interceptors: options.interceptors.activity,
      });
      this.#queries = new QueryTaskHandler({
        service, bundle, identity: options.identity, logger: options.logger, reuseV8Context: options.reuseV8Context, codec,
      });
    }
  }

  /**
   * Replays one history against `options.workflowsPath`, as Temporal's `Worker.runReplayHistory`
   * does (the same replay as `Replayer.replayHistory` of steadfast/testing).
   * @param workflowId seen by `workflowInfo()`. @default the history's own, else "replay"
   * @throws DeterminismViolationError naming the event and the command that differ;
   *   WorkflowTaskFailedError when workflow code fails a workflow task.
   */
  static async runReplayHistory(options: ReplayWorkerOptions, history: ReplayableHistory, workflowId?: string): Promise<void> {
    if (typeof options !== 'object' || options === null) throw new ValidationError('replay options', 'must be an object with workflowsPath', options);
    return replayHistory(history, { ...options, ...(workflowId !== undefined ? { workflowId } : {}) });
  }

  /** Replays many histories, yielding one result per history instead of throwing: Temporal's `Worker.runReplayHistories`. */
  static async *runReplayHistories(
    options: ReplayWorkerOptions, histories: AsyncIterable<HistoryAndWorkflowId> | Iterable<HistoryAndWorkflowId>,
  ): AsyncIterableIterator<ReplayResult> {
    for await (const { workflowId, history } of histories) {
      const runId = replayRunId(history);
      try {
        await Worker.runReplayHistory(options, history, workflowId);
        yield { workflowId, runId };
      } catch (err) {
        yield { workflowId, runId, error: err as Error };
      }
    }
  }

  /**
   * Validates the options and bundles the workflows module (so a banned import or a syntax
   * error fails here, not on the first task).
   * @throws ValidationError naming the option; WorkflowBundleError naming the import and file.
   */
  static async create(options: WorkerOptions): Promise<Worker> {
    const resolved = resolveWorkerOptions(options);
    const bundle = resolved.workflowBundle ? await loadWorkflowBundle(resolved.workflowBundle)
      : resolved.workflowsPath ? await bundleWorkflows(resolved.workflowsPath, resolved.interceptors.workflowModules) : undefined;
    // Reports have their own retries (report.ts); a history fetch waits out an outage up to the
    // default workflow task timeout, after which the task's answer would be refused anyway.
    const service = resolved.connection ?? new HttpWorkflowService({ address: resolved.address!, retry: { timeout: '10s' }, ...resolved.connectionOptions });
    return new Worker(resolved, service, resolved.connection === undefined, bundle);
  }

  get state(): WorkerState {
    return this.#state;
  }

  /**
   * Cache and replay counters of the workflow side, the workflow tasks run after an activity's
   * completion (continued) and those of them the service refused, and the activity tasks that
   * came in completions' answers (eager activities), and the first tasks of eager starts in this
   * process that ran while their start was written (ranAhead) and those dropped because it was
   * not (droppedAhead).
   */
  get workflowStats(): WorkflowTaskStats & { cached: number } {
    const w = this.#workflows;
    return { ...(w?.stats ?? NO_WORKFLOW_STATS), cached: w?.cache.size ?? 0 };
  }

  /** Polls until {@link shutdown}; resolves when shutdown has completed. */
  run(): Promise<void> {
    if (this.#state !== 'created') throw new IllegalStateError(`Worker.run() can be called once; the worker is ${this.#state}`);
    this.#state = 'running';
    const {
      maxConcurrentWorkflowTaskExecutions, maxConcurrentActivityTaskExecutions, maxConcurrentWorkflowTaskPolls,
      maxConcurrentActivityTaskPolls, namespace, taskQueue, identity,
    } = this.options;
    const loops: Promise<void>[] = [];
    const req = { namespace, taskQueue, identity, workerInstanceId: this.#instanceId };
    const perSecond = this.options.maxTaskQueueActivitiesPerSecond;
    const rate = perSecond !== undefined ? { maxTasksPerSecond: perSecond } : {};
    this.options.logger.info('worker started', this.#who());
    if (this.#workflows) {
      const handler = this.#workflows;
      const slots = new Slots(maxConcurrentWorkflowTaskExecutions);
      const runTask = (task: WorkflowTask, written?: Promise<boolean>) => {
        const p = this.#telemetry.workflowTask(task, () => handler.handle(task, written)).finally(() => this.#workflowTasks.delete(p));
        this.#workflowTasks.add(p);
        return p;
      };
      for (let i = 0; i < Math.min(maxConcurrentWorkflowTaskPolls, maxConcurrentWorkflowTaskExecutions); i++) {
        loops.push(this.#pollLoop<WorkflowTask>(`workflow-${i}`, slots,
          (opts, maxTasks) => this.#service.pollWorkflowTaskQueue({ ...req, maxTasks }, opts), runTask));
      }
      this.#withdrawEager = offerToEagerStarts(this.options, slots, this.#drain.signal, runTask);
    }
    if (this.#queries) {
      const handler = this.#queries;
      const slots = new Slots(QUERY_CONCURRENCY);
      for (let i = 0; i < QUERY_CONCURRENCY; i++) {
        loops.push(this.#pollLoop<QueryTask & { moreTasks?: never }>(`query-${i}`, slots, (opts) => this.#service.pollQueryTaskQueue(req, opts), (task) => handler.handle(task)));
      }
    }
    if (Object.keys(this.options.activities).length > 0) {
      // A poll's extra slots leave a quarter free, for activities that come in workflow task completions' answers.
      const slots = new Slots(maxConcurrentActivityTaskExecutions, this.#workflows ? Math.ceil(maxConcurrentActivityTaskExecutions / 4) : 0);
      const workflows = this.#workflows;
      const { logger } = this.options;
      const deps = {
        service: this.#codecService, codec: this.options.codec, activities: this.options.activities, identity, clock: this.options.clock,
        logger, errorCodes: this.options.errorCodes, interceptors: this.options.interceptors.activity, continueWorkflow: workflows && ((t: ActivityTask, r: unknown, ms: number) =>
          this.#telemetry.continuedWorkflowTask(t, taskQueue, () => workflows.continueAfterActivity(t, r, ms))),
      };
      const runActivity = (task: ActivityTask) => {
        const running = this.#telemetry.activity(task, (ended) => runActivityTask(task, { ...deps, onOutcome: ended }));
        this.#activities.add(running);
        return running.done.finally(() => this.#activities.delete(running));
      };
      const ownRate = this.options.maxActivitiesPerSecond;
      const poll = (opts: CallOptions, maxTasks: number) => this.#service.pollActivityTaskQueue({ ...req, maxTasks, ...rate }, opts);
      const activityPoll = ownRate === undefined ? poll : rateLimitedPoll(ownRate, this.options.clock, poll);
      for (let i = 0; i < Math.min(maxConcurrentActivityTaskPolls, maxConcurrentActivityTaskExecutions); i++) {
        loops.push(this.#pollLoop<ActivityTask>(`activity-${i}`, slots, activityPoll, runActivity));
      }
      // Activities a workflow task completion schedules here come back in its answer (eager
      // activities); not on a rate-limited queue, whose tasks the service hands out at its rate.
      if (workflows && rate.maxTasksPerSecond === undefined && ownRate === undefined) {
        workflows.eagerActivities = {
          reserve: (n) => (this.#drain.signal.aborted ? 0 : slots.tryAcquire(n)),
          release: (n) => {
            for (let i = 0; i < n; i++) slots.release();
          },
          run: (task) => {
            runActivity(task).catch((err: unknown) => logger.error(`task handling failed: ${(err as Error)?.message}`))
              .finally(() => slots.release());
          },
        };
      }
    }
    this.#loops = loops;
    this.#running = this.#runUntilStopped(loops);
    return this.#running;
  }

  /**
   * Runs the worker until `promise` settles, then shuts it down and returns the promise's
   * value (or rethrows its error).
   */
  async runUntil<T>(promise: Promise<T> | (() => Promise<T>)): Promise<T> {
    const running = this.run();
    try {
      return await (typeof promise === 'function' ? promise() : promise);
    } finally {
      await this.shutdown();
      await running;
    }
  }

  /**
   * Stops polling (in-flight long polls are aborted), lets workflow tasks finish, gives running
   * activities `shutdownGraceTime` to finish, then aborts their cancellation signals and waits
   * for them to report. Resolves when all of it is done.
   */
  async shutdown(): Promise<void> {
    if (this.#state === 'created') {
      this.#state = 'stopped';
      if (this.#ownsService) (this.#service as HttpWorkflowService).close();
      return;
    }
    if (!this.#drain.signal.aborted) {
      this.#drain.abort(new CancelledFailure('Worker shutting down'));
      this.#withdrawEager();
      // Graceful poll shutdown: the service answers this worker's open polls (empty, or with a
      // task handed out meanwhile, which still runs), so no task is lost in a cut connection.
      // Bounded, for a service that is unreachable or does not answer.
      const { namespace, taskQueue, identity } = this.options;
      const told = Promise.resolve()
        .then(() => this.#service.shutdownWorker?.({ namespace, taskQueue, identity, workerInstanceId: this.#instanceId }))
        .then(() => this.#service.shutdownWorker !== undefined, () => false);
      if (await withinMs(DRAIN_WAIT_MS, told)) await withinMs(DRAIN_WAIT_MS, Promise.all(this.#loops));
    }
    this.#stop.abort(new CancelledFailure('Worker shutting down'));
    await this.#running;
  }

  async #runUntilStopped(loops: Promise<void>[]): Promise<void> {
    await new Promise<void>((resolve) => this.#stop.signal.addEventListener('abort', () => resolve(), { once: true }));
    this.#state = 'stopping';
    const { clock, shutdownGraceTimeMs, logger } = this.options;
    await Promise.all(loops);
    await Promise.all(this.#workflowTasks);
    if (this.#activities.size > 0) {
      const grace = new AbortController();
      // An activity that ends may have started another (an eager activity in its answer): wait for those too.
      const allDone = (async () => {
        while (this.#activities.size > 0) await Promise.all([...this.#activities].map((a) => a.done));
      })();
      const inTime = await Promise.race([
        allDone.then(() => true),
        clock.sleep(shutdownGraceTimeMs, grace.signal).then(() => false, () => true),
      ]);
      grace.abort();
      if (!inTime) {
        logger.warn(`shutdown grace time passed with ${this.#activities.size} activities running; cancelling them`);
        for (const a of this.#activities) a.abort(new CancelledFailure('Worker shutting down'));
        await allDone;
      }
    }
    if (this.#ownsService) (this.#service as HttpWorkflowService).close();
    this.#state = 'stopped';
    logger.info('worker stopped', this.#who());
  }

  /** Who this worker is, for its start and stop lines. */
  #who(): Record<string, unknown> {
    const o = this.options;
    return {
      namespace: o.namespace, taskQueue: o.taskQueue, identity: o.identity, buildId: o.buildId ?? null,
      workflowsPath: o.workflowsPath ?? null, activities: Object.keys(o.activities).sort(),
      ...(o.maxTaskQueueActivitiesPerSecond !== undefined ? { maxTaskQueueActivitiesPerSecond: o.maxTaskQueueActivitiesPerSecond } : {}),
    };
  }

  /** Counts a poll's outcome under its kind (query polls are not counted). */
  #polled(loop: string, outcome: PollOutcome): void {
    if (loop.startsWith('workflow-')) this.#telemetry.polled('workflow', outcome);
    else if (loop.startsWith('activity-')) this.#telemetry.polled('activity', outcome);
  }

  async #pollLoop<T extends { moreTasks?: T[] | undefined }>(
    name: string, slots: Slots, poll: (opts: CallOptions, maxTasks: number) => Promise<T | null>, handle: (task: T) => Promise<void>,
  ): Promise<void> {
    const signal = this.#stop.signal;
    const drain = this.#drain.signal;
    const { clock, identity, logger } = this.options;
    let failures = 0;
    while (!drain.aborted) {
      try {
        await slots.acquire(drain);
      } catch {
        return;
      }
      // Free slots ride along, so a busy queue hands over several tasks per round trip.
      const held = 1 + slots.tryAcquireExtra(MAX_SLOTS_HELD_PER_POLL - 1);
      let task: T | null;
      try {
        task = await poll({ signal }, held);
        this.#polled(name, task ? 'task' : 'empty');
        failures = 0;
        this.#monitor.succeeded();
      } catch (err) {
        for (let i = 0; i < held; i++) slots.release();
        if (signal.aborted) return;
        this.#polled(name, 'error');
        failures++;
        // A namespace over its long-poll cap is reachable: it says when to come back.
        const throttled = throttledFor(err);
        if (throttled === undefined) this.#monitor.failed(err);
        else if (failures === 1) logger.warn(`poll ${name} refused: ${(err as Error).message}`);
        logger.debug(`poll ${name} failed (${failures} in a row): ${(err as Error)?.message}`);
        try {
          await clock.sleep(Math.max(throttled ?? 0, pollBackoffMs(failures, `${identity}/${name}`)), drain);
        } catch {
          return;
        }
        continue;
      }
      const tasks = task ? [task, ...(task.moreTasks ?? [])] : [];
      if (task) delete task.moreTasks;
      for (let i = tasks.length; i < held; i++) slots.release();
      for (const t of tasks) {
        handle(t).catch((err: unknown) => logger.error(`task handling failed: ${(err as Error)?.message}`))
          .finally(() => slots.release());
      }
      // The next poll goes after the calls these tasks make at once: a workflow task's completion
      // (sent on the next immediate, with the calls issued alongside) is what the run waits for,
      // while a new long poll only waits at the server, where this worker's other polls wait too.
      if (tasks.length > 0) await afterImmediates(2);
    }
  }
}

/**
 * The worker's stop signal. Every poll, slot wait and backoff of the worker listens on it, more
 * than Node's default of 10 listeners before it warns of a leak.
 */
function stopController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** How long shutdown waits for the service's answer and then for open polls to end, ms. */
const DRAIN_WAIT_MS = 2_000;

/** Waits for `promise`, but no longer than `ms` of real time; what it resolved to, else undefined. */
async function withinMs<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([promise, new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  })]);
  clearTimeout(timer);
  return result;
}
