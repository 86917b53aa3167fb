import { storedHistoryUpTo } from './history-pages.ts';
import { DeterminismViolationError, ServiceError } from '../common/errors.ts';
import { ValidationError } from '../retry/errors.ts';
import { toFailureInfo } from '../common/failure.ts';
import type { HistoryEvent } from '../history/events.ts';
import type { WorkflowService, WorkflowTask } from '../protocol/index.ts';
import type { WorkflowBundle } from './bundler.ts';
import type { Logger } from './logger.ts';
import type { Clock } from '../retry/clock.ts';
import type { Command } from '../history/commands.ts';
import { deliverReport } from './report.ts';
import type { SandboxLog } from './sandbox.ts';
import { WorkflowCache } from './workflow-cache.ts';
import type { CodecChain } from '../codec/codec-chain.ts';
import { refuseEnvelopes } from '../codec/payload-codec.ts';
import { walkCommands, walkEvents } from '../codec/payload-walk.ts';
import { WorkflowRun, WorkflowTaskFailedError } from './workflow-run.ts';

/** Consecutive failures of one workflow task after which the worker warns again (the first one warns too). */
const FAILURES_BEFORE_WARNING = 3;

/** What {@link WorkflowTaskHandler} needs from its worker. */
export interface WorkflowTaskHandlerDeps {
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
  /** Tasks answered from the cache and by full replays, for tests and metrics. */
  readonly stats = { cacheHits: 0, replays: 0 };

  constructor(deps: WorkflowTaskHandlerDeps) {
    this.#deps = deps;
    this.cache = new WorkflowCache(deps.maxCachedWorkflows);
    this.#log = (level, message, info) => deps.logger[level](message, { workflowId: info.workflowId, runId: info.runId, workflowType: info.workflowType });
  }

  async handle(task: WorkflowTask): Promise<void> {
    const { service, identity, logger, clock } = this.#deps;
    const key = `${task.namespace}/${task.workflowId}/${task.runId}`;
    const report = {
      clock, logger, deadline: clock.now() + (task.workflowTaskTimeoutMs ?? DEFAULT_WORKFLOW_TASK_TIMEOUT_MS),
      meta: { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, workflowType: task.workflowType, attempt: task.attempt },
    };
    let run: WorkflowRun | undefined;
    let commands: Command[];
    try {
      run = this.cache.take(key);
      const { codec } = this.#deps;
      let events = codec ? await codec.decode(task.history, walkEvents) : task.history;
      if (!codec && events[0]?.eventType === 'WorkflowExecutionStarted') refuseEnvelopes(events[0].attributes.args, 'this worker');
      if (run && run.lastStartedEventId === task.previousStartedEventId && events[0]?.eventId === run.lastEventId + 1) {
        this.stats.cacheHits++;
      } else {
        run = new WorkflowRun(this.#deps.bundle, { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId }, this.#log,
          { reuseV8Context: this.#deps.reuseV8Context });
        if (events[0]?.eventId !== 1) {
          events = await fetchHistory(service, { ...task, history: events });
          if (!codec && events[0]?.eventType === 'WorkflowExecutionStarted') refuseEnvelopes(events[0].attributes.args, 'this worker');
        }
        this.stats.replays++;
      }
      const out = await run.apply(events);
      if (!out) throw new Error(`history of ${task.workflowId} ended before workflow task ${task.startedEventId}`);
      commands = codec ? await codec.encode(out, walkCommands) : out;
    } catch (err) {
      this.cache.delete(key);
      const cause = err instanceof DeterminismViolationError ? 'NonDeterminism'
        : err instanceof WorkflowTaskFailedError ? err.taskCause : 'WorkflowError';
      const failure = err instanceof WorkflowTaskFailedError ? err.failure : toFailureInfo(err);
      warnTaskFailed(logger, task, cause, failure.message, report.meta);
      await deliverReport(() => service.respondWorkflowTaskFailed({ taskToken: task.taskToken, cause, failure, identity }),
        { ...report, what: `the failure of workflow task ${task.startedEventId} of ${task.workflowId}` });
      return;
    }
    // Cached before the answer: the service may hand out the run's next task as soon as it has
    // stored this completion. A completion it refused (a stale task, or commands it failed the
    // task for) or could not take in time leaves the cached state ahead of the stored history.
    if (!run.closed) this.cache.put(key, run);
    const sdkMetadata = run.usedFlags.length ? { sdkMetadata: { langUsedFlags: [...run.usedFlags] } } : {};
    const sent = await deliverReport(() => service.respondWorkflowTaskCompleted({ taskToken: task.taskToken, commands, identity, ...sdkMetadata }),
      { ...report, what: `the completion of workflow task ${task.startedEventId} of ${task.workflowId}`, refusedLevel: 'debug' });
    if (sent.delivered) return;
    this.cache.delete(key);
    if (sent.why !== 'refused') return;
    // Commands the service refused (a bad option, a payload over the limit) failed the task there;
    // an in-process service throws the ValidationError itself, HTTP brings it as InvalidArgument.
    if (sent.error instanceof ValidationError || (sent.error instanceof ServiceError && sent.error.code === 'InvalidArgument')) {
      warnTaskFailed(logger, task, 'BadCommand', sent.error.message, report.meta);
    } else {
      logger.warn(`the service refused the completion of workflow task ${task.startedEventId}; dropped: ${(sent.error as Error).message}`, report.meta);
    }
  }
}

/** Logs a failed workflow task: a warning at the first attempt and at the third in a row, else debug. */
function warnTaskFailed(logger: Logger, task: WorkflowTask, cause: string, message: string, meta: Record<string, unknown>): void {
  if (task.attempt === 1) logger.warn(`workflow task failed (${cause}): ${message}`, meta);
  else if (task.attempt === FAILURES_BEFORE_WARNING) {
    logger.warn(`workflow task failed ${task.attempt} times in a row (${cause}): ${message}; the run stays Running and `
      + 'the task is retried until its code or input is fixed (`steadfast workflow describe` shows the last failure)', meta);
  } else logger.debug(`workflow task failed again (${cause}): ${message}`, meta);
}
