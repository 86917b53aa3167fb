import { storedHistoryUpTo } from './history-pages.ts';
import { toFailureInfo } from '../common/failure.ts';
import type { QueryTask } from '../protocol/index.ts';
import type { WorkflowService } from '../protocol/index.ts';
import type { MessageAnswer } from '../workflow/activation.ts';
import { queryHistory, queryRequest } from './features/index.ts';
import type { WorkflowBundle } from './bundler.ts';
import type { Logger } from './logger.ts';
import type { CodecChain } from '../codec/codec-chain.ts';
import { walkArgs, type PayloadMap } from '../codec/payload-walk.ts';

/** The arguments of a query or of an update to validate. */
function walkQueryTask(t: QueryTask, f: PayloadMap): QueryTask {
  return {
    ...t,
    ...(t.query ? { query: { ...t.query, args: walkArgs(t.query.args, f) } } : {}),
    ...(t.updateValidation ? { updateValidation: { ...t.updateValidation, args: walkArgs(t.updateValidation.args, f) } } : {}),
  };
}
import { WorkflowRun, WorkflowTaskFailedError } from './workflow-run.ts';

/** What {@link QueryTaskHandler} needs from its worker. */
interface QueryTaskHandlerDeps {
  service: WorkflowService;
  bundle: WorkflowBundle;
  identity: string;
  logger: Logger;
  /** See WorkerOptions.reuseV8Context. */
  reuseV8Context: boolean;
  /** The worker's payload codecs: a query's arguments are decoded before its handler runs. */
  codec?: CodecChain | undefined;
}


/**
 * Answers queries and update validations. Each one replays the run's history up to the
 * request's `lastEventId` (features/query.ts) in a throwaway sandbox that records where each
 * await was created (for `__stack_trace`). The worker's
 * cached runs are never touched, so a handler that changes variables cannot change the run;
 * a handler that emits a command (schedules an activity or a timer, signals, completes) is
 * reported to the caller as an error.
 */
export class QueryTaskHandler {
  constructor(private readonly deps: QueryTaskHandlerDeps) {}

  async handle(task: QueryTask): Promise<void> {
    const { service, identity, logger } = this.deps;
    let answer: MessageAnswer;
    try {
      answer = await this.answer(task);
    } catch (err) {
      const failure = err instanceof WorkflowTaskFailedError ? err.failure : toFailureInfo(err);
      answer = { failure };
    }
    try {
      await service.respondQueryTaskCompleted({ taskToken: task.taskToken, identity, ...answer });
    } catch (err) {
      logger.warn(`could not answer a query: ${(err as Error).message}`, { workflowId: task.workflowId, runId: task.runId });
    }
  }

  /** The answer to one query task. */
  async answer(encoded: QueryTask): Promise<MessageAnswer> {
    const { codec } = this.deps;
    const task = codec ? await codec.decode(encoded, walkQueryTask) : encoded;
    const events = queryHistory(await storedHistoryUpTo(this.deps.service, task, task.lastEventId));
    const run = new WorkflowRun(this.deps.bundle, { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId }, undefined,
      { captureStacks: true, reuseV8Context: this.deps.reuseV8Context });
    await run.apply(events);
    return run.answer(queryRequest(task));
  }
}
