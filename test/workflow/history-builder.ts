/**
 * Builds histories the way the engine writes them, without an engine: the workflow runtime
 * tests feed its events to a WorkflowRun and assert the commands that come back, and the
 * replay benchmark builds 10,000-event histories with it.
 */
import type { Command } from '../../src/history/commands.ts';
import type { EventAttributes, EventType, HistoryEvent } from '../../src/history/events.ts';
import type { FailureInfo, RetryState } from '../../src/common/failure.ts';

const DEFAULT_POLICY = { initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 100_000, maximumAttempts: 0, nonRetryableErrorTypes: [] };

export interface HistoryBuilderOptions {
  workflowType: string;
  args?: unknown[];
  taskQueue?: string;
  runId?: string;
  /** ms since the epoch. @default 2024-01-01T00:00:00Z */
  startTime?: number;
  memo?: Record<string, unknown>;
}

export class HistoryBuilder {
  readonly events: HistoryEvent[] = [];
  now: number;
  readonly taskQueue: string;
  #taken = 0;
  #lastStarted = 0;
  #lastCompleted = 0;
  #timers = new Map<string, number>();
  #activities = new Map<string, number>();

  constructor(readonly options: HistoryBuilderOptions) {
    this.now = options.startTime ?? Date.UTC(2024, 0, 1);
    this.taskQueue = options.taskQueue ?? 'tests';
    const runId = options.runId ?? 'run-1';
    this.add('WorkflowExecutionStarted', {
      workflowType: options.workflowType, taskQueue: this.taskQueue, args: options.args ?? [], workflowTaskTimeoutMs: 10_000,
      attempt: 1, firstExecutionRunId: runId, originalExecutionRunId: runId,
      ...(options.memo ? { memo: options.memo } : {}),
    });
  }

  add<K extends EventType>(eventType: K, attributes: EventAttributes[K]): HistoryEvent<K> {
    const event = { eventId: this.events.length + 1, eventType, eventTime: new Date(this.now).toISOString(), attributes } as HistoryEvent<K>;
    this.events.push(event as HistoryEvent);
    return event;
  }

  advance(ms: number): this {
    this.now += ms;
    return this;
  }

  /** Schedules and starts a workflow task; returns the events not yet taken (what a poll would carry). */
  startTask(): HistoryEvent[] {
    const scheduled = this.add('WorkflowTaskScheduled', { taskQueue: this.taskQueue, startToCloseTimeoutMs: 10_000, attempt: 1 });
    this.#lastStarted = this.add('WorkflowTaskStarted', { scheduledEventId: scheduled.eventId, identity: 'test', requestId: 'r' }).eventId;
    return this.take();
  }

  /** Events added since the last take. */
  take(): HistoryEvent[] {
    const out = this.events.slice(this.#taken);
    this.#taken = this.events.length;
    return out;
  }

  /** Completes the started task and records its commands as the engine would. */
  completeTask(commands: readonly Command[], usedFlags: readonly number[] = []): this {
    const completed = this.add('WorkflowTaskCompleted', {
      scheduledEventId: this.#lastStarted - 1, startedEventId: this.#lastStarted, identity: 'test',
      ...(usedFlags.length ? { sdkMetadata: { langUsedFlags: [...usedFlags] } } : {}),
    });
    const wtc = completed.eventId;
    this.#lastCompleted = wtc;
    for (const c of commands) this.#record(c, wtc);
    return this;
  }

  failTask(failure: FailureInfo, cause: EventAttributes['WorkflowTaskFailed']['cause'] = 'WorkflowError'): this {
    this.add('WorkflowTaskFailed', {
      scheduledEventId: this.#lastStarted - 1, startedEventId: this.#lastStarted, cause, failure, identity: 'test',
    });
    return this;
  }

  timerFired(timerId: string): this {
    this.add('TimerFired', { timerId, startedEventId: this.#timers.get(timerId)! });
    return this;
  }

  activityCompleted(activityId: string, result: unknown, attempt = 1): this {
    const scheduledEventId = this.#activities.get(activityId)!;
    const started = this.add('ActivityTaskStarted', { scheduledEventId, attempt, identity: 'test', requestId: 'r' });
    this.add('ActivityTaskCompleted', { scheduledEventId, startedEventId: started.eventId, result, identity: 'test' });
    return this;
  }

  activityFailed(activityId: string, failure: FailureInfo, retryState: RetryState = 'MaximumAttemptsReached'): this {
    const scheduledEventId = this.#activities.get(activityId)!;
    const started = this.add('ActivityTaskStarted', { scheduledEventId, attempt: 1, identity: 'test', requestId: 'r' });
    this.add('ActivityTaskFailed', { scheduledEventId, startedEventId: started.eventId, failure, retryState, identity: 'test' });
    return this;
  }

  activityCanceled(activityId: string): this {
    const scheduledEventId = this.#activities.get(activityId)!;
    const started = this.add('ActivityTaskStarted', { scheduledEventId, attempt: 1, identity: 'test', requestId: 'r' });
    this.add('ActivityTaskCanceled', {
      scheduledEventId, startedEventId: started.eventId, latestCancelRequestedEventId: scheduledEventId, identity: 'test',
    });
    return this;
  }

  cancelRequested(reason = 'test cancel'): this {
    this.add('WorkflowExecutionCancelRequested', { reason });
    return this;
  }

  #record(c: Command, wtc: number): void {
    switch (c.commandType) {
      case 'ScheduleActivityTask': {
        const { taskQueue, retryPolicy, ...rest } = c.attributes;
        const e = this.add('ActivityTaskScheduled', {
          ...rest, taskQueue: taskQueue ?? this.taskQueue, retryPolicy: retryPolicy ?? DEFAULT_POLICY, workflowTaskCompletedEventId: wtc,
        });
        this.#activities.set(c.attributes.activityId, e.eventId);
        break;
      }
      case 'StartTimer':
        this.#timers.set(c.attributes.timerId, this.add('TimerStarted', { ...c.attributes, workflowTaskCompletedEventId: wtc }).eventId);
        break;
      case 'CancelTimer':
        this.add('TimerCanceled', { timerId: c.attributes.timerId, startedEventId: this.#timers.get(c.attributes.timerId)!, workflowTaskCompletedEventId: wtc });
        break;
      case 'RequestCancelActivityTask':
        this.add('ActivityTaskCancelRequested', { scheduledEventId: c.attributes.scheduledEventId, workflowTaskCompletedEventId: wtc });
        break;
      case 'RecordMarker':
        this.add('MarkerRecorded', { ...c.attributes, workflowTaskCompletedEventId: wtc });
        break;
      case 'CompleteWorkflowExecutionUpdate':
        this.add('WorkflowExecutionUpdateCompleted', { ...c.attributes, workflowTaskCompletedEventId: wtc });
        break;
      case 'CompleteWorkflowExecution':
        this.add('WorkflowExecutionCompleted', { result: c.attributes.result, workflowTaskCompletedEventId: wtc });
        break;
      case 'FailWorkflowExecution':
        this.add('WorkflowExecutionFailed', { failure: c.attributes.failure, retryState: 'RetryPolicyNotSet', workflowTaskCompletedEventId: wtc });
        break;
      case 'CancelWorkflowExecution':
        this.add('WorkflowExecutionCanceled', { details: c.attributes.details, workflowTaskCompletedEventId: wtc });
        break;
      case 'ContinueAsNewWorkflowExecution':
        this.add('WorkflowExecutionContinuedAsNew', {
          newExecutionRunId: 'run-next', workflowType: c.attributes.workflowType ?? this.options.workflowType,
          taskQueue: c.attributes.taskQueue ?? this.taskQueue, args: c.attributes.args, initiator: 'Workflow',
          workflowTaskTimeoutMs: 10_000, workflowTaskCompletedEventId: wtc,
        });
        break;
    }
  }

  /** Event id of the WorkflowTaskCompleted written last. */
  get lastCompletedEventId(): number {
    return this.#lastCompleted;
  }
}
