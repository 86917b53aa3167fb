/**
 * A scripted WorkflowService for worker tests without an engine: tests push tasks into its
 * queues, read what the worker answered, and make it fail to simulate an outage.
 */
import type {
  ActivityTask, CallOptions, GetHistoryRequest, GetHistoryResponse, PollRequest, RecordHeartbeatRequest, RecordHeartbeatResponse,
  RespondActivityTaskCanceledRequest, RespondActivityTaskCompletedRequest, RespondActivityTaskFailedRequest,
  RespondWorkflowTaskCompletedRequest, RespondWorkflowTaskFailedRequest, WorkflowService, WorkflowTask,
} from '../../src/protocol/index.ts';
import type { QueryTask, RespondQueryTaskCompletedRequest } from '../../src/protocol/index.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import { ServiceError } from '../../src/common/errors.ts';

type Waiter<T> = { resolve: (t: T | null) => void };

class TaskQueue<T> {
  items: T[] = [];
  waiters: Waiter<T>[] = [];
  push(item: T): void {
    const w = this.waiters.shift();
    if (w) w.resolve(item);
    else this.items.push(item);
  }
  /** Answers every waiting poll empty, as the engine does for a stopping worker. */
  endWaiting(): void {
    for (const w of this.waiters.splice(0)) w.resolve(null);
  }
  poll(opts?: CallOptions): Promise<T | null> {
    const item = this.items.shift();
    if (item) return Promise.resolve(item);
    return new Promise((resolve) => {
      const waiter: Waiter<T> = { resolve };
      this.waiters.push(waiter);
      opts?.signal?.addEventListener('abort', () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(null);
      }, { once: true });
    });
  }
}

export class FakeService implements Partial<WorkflowService> {
  readonly workflowTasks = new TaskQueue<WorkflowTask>();
  readonly activityTasks = new TaskQueue<ActivityTask>();
  readonly queryTasks = new TaskQueue<QueryTask>();
  /** Each answer a worker sent, with how many polls it had made by then. */
  readonly responses: { method: string; req: unknown; polls: number }[] = [];
  readonly heartbeats: RecordHeartbeatRequest[] = [];
  histories = new Map<string, HistoryEvent[]>();
  cancelRequested = new Set<string>();
  /** While set, every poll fails as an unreachable server would. */
  down = false;
  polls = 0;
  shutdownCalls = 0;
  #onResponse: (() => void)[] = [];

  /** Resolves once `n` responses have been recorded. */
  async responsesReach(n: number): Promise<void> {
    while (this.responses.length < n) await new Promise<void>((r) => this.#onResponse.push(r));
  }

  #record(method: string, req: unknown): Promise<void> {
    this.responses.push({ method, req, polls: this.polls });
    for (const r of this.#onResponse.splice(0)) r();
    return Promise.resolve();
  }

  pollWorkflowTaskQueue(_req: PollRequest, opts?: CallOptions): Promise<WorkflowTask | null> {
    this.polls++;
    if (this.down) return Promise.reject(new ServiceError('Unavailable', 'connect ECONNREFUSED 127.0.0.1:7233'));
    return this.workflowTasks.poll(opts);
  }

  pollActivityTaskQueue(_req: PollRequest, opts?: CallOptions): Promise<ActivityTask | null> {
    this.polls++;
    if (this.down) return Promise.reject(new ServiceError('Unavailable', 'connect ECONNREFUSED 127.0.0.1:7233'));
    return this.activityTasks.poll(opts);
  }

  pollQueryTaskQueue(_req: PollRequest, opts?: CallOptions): Promise<QueryTask | null> {
    if (this.down) return Promise.reject(new ServiceError('Unavailable', 'connect ECONNREFUSED 127.0.0.1:7233'));
    return this.queryTasks.poll(opts);
  }

  respondQueryTaskCompleted(req: RespondQueryTaskCompletedRequest): Promise<void> {
    return this.#record('respondQueryTaskCompleted', req);
  }

  getWorkflowExecutionHistory(req: GetHistoryRequest): Promise<GetHistoryResponse> {
    const events = this.histories.get(req.workflowId) ?? [];
    const start = Number(req.nextPageToken ?? 0);
    const size = req.pageSize ?? 1000;
    const page = events.slice(start, start + Math.min(size, 3));
    const next = start + page.length < events.length ? String(start + page.length) : undefined;
    return Promise.resolve({ events: page, ...(next ? { nextPageToken: next } : {}) });
  }

  respondWorkflowTaskCompleted(req: RespondWorkflowTaskCompletedRequest): Promise<void> {
    return this.#record('respondWorkflowTaskCompleted', req);
  }
  respondWorkflowTaskFailed(req: RespondWorkflowTaskFailedRequest): Promise<void> {
    return this.#record('respondWorkflowTaskFailed', req);
  }
  respondActivityTaskCompleted(req: RespondActivityTaskCompletedRequest): Promise<void> {
    return this.#record('respondActivityTaskCompleted', req);
  }
  respondActivityTaskFailed(req: RespondActivityTaskFailedRequest): Promise<void> {
    return this.#record('respondActivityTaskFailed', req);
  }
  respondActivityTaskCanceled(req: RespondActivityTaskCanceledRequest): Promise<void> {
    return this.#record('respondActivityTaskCanceled', req);
  }
  shutdownWorker(): Promise<void> {
    this.shutdownCalls++;
    this.workflowTasks.endWaiting();
    this.activityTasks.endWaiting();
    this.queryTasks.endWaiting();
    return Promise.resolve();
  }
  recordActivityTaskHeartbeat(req: RecordHeartbeatRequest): Promise<RecordHeartbeatResponse> {
    this.heartbeats.push(req);
    return Promise.resolve({ cancelRequested: this.cancelRequested.has(req.taskToken) });
  }

  asService(): WorkflowService {
    return this as unknown as WorkflowService;
  }
}

/** An activity task as the engine would hand it out. */
export function activityTask(activityType: string, args: unknown[], extra: Partial<ActivityTask> = {}): ActivityTask {
  return {
    taskToken: `tok-${activityType}-${Math.random()}`, namespace: 'default', workflowId: 'wf-1', runId: 'run-1', workflowType: 'w',
    activityId: '1', activityType, taskQueue: 'q', args, attempt: 1, scheduledEventId: 5,
    scheduledTime: '2024-01-01T00:00:00.000Z', currentAttemptScheduledTime: '2024-01-01T00:00:00.000Z',
    startedTime: '2024-01-01T00:00:01.000Z', ...extra,
  };
}
