import { storedHistoryUpTo } from './history-pages.ts';
import { logAt } from './runtime.ts';
import { DeterminismViolationError, ServiceError } from '../common/errors.ts';
import { ValidationError } from '../errors/index.ts';
import { toFailureInfo } from '../common/failure.ts';
import type { HistoryEvent } from '../history/events.ts';
import type {
  ActivityTask, ContinuedWorkflowTask, RespondActivityTaskCompletedResponse, RunningLocalActivity, WorkflowService, WorkflowTask,
} from '../protocol/index.ts';
import type { WorkflowBundle } from './bundler.ts';
import type { Logger } from './logger.ts';
import type { Clock } from '../retry/clock.ts';
import type { Command } from '../history/commands.ts';
import { deliverReport } from './report.ts';
import type { SandboxLog } from './sandbox.ts';
import { WorkflowCache } from './workflow-cache.ts';
import { runLocalActivities, type LocalActivityRunner } from './local-activity-runner.ts';
import { HistoryMismatchError } from './workflow-run.ts';
import type { CodecChain } from '../codec/codec-chain.ts';
import { refuseEnvelopes } from '../codec/payload-codec.ts';
import { walkCommands, walkEvents, walkFailure } from '../codec/payload-walk.ts';
import { WorkflowRun, WorkflowTaskFailedError } from './workflow-run.ts';

/** The counters of {@link WorkflowTaskHandler.stats}, all zero. */
export const NO_WORKFLOW_STATS = { cacheHits: 0, replays: 0, continued: 0, continuedRefused: 0, eagerActivities: 0, ranAhead: 0, droppedAhead: 0 } as const;

/** What {@link WorkflowTaskHandler.stats} counts. */
export type WorkflowTaskStats = { -readonly [K in keyof typeof NO_WORKFLOW_STATS]: number };

/** Consecutive failures of one workflow task after which the worker warns again (the first one warns too). */
const FAILURES_BEFORE_WARNING = 3;

/** What {@link WorkflowTaskHandler} needs from its worker. */
interface WorkflowTaskHandlerDeps {
  service: WorkflowService;
  bundle: WorkflowBundle;
  identity: string;
  logger: Logger;
  maxCachedWorkflows: number;
  /** See WorkerOptions.reuseV8Context. */
  reuseV8Context: boolean;
  /** Time source of the report retries' backoff and deadline. */
  clock: Clock;
  /** The worker's payload codecs: a task's events are decoded before activation, its commands encoded after. */
  codec?: CodecChain | undefined;
  /** The workflow task queue the worker polls (a continued task must be the run's). */
  taskQueue: string;
}

/** The worker's activity slots, as the handler asks for eager activities (Worker). */
interface EagerActivitySlots {
  /** Reserves up to `n` free activity slots now; returns how many. */
  reserve(n: number): number;
  /** Gives back `n` reserved slots. */
  release(n: number): void;
  /** Runs an activity task in a reserved slot, which is given back when it is done. */
  run(task: ActivityTask): void;
}

/** A workflow task run ahead by the worker that completes the activity which schedules it. */
export interface WorkflowContinuation {
  /** Goes with the activity's completion. */
  task: ContinuedWorkflowTask;
  /** Takes the answer to that completion (undefined when it was not delivered). */
  settle(answer: RespondActivityTaskCompletedResponse | undefined): Promise<void>;
}

/** The workflow task timeout assumed when a task does not carry it (an older server), ms. */
const DEFAULT_WORKFLOW_TASK_TIMEOUT_MS = 10_000;

/** The history a workflow task replays: the stored events, then the task's transient ones. */
export async function fetchHistory(service: WorkflowService, task: WorkflowTask): Promise<HistoryEvent[]> {
  const events = await storedHistoryUpTo(service, task, task.startedEventId);
  // A retried workflow task's own Scheduled/Started events are transient: the engine sends them
  // in the task but stores them only when that attempt completes, so they come from the task.
  const stored = events.length ? events[events.length - 1]!.eventId : 0;
  events.push(...task.history.filter((e) => e.eventId > stored));
  return events.filter((e) => e.eventId <= task.startedEventId);
}

/**
 * Answers workflow tasks. A run found in the cache at exactly the task's
 * `previousStartedEventId` applies only the new events; otherwise the full history is fetched
 * and replayed from scratch in a fresh sandbox, reaching the same state. A run leaves the cache
 * when it closes, when its task fails, and when it is the least recently used beyond capacity.
 */
export class WorkflowTaskHandler {
  readonly cache: WorkflowCache;
  readonly #deps: WorkflowTaskHandlerDeps;
  readonly #log: SandboxLog;
  /** Completions on their way, by run: settled once the answer's events are applied to the cached run. */
  readonly #completing = new Map<string, Promise<void>>();
  /** Runs the local activities the code calls (set by the Worker). */
  localActivities: LocalActivityRunner | undefined;
  /** Set when the worker also runs activities: a completion then asks to run those its commands schedule here. */
  eagerActivities: EagerActivitySlots | undefined;
  /**
   * Tasks answered from the cache and by full replays, tasks continued after an activity and
   * those of them the service refused, activity tasks that came in completions' answers, and
   * first tasks that ran ahead of their start's commit and those of them dropped because their
   * run was not written, for tests and metrics.
   */
  readonly stats: WorkflowTaskStats = { ...NO_WORKFLOW_STATS };

  constructor(deps: WorkflowTaskHandlerDeps) {
    this.#deps = deps;
    this.cache = new WorkflowCache(deps.maxCachedWorkflows);
    this.#log = (level, message, info, attrs) => logAt(deps.logger, level, message, {
      sdkComponent: 'workflow', namespace: info.namespace, taskQueue: info.taskQueue, workflowId: info.workflowId, runId: info.runId,
      workflowType: info.workflowType, ...attrs,
    });
  }

  /**
   * Runs a workflow task and answers it; then, in the same slot, the run's next task when the
   * answer brought one (a heartbeat asks for it: its local activities run on here).
   */
  async handle(task: WorkflowTask, written?: Promise<boolean>): Promise<void> {
    let next = await this.#handleOne(task, written);
    while (next) next = await this.#handleOne(next);
  }

  /**
   * With `written`, the task came ahead of its run's start commit (an eager start in this
   * process): the code runs up to its first effect, and then everything waits for `written`:
   * its local activities, its answer, its log lines. When the run was not written, the task is
   * dropped without a word to the service (the run never existed, or a poll takes its task).
   */
  async #handleOne(task: WorkflowTask, written?: Promise<boolean>): Promise<WorkflowTask | undefined> {
    const { service, identity, logger, clock } = this.#deps;
    const key = runKey(task);
    const report = {
      clock, logger, deadline: clock.now() + (task.workflowTaskTimeoutMs ?? DEFAULT_WORKFLOW_TASK_TIMEOUT_MS),
      meta: { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, workflowType: task.workflowType, attempt: task.attempt },
    };
    let run: WorkflowRun | undefined;
    let commands: Command[];
    const receivedAt = performance.now();
    let forceNewTask = false;
    let running: RunningLocalActivity[] = [];
    const ahead = written && new AheadRun(this.#log, written);
    try {
      run = this.cache.take(key);
      const { codec } = this.#deps;
      let events = codec ? await codec.decode(task.history, walkEvents) : task.history;
      if (!codec && events[0]?.eventType === 'WorkflowExecutionStarted') refuseEnvelopes(events[0].attributes.args, 'this worker');
      const first = events[0]?.eventId;
      let out: Command[] | undefined;
      let replay = true;
      if (run && run.lastStartedEventId === task.previousStartedEventId && first !== undefined && first <= run.lastEventId + 1) {
        // The run may already have applied the first of these: its last completion's answer carried them.
        const after = run.lastEventId;
        try {
          out = await run.apply(first <= after ? events.filter((e) => e.eventId > after) : events);
          this.stats.cacheHits++;
          replay = false;
        } catch (err) {
          if (!(err instanceof HistoryMismatchError)) throw err;
          // The cached run is not where this task's history says it is: replayed from the stored history instead.
          logger.debug(`dropped the cached run: ${err.message}; replaying its history`, report.meta);
        }
      }
      if (replay) {
        run = new WorkflowRun(this.#deps.bundle, { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId }, ahead ? ahead.log : this.#log,
          { reuseV8Context: this.#deps.reuseV8Context });
        if (events[0]?.eventId !== 1) {
          events = await fetchHistory(service, { ...task, history: events });
          if (!codec && events[0]?.eventType === 'WorkflowExecutionStarted') refuseEnvelopes(events[0].attributes.args, 'this worker');
        }
        this.stats.replays++;
        out = await run.apply(events);
      }
      if (!run || !out) throw new Error(`history of ${task.workflowId} ended before workflow task ${task.startedEventId}`);
      if (ahead && !await this.#owned(ahead)) return undefined;
      if (this.localActivities) {
        // Kept alive: before 80% of the task's timeout, the task completes and asks for the next one (Temporal's rule).
        const heartbeatAt = receivedAt + 0.8 * (task.workflowTaskTimeoutMs ?? DEFAULT_WORKFLOW_TASK_TIMEOUT_MS);
        const info = { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, workflowType: task.workflowType, taskQueue: this.#deps.taskQueue };
        forceNewTask = await runLocalActivities(run, this.localActivities, info, out, heartbeatAt);
        // A heartbeat reports the calls still running, for describe.
        if (forceNewTask) {
          const list = this.localActivities.report(info);
          running = codec ? await codec.encode(list, (l, f) => l.map((r) => (r.lastFailure ? { ...r, lastFailure: walkFailure(r.lastFailure, f) } : r))) : list;
        }
      }
      commands = codec ? await codec.encode(out, walkCommands) : out;
    } catch (err) {
      this.cache.delete(key);
      if (ahead && !await this.#owned(ahead)) return undefined;
      const cause = err instanceof DeterminismViolationError ? 'NonDeterminism'
        : err instanceof WorkflowTaskFailedError ? err.taskCause : 'WorkflowError';
      const failure = err instanceof WorkflowTaskFailedError ? err.failure : toFailureInfo(err);
      warnTaskFailed(logger, task, cause, failure.message, report.meta);
      await deliverReport(() => service.respondWorkflowTaskFailed({ taskToken: task.taskToken, cause, failure, identity }),
        { ...report, what: `the failure of workflow task ${task.startedEventId} of ${task.workflowId}` });
      return undefined;
    }
    // Cached before the answer: the service may hand out the run's next task as soon as it has
    // stored this completion. A completion it refused (a stale task, or commands it failed the
    // task for) or could not take in time leaves the cached state ahead of the stored history.
    if (!run.closed) this.cache.put(key, run);
    const sdkMetadata = usedFlagsOf(run);
    const eager = this.#reserveEager(commands);
    const completing = deliverReport(() => service.respondWorkflowTaskCompleted({
      taskToken: task.taskToken, commands, identity, ...sdkMetadata, ...eager.ask,
      ...(forceNewTask ? { forceCreateNewWorkflowTask: true, returnNewWorkflowTask: true } : {}), ...(running.length > 0 ? { runningLocalActivities: running } : {}),
    }),
      { ...report, what: `the completion of workflow task ${task.startedEventId} of ${task.workflowId}`, refusedLevel: 'debug' });
    const settled = completing.then((sent) => {
      eager.take(sent.delivered ? sent.value?.activityTasks : undefined);
      return sent.delivered && !run.closed ? this.#settle(key, run, task.startedEventId, sent.value?.events) : undefined;
    });
    this.#completing.set(key, settled);
    const sent = await completing;
    await settled;
    if (this.#completing.get(key) === settled) this.#completing.delete(key);
    if (sent.delivered) return sent.value?.workflowTask ?? undefined;
    this.cache.delete(key);
    if (sent.why !== 'refused') return undefined;
    // Commands the service refused (a bad option, a payload over the limit) failed the task there;
    // an in-process service throws the ValidationError itself, HTTP brings it as InvalidArgument.
    if (sent.error instanceof ValidationError || (sent.error instanceof ServiceError && sent.error.code === 'InvalidArgument')) {
      warnTaskFailed(logger, task, 'BadCommand', sent.error.message, report.meta);
    } else {
      logger.warn(`the service refused the completion of workflow task ${task.startedEventId}; dropped: ${(sent.error as Error).message}`, report.meta);
    }
  }

  /** True once the run of a task that came ahead of its start's commit is known written; false: drop the task. */
  async #owned(ahead: AheadRun): Promise<boolean> {
    if (ahead.released) return true;
    this.stats.ranAhead++;
    if (await ahead.written) {
      ahead.release();
      return true;
    }
    this.stats.droppedAhead++;
    return false;
  }

  /**
   * Reserves an activity slot for each activity the commands schedule on this worker's queue (as
   * many as are free): the completion asks for that many eager activities. `take` runs the
   * activity tasks the answer brought (none when it was not delivered) and gives back the rest.
   */
  #reserveEager(commands: readonly Command[]): { ask: { eagerActivities?: number }; take(tasks: ActivityTask[] | undefined): void } {
    const slots = this.eagerActivities;
    const { taskQueue } = this.#deps;
    const wanted = slots ? commands.filter((c) => c.commandType === 'ScheduleActivityTask'
      && (c.attributes.taskQueue === undefined || c.attributes.taskQueue === taskQueue)).length : 0;
    const reserved = wanted > 0 ? slots!.reserve(wanted) : 0;
    return {
      ask: reserved > 0 ? { eagerActivities: reserved } : {},
      take: (tasks) => {
        const given = (tasks ?? []).slice(0, reserved);
        this.stats.eagerActivities += given.length;
        for (const t of given) slots!.run(t);
        if (reserved > given.length) slots!.release(reserved - given.length);
      },
    };
  }

  /**
   * Applies the events a completion appended after the task's WorkflowTaskStarted (the answer
   * carries them) to the cached run, which then knows the run's history up to its last event,
   * as a continued task needs. Left alone when another task has taken or moved the run meanwhile.
   */
  async #settle(key: string, run: WorkflowRun, startedEventId: number, appended: HistoryEvent[] | undefined): Promise<void> {
    if (!appended || appended[0]?.eventId !== startedEventId + 1) return;
    const taken = this.cache.take(key);
    if (taken !== run || run.lastEventId !== startedEventId) {
      if (taken) this.cache.put(key, taken);
      return;
    }
    try {
      // Up to the next task's start, when the completion's own transition handed one out: that task brings it.
      const end = appended.findIndex((e) => e.eventType === 'WorkflowTaskStarted');
      const events = end < 0 ? appended : appended.slice(0, end);
      const { codec } = this.#deps;
      await run.apply(codec ? await codec.decode(events, walkEvents) : events);
      // With a task scheduled (events arrived while this one ran), that task comes next, not a continued one.
      run.settled = !events.some((e) => e.eventType === 'WorkflowTaskScheduled') && end < 0;
    } catch (err) {
      this.#deps.logger.debug(`dropped the cached run: its completion's events did not apply (${(err as Error).message})`,
        { workflowId: run.execution.workflowId, runId: run.execution.runId });
      return;
    }
    this.cache.put(key, run);
  }

  /**
   * Runs the workflow task that the completion of `task` (which ran for `ranMs` here) will
   * schedule, on the cached run, when
   * the run is settled: its history ends at its last completion's events, so the only thing new
   * to the code is this result. The commands go with the completion; the service records the
   * task with it if nothing else reached the run meanwhile. Undefined when the run is not
   * cached and settled, or the code failed the task (the task then goes out as usual, and fails
   * there in a replay, which reports it).
   */
  async continueAfterActivity(task: ActivityTask, result: unknown, ranMs: number): Promise<WorkflowContinuation | undefined> {
    const key = runKey(task);
    // The activity may have been handed out before the answer to the completion that scheduled it arrived here.
    await this.#completing.get(key);
    const run = this.cache.take(key);
    if (!run) return undefined;
    if (!run.settled || run.closed || run.info?.taskQueue !== this.#deps.taskQueue || task.scheduledEventId > run.lastEventId) {
      this.cache.put(key, run);
      return undefined;
    }
    const { identity, codec, taskQueue } = this.#deps;
    const after = run.lastEventId;
    // On the service's clock: the attempt's start there, plus the time it took here. Workflow time never goes back.
    const at = Math.max(Math.floor(Date.parse(task.startedTime) + ranMs), run.lastActivationTime);
    if (!Number.isFinite(at)) {
      this.cache.put(key, run);
      return undefined;
    }
    const time = new Date(at).toISOString();
    const scheduledEventId = task.scheduledEventId;
    const events: HistoryEvent[] = [
      { eventId: after + 1, eventType: 'ActivityTaskStarted', eventTime: time, attributes: { scheduledEventId, attempt: task.attempt, identity, requestId: '' } },
      { eventId: after + 2, eventType: 'ActivityTaskCompleted', eventTime: time, attributes: { scheduledEventId, startedEventId: after + 1, identity, result: result ?? null } },
      { eventId: after + 3, eventType: 'WorkflowTaskScheduled', eventTime: time, attributes: { taskQueue, startToCloseTimeoutMs: 0, attempt: 1 } },
      { eventId: after + 4, eventType: 'WorkflowTaskStarted', eventTime: time, attributes: { scheduledEventId: after + 3, identity, requestId: '' } },
    ];
    let commands: Command[];
    try {
      const out = await run.apply(events);
      if (!out) throw new Error('the continued task produced no activation');
      // Local activities run inside a polled task, which the worker keeps alive: the run is replayed there.
      if (run.pendingLocalActivities.length > 0) throw new Error('the continued task calls local activities');
      commands = codec ? await codec.encode(out, walkCommands) : out;
    } catch {
      return undefined;
    }
    this.stats.continued++;
    const eager = this.#reserveEager(commands);
    return {
      task: {
        afterEventId: after, startedEventId: after + 4, startedTimeMs: at, taskQueue, commands, ...eager.ask,
        ...usedFlagsOf(run),
      },
      settle: async (answer) => {
        eager.take(answer?.workflowTask?.activityTasks);
        const accepted = answer?.workflowTask?.accepted === true;
        if (!accepted) this.stats.continuedRefused++;
        // A refused task leaves the run ahead of its history: the task goes out as usual, to a replay.
        if (!accepted || run.closed) return;
        this.cache.put(key, run);
        await this.#settle(key, run, after + 4, answer.workflowTask!.events);
      },
    };
  }
}

/**
 * A run whose first task came ahead of its start's commit, and its log meanwhile: lines wait, and
 * go once the run is known written; a run that was not written never says anything.
 */
class AheadRun {
  #lines: Parameters<SandboxLog>[] | undefined = [];
  constructor(readonly sink: SandboxLog, readonly written: Promise<boolean>) {}

  get released(): boolean {
    return this.#lines === undefined;
  }

  readonly log: SandboxLog = (...line) => {
    if (this.#lines) this.#lines.push(line);
    else this.sink(...line);
  };

  /** The run was written: what waited goes now, and later lines go at once. */
  release(): void {
    const lines = this.#lines ?? [];
    this.#lines = undefined;
    for (const line of lines) this.sink(...line);
  }
}

/** The cache key of a task's run. */
function runKey(task: { namespace: string; workflowId: string; runId: string }): string {
  return `${task.namespace}/${task.workflowId}/${task.runId}`;
}

/** The `sdkMetadata` a completion carries: the replay flags its activation used first, if any. */
function usedFlagsOf(run: WorkflowRun): { sdkMetadata?: { langUsedFlags: number[] } } {
  return run.usedFlags.length ? { sdkMetadata: { langUsedFlags: [...run.usedFlags] } } : {};
}

/** Logs a failed workflow task: a warning at the first attempt and at the third in a row, else debug. */
function warnTaskFailed(logger: Logger, task: WorkflowTask, cause: string, message: string, meta: Record<string, unknown>): void {
  if (task.attempt === 1) logger.warn(`workflow task failed (${cause}): ${message}`, meta);
  else if (task.attempt === FAILURES_BEFORE_WARNING) {
    logger.warn(`workflow task failed ${task.attempt} times in a row (${cause}): ${message}; the run stays Running and `
      + 'the task is retried until its code or input is fixed (`steadfast workflow describe` shows the last failure)', meta);
  } else logger.debug(`workflow task failed again (${cause}): ${message}`, meta);
}
