import { storedHistoryUpTo } from './history-pages.ts';
import { DeterminismViolationError } from '../common/errors.ts';
import { toFailureInfo } from '../common/failure.ts';
import type { HistoryEvent } from '../history/events.ts';
import type { WorkflowService, WorkflowTask } from '../history/service.ts';
import type { WorkflowBundle } from './bundler.ts';
import type { Logger } from './logger.ts';
import type { SandboxLog } from './sandbox.ts';
import { WorkflowCache } from './workflow-cache.ts';
import { WorkflowRun, WorkflowTaskFailedError } from './workflow-run.ts';

/** What {@link WorkflowTaskHandler} needs from its worker. */
export interface WorkflowTaskHandlerDeps {
  service: WorkflowService;
  bundle: WorkflowBundle;
  identity: string;
  logger: Logger;
  maxCachedWorkflows: number;
  /** See WorkerOptions.reuseContext. */
  reuseContext: boolean;
}

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
    const { service, identity, logger } = this.#deps;
    const key = `${task.namespace}/${task.workflowId}/${task.runId}`;
    try {
      let run = this.cache.take(key);
      let events = task.history;
      if (run && run.lastStartedEventId === task.previousStartedEventId && events[0]?.eventId === run.lastEventId + 1) {
        this.stats.cacheHits++;
      } else {
        run = new WorkflowRun(this.#deps.bundle, { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId }, this.#log,
          { reuseContext: this.#deps.reuseContext });
        if (events[0]?.eventId !== 1) events = await fetchHistory(service, task);
        this.stats.replays++;
      }
      const commands = await run.apply(events);
      if (!commands) throw new Error(`history of ${task.workflowId} ended before workflow task ${task.startedEventId}`);
      await service.respondWorkflowTaskCompleted({ taskToken: task.taskToken, commands, identity });
      if (!run.closed) this.cache.put(key, run);
    } catch (err) {
      this.cache.delete(key);
      const cause = err instanceof DeterminismViolationError ? 'NonDeterminism'
        : err instanceof WorkflowTaskFailedError ? err.taskCause : 'WorkflowError';
      const failure = err instanceof WorkflowTaskFailedError ? err.failure : toFailureInfo(err);
      const meta = { workflowId: task.workflowId, runId: task.runId, workflowType: task.workflowType, attempt: task.attempt };
      if (task.attempt === 1) logger.warn(`workflow task failed (${cause}): ${failure.message}`, meta);
      else logger.debug(`workflow task failed again (${cause}): ${failure.message}`, meta);
      try {
        await service.respondWorkflowTaskFailed({ taskToken: task.taskToken, cause, failure, identity });
      } catch (respondErr) {
        logger.warn(`could not report the failed workflow task: ${(respondErr as Error).message}`, meta);
      }
    }
  }
}
