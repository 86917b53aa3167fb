import { ServiceError } from '../../common/errors.ts';
import type { FailureInfo } from '../../common/failure.ts';
import { newUuid } from '../../common/ids.ts';
import { STACK_TRACE_QUERY } from '../../common/message-definitions.ts';
import { requireString } from '../../common/validate.ts';
import type { QueryTask, QueryWorkflowRequest, QueryWorkflowResponse, RespondQueryTaskCompletedRequest } from '../../protocol/index.ts';
import type { CallOptions, PollRequest } from '../../protocol/index.ts';
import { ValidationError } from '../../errors/index.ts';
import type { ExecutionRecord, TaskRecord } from '../../store/types.ts';
import { type EngineCore } from '../core/engine-core.ts';
import { queueKey } from '../core/queue-book.ts';
import type { TaskTokens } from '../core/task-token.ts';
import type { MessageLimits } from './message-state.ts';
import { validatePoll } from '../core/requests.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { queryWorkflowRequestSchema, respondQueryTaskCompletedRequestSchema } from '../../protocol/schemas/messages.ts';
import { coreStateOf } from '../core/state.ts';
import { resolveRun } from '../core/resolve-run.ts';
import { workflowTaskFailing } from '../workflow-task/workflow-tasks.ts';
import { taskQueuesOf } from '../task-queues/task-queues.ts';

/*
 * Queries never touch history. A query (or an update's validation) becomes a task row of kind
 * 'query' on the run's task queue, and the worker's answer a row of kind 'query-answer' on a
 * queue named after the query: both travel through the store like any task, so on PostgreSQL
 * a query sent to one server reaches a worker polling another (LISTEN/NOTIFY wakes the poll),
 * and the answer finds its way back the same way. Rows use a run id of their own so that a run
 * closing meanwhile does not purge them.
 */

/** Longest a query or an update's validation waits for a worker, ms (the protocol's limit). */
export { MAX_QUERY_TIMEOUT_MS } from '../../protocol/limits.ts';
/** How long after a query timed out its late answer is looked for and removed, ms. */
const LATE_ANSWER_SWEEP_MS = 2_000;
/** Real-time pause between reads while a started workflow task holds buffered events, ms. */
const BUFFER_POLL_MS = 10;

interface QueryTaskData {
  queryId: string;
  runId: string;
  workflowId: string;
  workflowType: string;
  lastEventId: number;
  /** Real time after which nobody waits for the answer, ms. */
  deadline: number;
  query?: QueryTask['query'];
  updateValidation?: QueryTask['updateValidation'];
}

interface AnswerData {
  result?: unknown;
  failure?: FailureInfo;
}

/** What a worker is asked: a query, or the validation of an update. */
export type QueryPayload = Pick<QueryTask, 'query' | 'updateValidation'>;

const answerQueue = (queryId: string) => `__query-answer/${queryId}`;

/** A query task's token: signed like every task token, naming the namespace, query and deadline. */
function encodeToken(tokens: TaskTokens, namespace: string, queryId: string, deadline: number): string {
  return tokens.sign(['q', namespace, queryId, deadline]);
}

function decodeToken(tokens: TaskTokens, value: unknown): { ns: string; q: string; d: number } {
  const token = requireString('taskToken', value, 2000);
  const body = tokens.verify(token);
  if (!body) throw new ValidationError('taskToken', 'must be a task token this service signed', token);
  const [k, ns, q, d] = body as [unknown, unknown, unknown, unknown];
  if (k === 'q' && typeof ns === 'string' && typeof q === 'string' && typeof d === 'number') return { ns, q, d };
  throw new ValidationError('taskToken', 'must be the token of a query task', token);
}

/** Routes queries and update validations to workers and their answers back, through the store. */
export class QueryRouter {
  constructor(private readonly core: EngineCore, private readonly limits: MessageLimits) {}

  /** queryWorkflow: strongly consistent, read-only, answered for closed runs too while a worker polls. */
  async query(input: QueryWorkflowRequest): Promise<QueryWorkflowResponse> {
    const { queryType, args, queryRejectCondition: rejectCondition, header, identity, ...ref } = parseRequest(queryWorkflowRequestSchema, input);
    const timeoutMs = ref.timeoutMs ?? this.limits.queryTimeoutMs;
    const rec = await resolveRun(this.core.store, ref);
    // A query leaves no event in history: who asked is kept in the log, once the run is known.
    if (identity !== undefined) {
      this.core.logger.info?.(`query "${queryType}" of workflow ${rec.workflowId} (run ${rec.runId}) by ${identity}`,
        { audit: 'queryWorkflow', namespace: rec.namespace, workflowId: rec.workflowId, runId: rec.runId, queryType, identity });
    }
    if ((rejectCondition === 'NotOpen' && rec.status !== 'Running')
      || (rejectCondition === 'NotCompletedCleanly' && rec.status !== 'Running' && rec.status !== 'Completed')) {
      return { queryRejected: { status: rec.status } };
    }
    if (queryType === STACK_TRACE_QUERY && rec.status !== 'Running') {
      throw new ServiceError('FailedPrecondition',
        `${STACK_TRACE_QUERY} is answered for running workflows only; workflow ${rec.workflowId} (run ${rec.runId}) is closed (${rec.status})`);
    }
    const answer = await this.dispatch(rec, { query: { queryType, args, ...(header ? { header } : {}) } }, timeoutMs, `query "${queryType}"`);
    return answer.failure ? { failure: answer.failure } : { result: answer.result ?? null };
  }

  /**
   * Hands a query or validation to a worker of the run's task queue and waits for the answer.
   * Events that arrived while a workflow task runs are buffered, not yet in history: the request
   * waits until that task has finished so the answer reflects them too.
   * @throws ServiceError Unavailable when no answer came within `timeoutMs`.
   */
  async dispatch(rec: ExecutionRecord, payload: QueryPayload, timeoutMs: number, what: string): Promise<AnswerData & { lastEventId: number }> {
    const { core } = this;
    const deadline = this.core.waitClock.now() + timeoutMs;
    let current = rec;
    while (current.status === 'Running' && coreStateOf(current).buffered.length > 0) {
      if (this.core.waitClock.now() >= deadline) throw await this.#timeout(rec, what, timeoutMs, 'a workflow task holding newer events did not finish');
      await new Promise((r) => setTimeout(r, BUFFER_POLL_MS));
      current = (await core.store.getExecution(rec.runId)) ?? current;
    }
    const queryId = newUuid();
    const lastEventId = current.nextEventId - 1;
    const data: QueryTaskData = {
      queryId, runId: rec.runId, workflowId: rec.workflowId, workflowType: rec.workflowType, lastEventId, deadline, ...payload,
    };
    const task: TaskRecord = {
      id: queryId, namespace: rec.namespace, taskQueue: rec.taskQueue, kind: 'query', runId: `query:${queryId}`, visibleAt: 0, data,
    };
    const key = queueKey(rec.namespace, answerQueue(queryId), 'query-answer');
    await core.store.commit({ executions: [], createTasks: [task] });
    for (;;) {
      const watch = core.queueWaiters.watch(key);
      const row = await core.store.claimTask({
        namespace: rec.namespace, taskQueue: answerQueue(queryId), kind: 'query-answer', now: core.clock.now(), leaseMs: timeoutMs, owner: core.identity,
      });
      if (row) {
        watch.cancel();
        core.claimed(key);
        await core.store.commit({ executions: [], deleteTaskIds: [row.id] });
        return { ...(row.data as AnswerData), lastEventId };
      }
      const remaining = deadline - this.core.waitClock.now();
      if (remaining <= 0 || core.shutdown.signal.aborted) {
        watch.cancel();
        await core.store.commit({ executions: [], deleteTaskIds: [queryId] });
        core.claimed(queueKey(rec.namespace, rec.taskQueue, 'query'));
        this.#sweepLateAnswer(rec.namespace, queryId);
        if (core.shutdown.signal.aborted) throw new ServiceError('Unavailable', 'the engine is shutting down');
        throw await this.#timeout(rec, what, timeoutMs, `no worker answered; is a worker polling task queue "${rec.taskQueue}"?`);
      }
      await watch.wait(remaining, [core.shutdown.signal]);
    }
  }

  /**
   * An answer committed just after its asker gave up would stay in the store and keep its queue
   * counted as ready (so the engine never looks idle); one more claim a little later removes it.
   */
  #sweepLateAnswer(namespace: string, queryId: string): void {
    const { core } = this;
    const timer = setTimeout(() => {
      void core.store.claimTask({
        namespace, taskQueue: answerQueue(queryId), kind: 'query-answer', now: core.clock.now(), leaseMs: 60_000, owner: core.identity,
      }).then(async (row) => {
        core.claimed(queueKey(namespace, answerQueue(queryId), 'query-answer'));
        if (row) await core.store.commit({ executions: [], deleteTaskIds: [row.id] });
      }).catch(() => undefined);
    }, LATE_ANSWER_SWEEP_MS);
    timer.unref();
  }

  /** The error of a query (or validation) that got no answer in time; it says so when the run's workflow task keeps failing. */
  async #timeout(rec: ExecutionRecord, what: string, timeoutMs: number, why: string): Promise<ServiceError> {
    const now = await this.core.store.getExecution(rec.runId).catch(() => undefined);
    const failing = (now && workflowTaskFailing(now))
      ?? (await taskQueuesOf(this.core).unpolled(rec.namespace, rec.taskQueue, now?.status ?? rec.status).catch(() => undefined))?.message;
    return new ServiceError('Unavailable',
      `${what} to workflow ${rec.workflowId} (run ${rec.runId}) got no answer within ${timeoutMs} ms: ${why}${failing ? `; ${failing}` : ''}`);
  }

  /** pollQueryTaskQueue: the oldest query of the queue whose asker still waits. */
  async poll(input: PollRequest, opts?: CallOptions): Promise<QueryTask | null> {
    const p = validatePoll(input);
    const { core } = this;
    const key = queueKey(p.namespace, p.taskQueue, 'query');
    const deadline = this.core.waitClock.now() + p.pollTimeoutMs;
    for (;;) {
      if (core.shutdown.signal.aborted || opts?.signal?.aborted) return null;
      const watch = core.queueWaiters.watch(key);
      const found = await core.tracked(async () => {
        const row = await core.store.claimTask({
          namespace: p.namespace, taskQueue: p.taskQueue, kind: 'query', now: core.clock.now(), leaseMs: 60_000, owner: core.identity,
        });
        if (!row) return undefined;
        core.claimed(key);
        // The asker deletes an unanswered row at its deadline; a crashed worker costs one timeout.
        await core.store.commit({ executions: [], deleteTaskIds: [row.id] });
        return row;
      });
      if (found) {
        watch.cancel();
        const d = found.data as QueryTaskData;
        if (d.deadline <= this.core.waitClock.now()) continue;
        return {
          taskToken: encodeToken(core.tokens, found.namespace, d.queryId, d.deadline), namespace: found.namespace, workflowId: d.workflowId,
          runId: d.runId, workflowType: d.workflowType, taskQueue: found.taskQueue, lastEventId: d.lastEventId,
          ...(d.query ? { query: d.query } : {}), ...(d.updateValidation ? { updateValidation: d.updateValidation } : {}),
        };
      }
      if (!watch.notified) core.readyQueues.delete(key);
      const remaining = deadline - this.core.waitClock.now();
      if (remaining <= 0) {
        watch.cancel();
        return null;
      }
      await watch.wait(remaining, [opts?.signal, core.shutdown.signal]);
    }
  }

  /** respondQueryTaskCompleted: hands the answer to whichever server the asker waits on. */
  async respond(input: RespondQueryTaskCompletedRequest): Promise<void> {
    const req = parseRequest(respondQueryTaskCompletedRequestSchema, input);
    const token = decodeToken(this.core.tokens, req.taskToken);
    const failure = req.failure;
    if (token.d <= this.core.waitClock.now()) return;
    const data: AnswerData = failure ? { failure } : { result: req.result ?? null };
    await this.core.store.commit({
      executions: [],
      createTasks: [{
        id: newUuid(), namespace: token.ns, taskQueue: answerQueue(token.q), kind: 'query-answer', runId: `query:${token.q}`, visibleAt: 0, data,
      }],
    });
  }
}
