import type { ActivityInfo } from '../activity/activity-state.ts';
import { optionalSdkMetadata } from '../../common/sdk-metadata.ts';
import { ServiceError, WorkflowNotFoundError } from '../../common/errors.ts';
import type {
  ActivityTask, CallOptions, PollRequest, RecordHeartbeatRequest, RecordHeartbeatResponse, RespondActivityTaskCanceledRequest,
  RespondActivityTaskCompletedRequest, RespondActivityTaskCompletedResponse, RespondActivityTaskFailedRequest,
  RespondWorkflowTaskCompletedRequest, RespondWorkflowTaskCompletedResponse, RespondWorkflowTaskFailedRequest, ShutdownWorkerRequest,
  WorkflowTask,
} from '../../protocol/index.ts';
import { completeAndContinue, completionAnswer, completionOptions, recordCompletion, type CompletionRecord } from './continued-task.ts';
import { startWorkflowTaskHere } from './eager-dispatch.ts';
import { ValidationError } from '../../errors/index.ts';
import type { TaskKind, TaskRecord } from '../../store/types.ts';
import {
  activityTask, cancelActivity, completeActivity, failActivity, heartbeatActivity, startActivity, unstartActivity,
} from '../activity/activities.ts';
import { hasTerminalCommand } from '../core/commands.ts';

import type { HandedTask, HandedWorkflowTask } from '../core/handoffs.ts';
import { LimitExceededError } from '../core/limits.ts';
import { type EngineCore } from '../core/engine-core.ts';
import { atKey, POLL_ANSWER_TURNS, queueKey, TASK_LEASE_MS, wtKey } from '../core/queue-book.ts';
import { afterImmediates } from '../../common/immediates.ts';
import { PollerStops } from './poller-stops.ts';
import { startAll } from './start-all.ts';
import { taskQueuesOf, type TaskQueues } from '../task-queues/task-queues.ts';
import { InvalidSearchAttributeError } from '../../visibility/errors.ts';
import { validatePoll, type ValidPoll } from '../core/requests.ts';
import { parseRequest } from '../../protocol/parse.ts';
import {
  recordHeartbeatRequestSchema, respondActivityTaskCanceledRequestSchema, respondActivityTaskCompletedRequestSchema,
  respondActivityTaskFailedRequestSchema, respondWorkflowTaskCompletedRequestSchema, respondWorkflowTaskFailedRequestSchema,
  shutdownWorkerRequestSchema,
} from '../../protocol/schemas/tasks.ts';
import type { TaskTokenData } from '../core/task-token.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import {
  failWorkflowTask, onWorkflowTaskTimeout, requireStartedTask, startWorkflowTask, transientEvents,
} from '../workflow-task/workflow-tasks.ts';

/** The envelope of a completion: its commands are checked apart, so that a bad one fails the task (BadCommand). */
const COMPLETION_ENVELOPE = respondWorkflowTaskCompletedRequestSchema.omit({ commands: true });

type WorkflowToken = Extract<TaskTokenData, { kind: 'workflow' }>;
type ActivityToken = Extract<TaskTokenData, { kind: 'activity' }>;

/** Long polls for tasks and the responses that complete them. */
export class TaskService {
  readonly #stops: PollerStops;
  readonly #queues: TaskQueues;

  constructor(private readonly core: EngineCore) {
    this.#stops = new PollerStops(core.waitClock);
    this.#queues = taskQueuesOf(core);
  }

  /** Activity tasks started for a worker in a transition (eager activities, hand-offs) count as handed out from its commit on. */
  #handedOut(tasks: readonly ActivityTask[]): void {
    for (const t of tasks) this.core.addInFlight(atKey(t), t.startToCloseTimeoutMs ?? TASK_LEASE_MS);
  }

  async pollWorkflowTaskQueue(req: PollRequest, opts?: CallOptions): Promise<WorkflowTask | null> {
    const p = validatePoll(req);
    return this.withPoll(p, opts?.signal, (signal) => this.#poll(p, 'workflow', signal,
      (task) => this.#startWorkflowTask(task, p.identity), (h) => this.#workflowTask(h as HandedWorkflowTask)));
  }

  async pollActivityTaskQueue(req: PollRequest, opts?: CallOptions): Promise<ActivityTask | null> {
    const p = validatePoll(req);
    return this.withPoll(p, opts?.signal, (signal) => this.#poll(p, 'activity', signal,
      (task) => this.#startActivityTask(task, p.identity), async (h) => (h as Extract<HandedTask, { kind: 'activity' }>).task));
  }

  /**
   * Runs a long poll with a signal that aborts on the caller's signal or when the poll's worker
   * stops (shutdownWorker); answers null at once when that worker has stopped. The poll's
   * bookkeeping ends with it, so polls leave nothing behind per identity.
   */
  async withPoll<T>(p: ValidPoll, caller: AbortSignal | undefined,
    poll: (signal: AbortSignal) => Promise<T | null>): Promise<T | null> {
    const lease = this.#stops.enter(PollerStops.key(p.namespace, p.taskQueue, p.identity, p.workerInstanceId), caller);
    if (!lease) return null;
    try {
      return await poll(lease.signal);
    } finally {
      lease.release();
    }
  }

  /** Ends the long polls waiting in a namespace that was deleted (see PollerStops.endNamespace). */
  endPollsIn(namespace: string): void {
    this.#stops.endNamespace(namespace);
  }

  async shutdownWorker(input: ShutdownWorkerRequest): Promise<void> {
    const req = parseRequest(shutdownWorkerRequestSchema, input);
    const key = PollerStops.key(req.namespace, req.taskQueue, req.identity, req.workerInstanceId);
    this.#stops.stop(key);
  }

  /**
   * Claims and starts the first task, plus up to `maxTasks - 1` more that the queue's ready
   * count says are there now; their starts run concurrently, so on SQLite they share one
   * commit (group commit). While it waits, a transition may start a task for it directly
   * (eager dispatch, `handed`).
   */
  async #poll<T extends { moreTasks?: T[] | undefined }>(p: ValidPoll, kind: TaskKind, signal: AbortSignal | undefined,
    start: (task: TaskRecord) => Promise<T | null>, handed: (h: HandedTask) => Promise<T>): Promise<T | null> {
    const key = queueKey(p.namespace, p.taskQueue, kind);
    this.core.pollStarted(key);
    this.#queues.polled(p.namespace, p.taskQueue, kind as 'workflow' | 'activity', p.identity);
    try {
      return await this.#pollQueue(p, key, kind, signal, start, handed);
    } finally {
      this.core.pollEnded(key);
    }
  }

  async #pollQueue<T extends { moreTasks?: T[] | undefined }>(p: ValidPoll, key: string, kind: TaskKind, signal: AbortSignal | undefined,
    start: (task: TaskRecord) => Promise<T | null>, handed: (h: HandedTask) => Promise<T>): Promise<T | null> {
    const { core } = this;
    const deadline = core.waitClock.now() + p.pollTimeoutMs;
    const claim = async (limit: number) => {
      const tasks = await core.store.claimTasks({
        namespace: p.namespace, taskQueue: p.taskQueue, kind, now: core.clock.now(), leaseMs: TASK_LEASE_MS, owner: core.identity,
      }, limit);
      for (let i = 0; i < tasks.length; i++) core.claimed(key);
      return tasks;
    };
    // A rate-limited activity queue hands out one task per token, and only through claims.
    const rate = kind === 'activity' ? p.maxTasksPerSecond : undefined;
    for (;;) {
      if (core.shutdown.signal.aborted || signal?.aborted) return null;
      if (rate !== undefined && !(await this.#queues.limiter.take(key, rate, deadline, signal))) return null;
      const watch = core.queueWaiters.watch(key);
      const skip = core.knownEmpty(key);
      const result = skip ? undefined : await core.tracked(async () => {
        // As many tasks as the queue's ready count says are there now (at least one), up to maxTasks.
        const claimed = await claim(rate !== undefined ? 1 : Math.max(1, Math.min(p.maxTasks, core.readyQueues.get(key) ?? 0)));
        if (claimed.length === 0) return undefined;
        return { value: await startAll(claimed, start) };
      });
      if (rate !== undefined && !result?.value) this.#queues.limiter.refund(key);
      if (result) {
        watch.cancel();
        if (result.value) return result.value;
        continue;
      }
      if (!skip && !watch.notified) core.markEmpty(key);
      const remaining = deadline - core.waitClock.now();
      if (remaining <= 0) {
        watch.cancel();
        return null;
      }
      if (rate !== undefined) {
        await watch.wait(remaining, [signal, core.shutdown.signal]);
        continue;
      }
      const offer = core.handoffs.offer(key, p.identity, p.maxTasks);
      await watch.wait(remaining, [signal, core.shutdown.signal, offer.reserved.signal]);
      const tasks = await core.handoffs.withdraw(offer);
      if (tasks.length > 0) {
        this.#queues.handedOff(key, tasks.length);
        // A full turn of the event loop, as a claim and start would take: a caller that left just
        // before the hand-off is seen (its socket's close is read) and the tasks are given back.
        // More than one turn: a hand-off made while I/O callbacks run (a workflow task goes when
        // its commit is sent) would have its first run before the loop reads sockets again.
        await afterImmediates(POLL_ANSWER_TURNS);
        const [head, ...rest] = await Promise.all(tasks.map(handed));
        if (rest.length > 0) head!.moreTasks = rest;
        return head!;
      }
    }
  }

  /** Drops a task row whose run is gone. */
  async #dropTask(task: TaskRecord): Promise<null> {
    await this.core.store.commit({ executions: [], deleteTaskIds: [task.id] });
    return null;
  }

  async #startWorkflowTask(task: TaskRecord, identity: string): Promise<WorkflowTask | null> {
    const { core } = this;
    const seq = (task.data as { seq: number }).seq;
    this.#queues.started(task);
    let started;
    try {
      started = await core.mutate(task.runId, (b) => {
        const wt = startWorkflowTask(b, seq, identity, core.limits);
        if (!wt) {
          b.deleteTask(task.id);
          return null;
        }
        return { wt, rec: b.record, previousStartedEventId: b.state.previousStartedEventId, timeoutMs: b.state.cfg.workflowTaskTimeoutMs };
      });
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return this.#dropTask(task);
      throw err;
    }
    if (!started) return null;
    return this.#workflowTask({ kind: 'workflow', ...started, firstEventId: started.rec.nextEventId, events: [] });
  }

  /** A workflow task started for an eager start, as a poll would have answered it. */
  eagerWorkflowTask(h: HandedWorkflowTask): Promise<WorkflowTask> {
    return this.#workflowTask(h);
  }

  /** The answer to a poll for a started workflow task: the history since the previous started task. */
  async #workflowTask(h: HandedWorkflowTask): Promise<WorkflowTask> {
    const { core } = this;
    const { wt, rec, previousStartedEventId, timeoutMs } = h;
    // The history as of the transition that started the task: later events are buffered while it
    // runs. That transition's own events may still be committing: they come from it, not the store.
    const stored = h.firstEventId - 1 - previousStartedEventId;
    const history = stored > 0 ? await core.store.readHistory(rec.runId, previousStartedEventId + 1, stored) : [];
    for (const e of h.events) if (e.eventId > previousStartedEventId) history.push(e);
    history.push(...transientEvents(wt, timeoutMs));
    const token = { kind: 'workflow' as const, namespace: rec.namespace, runId: rec.runId, seq: wt.seq, attempt: wt.attempt, startId: wt.requestId };
    core.addInFlight(wtKey(token), timeoutMs);
    return {
      taskToken: core.tokens.encode(token), namespace: rec.namespace, workflowId: rec.workflowId, runId: rec.runId,
      workflowType: rec.workflowType, taskQueue: rec.taskQueue, attempt: wt.attempt, previousStartedEventId,
      startedEventId: wt.startedEventId!, history, workflowTaskTimeoutMs: timeoutMs,
    };
  }

  async #startActivityTask(task: TaskRecord, identity: string): Promise<ActivityTask | null> {
    const { scheduledEventId, attempt } = task.data as { scheduledEventId: number; attempt: number };
    this.#queues.started(task);
    let result: ActivityTask | null;
    try {
      result = await this.core.mutate(task.runId, (b) => {
        const act = b.state.activities[String(scheduledEventId)];
        if (b.closed || !act || act.attempt !== attempt || act.state !== 'Scheduled' || act.taskId !== task.id) {
          b.deleteTask(task.id);
          return null;
        }
        startActivity(b, act, identity);
        return activityTask(b.record, act, this.core.tokens);
      });
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return this.#dropTask(task);
      throw err;
    }
    if (result) this.core.addInFlight(atKey(result), result.startToCloseTimeoutMs ?? TASK_LEASE_MS);
    return result;
  }

  async respondWorkflowTaskCompleted(input: RespondWorkflowTaskCompletedRequest): Promise<RespondWorkflowTaskCompletedResponse> {
    // The commands' names and ids are checked with the commands, so that a bad one fails the task (BadCommand).
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ValidationError('request', 'must be an object', input);
    const { commands: listed, ...envelope } = input;
    const { taskToken, identity, eagerActivities, forceCreateNewWorkflowTask, runningLocalActivities, returnNewWorkflowTask } = parseRequest(COMPLETION_ENVELOPE, envelope);
    const token = this.core.tokens.decode(taskToken, 'workflow') as WorkflowToken;
    const sdkMetadata = optionalSdkMetadata(envelope.sdkMetadata);
    this.core.inFlight.delete(wtKey(token));
    let bad: ValidationError | undefined;
    try {
      const o = await completionOptions(this.core, listed, token.namespace, identity, sdkMetadata, eagerActivities);
      const done = await this.core.mutate(token.runId, (b) => {
        const wt = requireStartedTask(b, token);
        if (hasTerminalCommand(o.commands) && b.state.buffered.length > 0) {
          // Events arrived while the task ran: closing now would ignore them. Temporal's answer:
          // fail this attempt (UnhandledCommand) and hand the worker a task that shows them.
          failWorkflowTask(b, wt, 'UnhandledCommand', {
            kind: 'Application', type: 'UnhandledCommand', message: `${b.state.buffered.length} new event(s) arrived while the workflow task ran`,
          }, identity);
          return undefined;
        }
        const extras = { ...(forceCreateNewWorkflowTask === true ? { forceCreateNewWorkflowTask: true } : {}), ...(runningLocalActivities ? { runningLocalActivities } : {}) };
        const record = recordCompletion(b, wt, { ...o, ...extras });
        return { record, next: returnNewWorkflowTask === true ? startWorkflowTaskHere(this.core, b, identity) : undefined };
      });
      if (!done) return {};
      const answer = this.#answer(done.record);
      return done.next ? { ...answer, workflowTask: await this.#workflowTask(done.next) } : answer;
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      bad = err;
    }
    await this.core.mutate(token.runId, (b) => {
      const wt = requireStartedTask(b, token);
      const cause = bad instanceof LimitExceededError ? 'LimitExceeded' : bad instanceof InvalidSearchAttributeError ? 'BadSearchAttributes' : 'BadCommand';
      failWorkflowTask(b, wt, cause, { kind: 'Application', type: cause, message: bad.message, nonRetryable: true }, identity);
    });
    throw bad;
  }

  async respondWorkflowTaskFailed(input: RespondWorkflowTaskFailedRequest): Promise<void> {
    const { taskToken, cause, failure, identity } = parseRequest(respondWorkflowTaskFailedRequestSchema, input);
    const token = this.core.tokens.decode(taskToken, 'workflow') as WorkflowToken;
    this.core.inFlight.delete(wtKey(token));
    await this.core.mutate(token.runId, (b) => failWorkflowTask(b, requireStartedTask(b, token), cause, failure, identity));
  }

  /**
   * Takes back a task whose long poll's caller was gone when the answer was ready (the HTTP
   * server calls this when the client's connection closed first). A workflow task is timed out
   * at once and handed out again, an activity attempt goes back on its queue unchanged, instead
   * of both waiting for their timeouts. A task already answered or moved on is left alone.
   */
  async returnUndeliveredTask(task: { taskToken: string; activityId?: string }): Promise<void> {
    if (task.activityId === undefined) {
      const token = this.core.tokens.decode(task.taskToken, 'workflow') as WorkflowToken;
      this.core.inFlight.delete(wtKey(token));
      await this.core.mutate(token.runId, (b) => onWorkflowTaskTimeout(b, token.seq, token.attempt, token.startId));
      return;
    }
    const token = this.core.tokens.decode(task.taskToken, 'activity') as ActivityToken;
    this.core.inFlight.delete(atKey(token));
    await this.core.mutate(token.runId, (b) => {
      const act = b.state.activities[String(token.scheduledEventId)];
      if (!b.closed && act && act.attempt === token.attempt && act.state === 'Started') unstartActivity(b, act);
    });
  }

  /** Runs `fn` on the started attempt the token names. */
  #onActivity<T>(token: ActivityToken, fn: (b: TransitionBuilder, act: ActivityInfo) => T): Promise<T> {
    return this.core.mutate(token.runId, (b) => {
      if (b.record.namespace !== token.namespace) throw new ValidationError('taskToken', 'must name the namespace of its run', token.namespace);
      if (b.closed) throw new ServiceError('FailedPrecondition', `workflow run ${token.runId} is already ${b.record.status}`);
      const act = b.state.activities[String(token.scheduledEventId)];
      if (!act) throw new ServiceError('FailedPrecondition', `activity ${token.scheduledEventId} of run ${token.runId} is no longer pending`);
      if (act.attempt !== token.attempt || act.state !== 'Started') {
        throw new ServiceError('FailedPrecondition', `activity ${act.activityId} attempt ${token.attempt} is stale: the current attempt is ${act.attempt} (${act.state})`);
      }
      return fn(b, act);
    });
  }

  async recordActivityTaskHeartbeat(input: RecordHeartbeatRequest): Promise<RecordHeartbeatResponse> {
    const req = parseRequest(recordHeartbeatRequestSchema, input);
    const token = this.core.tokens.decode(req.taskToken, 'activity') as ActivityToken;
    const cancelRequested = await this.#onActivity(token, (b, act) => heartbeatActivity(b, act, req.details));
    return { cancelRequested };
  }

  /**
   * Records an activity's result and, when the request carries the workflow task it schedules,
   * already run by this worker, that task in the same transition if the run is as the worker
   * saw it (continued-task.ts). A task whose commands are refused is not recorded: it goes out
   * as usual, and fails there as any task with those commands does.
   */
  async respondActivityTaskCompleted(input: RespondActivityTaskCompletedRequest): Promise<RespondActivityTaskCompletedResponse> {
    const req = parseRequest(respondActivityTaskCompletedRequestSchema, input);
    const token = this.core.tokens.decode(req.taskToken, 'activity') as ActivityToken;
    const identity = req.identity;
    this.core.inFlight.delete(atKey(token));
    if (!req.workflowTask) {
      await this.#onActivity(token, (b, act) => completeActivity(b, act, req.result, identity));
      return {};
    }
    const next = req.workflowTask;
    try {
      // Checked as a completion's commands are; refused ones leave the task to go out as usual.
      const o = await completionOptions(this.core, next.commands, token.namespace, identity, optionalSdkMetadata(next.sdkMetadata), next.eagerActivities);
      const done = await this.#onActivity(token, (b, act) => completeAndContinue(b, act, req.result, next, o));
      return { workflowTask: done ? { accepted: true, ...this.#answer(done) } : { accepted: false } };
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
    }
    await this.#onActivity(token, (b, act) => completeActivity(b, act, req.result, identity));
    return { workflowTask: { accepted: false } };
  }

  /** A recorded completion's answer; the activity tasks it started for the worker count as handed out. */
  #answer(done: CompletionRecord): RespondWorkflowTaskCompletedResponse {
    this.#handedOut(done.activityTasks);
    return completionAnswer(done);
  }

  async respondActivityTaskFailed(input: RespondActivityTaskFailedRequest): Promise<void> {
    const req = parseRequest(respondActivityTaskFailedRequestSchema, input);
    const token = this.core.tokens.decode(req.taskToken, 'activity') as ActivityToken;
    const { failure, identity } = req;
    this.core.inFlight.delete(atKey(token));
    await this.#onActivity(token, (b, act) => failActivity(b, act, failure, identity, req.lastHeartbeatDetails));
  }

  async respondActivityTaskCanceled(input: RespondActivityTaskCanceledRequest): Promise<void> {
    const req = parseRequest(respondActivityTaskCanceledRequestSchema, input);
    const token = this.core.tokens.decode(req.taskToken, 'activity') as ActivityToken;
    const identity = req.identity;
    this.core.inFlight.delete(atKey(token));
    await this.#onActivity(token, (b, act) => cancelActivity(b, act, req.details, identity));
  }
}
