import { composeInterceptors } from '../common/interceptors.ts';
import type { WorkflowClientInterceptor, WorkflowExecution } from './interceptors.ts';
import { WorkflowFailedError } from '../common/errors.ts';
import { fromFailureInfo } from '../common/failure.ts';
import { newUuid } from '../common/ids.ts';
import type { Workflow, WorkflowResult } from '../common/workflow-types.ts';
import { isCloseEvent, type HistoryEvent, type WorkflowHistory } from '../history/events.ts';
import type { ResetReapplyExcludeType, WorkflowService } from '../protocol/index.ts';
import { toDescription, type WorkflowExecutionDescription } from './describe.ts';
import type { QueryDefinition, SignalDefinition, UpdateDefinition } from '../common/message-definitions.ts';
import {
  sendQuery, sendSignal, startUpdate, type MessageTarget, type QueryOptions, type StartUpdateOptions, type UpdateOptions,
  type WorkflowUpdateHandle,
} from './messages.ts';
import { payloadOf } from './request-limits.ts';
import { optionalReapplyExcludeTypes } from './reset-options.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { ValidationError } from '../errors/index.ts';
import { followRunHistory, type FollowHistoryOptions } from './follow-history.ts';
import type { Waits } from './waits.ts';

/** Options of `handle.reset()`. */
type ResetOptions = {
  eventId?: number; type?: 'FirstWorkflowTask' | 'LastWorkflowTask'; reason?: string; reapplySignals?: boolean;
  /** Kinds of events after the reset point not re-applied (Temporal's `resetReapplyExcludeTypes`). @default [] */
  resetReapplyExcludeTypes?: ResetReapplyExcludeType[];
};

const RESET_OPTION_KEYS = optionKeys<ResetOptions>({ eventId: true, type: true, reason: true, reapplySignals: true, resetReapplyExcludeTypes: true });

/** Talks to one workflow execution (a chain of runs sharing a workflow id). */
export class WorkflowHandle<W extends Workflow = Workflow> {
  /** @internal */
  constructor(
    private readonly service: WorkflowService,
    readonly namespace: string,
    readonly workflowId: string,
    /** The run this handle is pinned to; undefined means "the latest run" of the workflow id. */
    readonly runId: string | undefined,
    private readonly identity: string,
    /** The client's deadline scope and where it says why a wait goes on. */
    private readonly waits: Waits,
    /** The run a `start()` made: where result() begins to follow the chain. */
    readonly firstExecutionRunId?: string,
    /** The client's workflow interceptors (interceptors.ts). */
    private readonly interceptors: readonly WorkflowClientInterceptor[] = [],
    /**
     * True when `start()` with `requestEagerStart` handed the run's first workflow task to a
     * worker of this process with the start's answer (Temporal's `eagerlyStarted`).
     */
    readonly eagerlyStarted = false,
  ) {}

  /**
   * Waits for the workflow's outcome, following the chain of runs (retries, continue-as-new)
   * to the last run. Resolves with the result, or throws WorkflowFailedError whose `cause`
   * says why (ApplicationFailure, TimeoutFailure, CancelledFailure, TerminatedFailure).
   *
   * A run whose workflow task keeps failing does not fail: it stays Running, and this keeps
   * waiting, while the task is retried until the workflow code or its input is fixed (as in
   * Temporal). That happens when workflow code throws something that is not a failure class (a
   * string, a TypeError), passes bad options (activity options, a `sleep` over 100 years), or
   * returns a result over the payload limit. To see why, call {@link describe}:
   * `pendingWorkflowTask.attempt` above 1 and `pendingWorkflowTask.lastFailure` (cause, message,
   * type, the stack's first frames) tell it; so do `steadfast workflow describe <workflowId>`
   * and the worker's log, which warns at the first and the third failure in a row. While this
   * waits on such a run it says so through the client's `logger` (stderr by default): `result()
   * of workflow order-1 is still waiting: the run's workflow task is failing: attempt 5, …`.
   */
  async result(): Promise<WorkflowResult<W>> {
    let runId = this.runId ?? this.firstExecutionRunId ?? (await this.describe()).runId;
    const watch = this.waits.watch(() => ({ namespace: this.namespace, workflowId: this.workflowId, runId }), `result() of workflow ${this.workflowId}`);
    try {
      return await this.#follow(runId, (next) => (runId = next));
    } finally {
      watch.stop();
    }
  }

  /** Waits for the close of `from` and the runs it continues into (each reported to `moved`), then answers as {@link result}. */
  async #follow(from: string, moved: (runId: string) => void): Promise<WorkflowResult<W>> {
    let runId = from;
    for (;;) {
      moved(runId);
      const { events } = await this.service.getWorkflowExecutionHistory({
        namespace: this.namespace, workflowId: this.workflowId, runId, closeEventOnly: true, waitForClose: true,
      });
      const close = events.find(isCloseEvent);
      if (!close) continue;
      switch (close.eventType) {
        case 'WorkflowExecutionCompleted':
          if (close.attributes.newExecutionRunId) {
            runId = close.attributes.newExecutionRunId;
            continue;
          }
          return close.attributes.result as WorkflowResult<W>;
        case 'WorkflowExecutionContinuedAsNew':
          runId = close.attributes.newExecutionRunId;
          continue;
        case 'WorkflowExecutionFailed':
          if (close.attributes.newExecutionRunId) {
            runId = close.attributes.newExecutionRunId;
            continue;
          }
          throw this.#failed('Failed', runId, 'workflow execution failed', close.attributes.failure);
        case 'WorkflowExecutionTimedOut':
          if (close.attributes.newExecutionRunId) {
            runId = close.attributes.newExecutionRunId;
            continue;
          }
          throw this.#failed('TimedOut', runId, 'workflow execution timed out', {
            kind: 'Timeout', message: 'workflow execution timed out', timeoutType: 'StartToClose',
          });
        case 'WorkflowExecutionCanceled':
          throw this.#failed('Canceled', runId, 'workflow execution canceled', {
            kind: 'Canceled', message: 'workflow execution canceled',
            ...(close.attributes.details !== undefined ? { details: [close.attributes.details] } : {}),
          });
        case 'WorkflowExecutionTerminated': {
          // A reset terminates the run it replaces and names the new one: the result is the new run's.
          // Histories written before the field existed name it in `details.newRunId`.
          const next = close.attributes.newExecutionRunId ?? (close.attributes.details as { newRunId?: unknown } | undefined)?.newRunId;
          if (typeof next === 'string') {
            runId = next;
            continue;
          }
          throw this.#failed('Terminated', runId, `workflow execution terminated: ${close.attributes.reason}`, {
            kind: 'Terminated', message: close.attributes.reason,
          });
        }
      }
    }
  }

  #failed(status: string, runId: string, message: string, failure: Parameters<typeof fromFailureInfo>[0]): WorkflowFailedError {
    return new WorkflowFailedError(
      `${message} (workflowId ${this.workflowId}, runId ${runId})`, status, this.workflowId, runId, failure,
      fromFailureInfo(failure),
    );
  }

  /**
   * Status, ids, times, memo, pending activities and children of the handle's run, flat as
   * Temporal's description is; `raw` holds the service's answer as it came.
   */
  async describe(): Promise<WorkflowExecutionDescription> {
    const describe = composeInterceptors(this.interceptors, 'describe', (input) => this.service.describeWorkflowExecution({
      namespace: this.namespace, ...input.workflowExecution,
    }));
    return toDescription(await describe({ workflowExecution: this.#execution() }));
  }

  /**
   * The run's whole history, all pages, with its workflow id and run id (the handle's run, or the
   * latest when it has none). Save it as JSON to replay it in tests: the Replayer takes the ids from it.
   */
  async fetchHistory(): Promise<WorkflowHistory> {
    // The run is pinned first, so the events and the ids belong to the same run even if the chain moves on.
    const runId = this.runId ?? (await this.describe()).runId;
    const events: HistoryEvent[] = [];
    let nextPageToken: string | undefined;
    do {
      const page = await this.service.getWorkflowExecutionHistory({
        namespace: this.namespace, workflowId: this.workflowId, runId, pageSize: 1000, ...(nextPageToken ? { nextPageToken } : {}),
      });
      events.push(...page.events);
      nextPageToken = page.nextPageToken;
    } while (nextPageToken);
    return { workflowId: this.workflowId, runId, events };
  }

  /**
   * The run's events as they are appended, from the first until its close event: for watching a
   * running workflow (`steadfast workflow history --follow`). Follows the handle's run, or the
   * latest run when the handle has none, and ends with that run even if the chain goes on. In
   * the time-skipping TestEnvironment its waits for the close let time skip, as `result()` does.
   */
  async *followHistory(options: FollowHistoryOptions = {}): AsyncGenerator<HistoryEvent, void, undefined> {
    const runId = this.runId ?? (await this.describe()).runId;
    yield* followRunHistory(this.service, { namespace: this.namespace, workflowId: this.workflowId, runId }, options);
  }

  /**
   * Asks the workflow to cancel; it reaches the workflow as a cancellation of its root scope.
   * Safe to retry: the request id made here lets the server recognize a repeat, also after the
   * run closed because of the first.
   */
  cancel(reason?: string): Promise<void> {
    const cancel = composeInterceptors(this.interceptors, 'cancel', (input) => this.service.requestCancelWorkflowExecution({
      namespace: this.namespace, ...input.workflowExecution, identity: this.identity, requestId: newUuid(), ...(input.reason ? { reason: input.reason } : {}),
    }));
    return cancel({ workflowExecution: this.#execution(), ...(reason ? { reason } : {}), ...this.#first() });
  }

  /**
   * Resets the run to a WorkflowTaskCompleted event (`eventId`), or to its first or last
   * workflow task: the workflow's open run is terminated and a new run replays the history up
   * to that point and continues. Signals and accepted updates received after the point are
   * re-applied (an update's handler runs again in the new run), except the kinds named in
   * `resetReapplyExcludeTypes` (`Signal`, `Update`); `reapplySignals: false` leaves out both.
   * Resolves with the new run's id.
   */
  async reset(options: ResetOptions): Promise<string> {
    if (typeof options !== 'object' || options === null) throw new ValidationError('reset options', 'must be an object with eventId or type', options);
    refuseUnknownKeys('reset', options, RESET_OPTION_KEYS);
    const o = options;
    const exclude = optionalReapplyExcludeTypes('resetReapplyExcludeTypes', o.resetReapplyExcludeTypes);
    const { runId } = await this.service.resetWorkflowExecution({
      ...this.#ref(), identity: this.identity,
      ...(o.eventId !== undefined ? { eventId: o.eventId } : {}), ...(o.type !== undefined ? { resetType: o.type } : {}),
      ...(o.reason !== undefined ? { reason: o.reason } : {}), ...(o.reapplySignals !== undefined ? { reapplySignals: o.reapplySignals } : {}),
      ...(exclude !== undefined ? { resetReapplyExcludeTypes: exclude } : {}),
    });
    return runId;
  }

  /** Ends the run at once, recording the reason. A retried call carries the same request id and ends it once. */
  async terminate(reason = 'terminated by client', details?: unknown): Promise<void> {
    const sent = payloadOf('details', details);
    const terminate = composeInterceptors(this.interceptors, 'terminate', (input) => this.service.terminateWorkflowExecution({
      namespace: this.namespace, ...input.workflowExecution, reason: input.reason ?? reason, identity: this.identity, requestId: newUuid(),
      ...(input.details !== undefined ? { details: input.details } : {}),
    }));
    return terminate({ workflowExecution: this.#execution(), reason, ...(sent !== undefined ? { details: sent } : {}), ...this.#first() });
  }

  /**
   * Deletes the run (the workflow's latest when the handle names none) with its history and
   * visibility record; a running run is terminated first (Temporal's DeleteWorkflowExecution).
   */
  async delete(): Promise<void> {
    return this.service.deleteWorkflowExecution(this.#ref());
  }

  /** Sends a signal; resolves once the server has persisted it in the run's history. */
  signal<Args extends unknown[]>(def: SignalDefinition<Args> | string, ...args: Args): Promise<void> {
    return sendSignal(this.#target(), def as SignalDefinition<unknown[]>, args);
  }

  /**
   * Asks the workflow a query; answered by a worker from the state after every event committed
   * before the call, also for closed runs while a worker polls the task queue.
   * @throws QueryFailedError when the handler is missing, throws, or tries to emit a command.
   */
  query<Ret, Args extends unknown[]>(def: QueryDefinition<Ret, Args> | string, ...args: Args): Promise<Ret> {
    return sendQuery(this.#target(), def as QueryDefinition<unknown, unknown[]>, args) as Promise<Ret>;
  }

  /** {@link query} with options: a timeout, a `queryRejectCondition`. */
  queryWithOptions<Ret, Args extends unknown[]>(def: QueryDefinition<Ret, Args> | string, options: QueryOptions, ...args: Args): Promise<Ret> {
    return sendQuery(this.#target(), def as QueryDefinition<unknown, unknown[]>, args, options) as Promise<Ret>;
  }

  /**
   * Sends an update and waits until it is accepted; `result()` of the handle waits for the
   * outcome. Takes Temporal's `waitForStage: WorkflowUpdateStage.ACCEPTED` (the only stage allowed).
   */
  startUpdate<Ret, Args extends unknown[]>(def: UpdateDefinition<Ret, Args> | string, ...options: [] extends Args
    ? [StartUpdateOptions<Args>?] : [StartUpdateOptions<Args>]): Promise<WorkflowUpdateHandle<Ret>> {
    return startUpdate(this.#target(), def as UpdateDefinition<unknown, unknown[]>, options[0] as { args?: unknown[] }, 'startUpdate') as
      Promise<WorkflowUpdateHandle<Ret>>;
  }

  /**
   * Sends an update and waits for its result.
   * @throws WorkflowUpdateFailedError when its validator rejects it or its handler fails.
   */
  async executeUpdate<Ret, Args extends unknown[]>(def: UpdateDefinition<Ret, Args> | string, ...options: [] extends Args
    ? [UpdateOptions<Args>?] : [UpdateOptions<Args>]): Promise<Ret> {
    const handle = await startUpdate(this.#target(), def as UpdateDefinition<unknown, unknown[]>, options[0] as { args?: unknown[] }, 'executeUpdate');
    return handle.result() as Promise<Ret>;
  }

  #target(): MessageTarget {
    return {
      service: this.service, namespace: this.namespace, workflowId: this.workflowId, identity: this.identity, waits: this.waits,
      ...(this.runId ? { runId: this.runId } : {}), interceptors: this.interceptors, ...this.#first(),
    };
  }

  #execution(): WorkflowExecution {
    return { workflowId: this.workflowId, ...(this.runId ? { runId: this.runId } : {}) };
  }

  #first(): { firstExecutionRunId?: string } {
    return this.firstExecutionRunId ? { firstExecutionRunId: this.firstExecutionRunId } : {};
  }

  #ref() {
    return { namespace: this.namespace, workflowId: this.workflowId, ...(this.runId ? { runId: this.runId } : {}) };
  }
}
