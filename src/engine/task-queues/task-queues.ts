import type {
  DescribeTaskQueueRequest, DescribeTaskQueueResponse, ListTaskQueuesRequest, ListTaskQueuesResponse, TaskQueueKindStatus,
  UnpolledTaskQueue, WorkflowExecutionDescription,
} from '../../protocol/index.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { describeTaskQueueRequestSchema, listTaskQueuesRequestSchema } from '../../protocol/schemas/task-queues.ts';
import type { PollerRecord, TaskRecord } from '../../store/types.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { queueKey } from '../core/queue-book.ts';
import { LatencyBook } from './latency.ts';
import { mergePollers, POLLER_MEMORY_MS, PollerBook } from './poller-book.ts';
import { ActivityRateLimiter } from './rate-limit.ts';

/** Poller rows waiting to be written, at most. */
const MAX_PENDING_WRITES = 1024;
/** Poller rows written in one store call, at most. */
const WRITE_BATCH = 256;

/** How long a queue may go without a poll before a run waiting on it says so, ms. */
export const UNPOLLED_AFTER_MS = 60_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** `2 min`, `45 s`, `1 h 5 min`: a wait as an operator reads it. */
export function waitText(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

const rooms = new WeakMap<EngineCore, TaskQueues>();

/** The task queue room of an engine (one per core, made on first use). */
export function taskQueuesOf(core: EngineCore): TaskQueues {
  let room = rooms.get(core);
  if (!room) rooms.set(core, (room = new TaskQueues(core)));
  return room;
}

/**
 * Task queues as an operator sees them: the pollers of each queue (kept in memory and, every few
 * seconds per worker, in task_queue_pollers), the schedule-to-start latency of the tasks this
 * server started, the activity rate limit of each queue, and the backlog the store holds.
 */
export class TaskQueues {
  readonly #pollers = new PollerBook();
  readonly #latency = new LatencyBook();
  readonly limiter: ActivityRateLimiter;

  constructor(private readonly core: EngineCore) {
    this.limiter = new ActivityRateLimiter(core.waitClock);
  }

  /** A worker's poll of a workflow or activity queue began: it is a poller of the queue. */
  polled(namespace: string, taskQueue: string, kind: 'workflow' | 'activity', identity: string): void {
    const row = this.#pollers.polled(namespace, taskQueue, kind, identity, this.core.clock.now());
    if (!row) return;
    const key = `${namespace}\u0000${taskQueue}\u0000${kind}\u0000${identity}`;
    // Rows wait for one writer, at most MAX_PENDING_WRITES of them: a burst of new identities
    // is written in a few batches, and beyond the bound only memory knows them until they poll again.
    if (this.#pending.size >= MAX_PENDING_WRITES && !this.#pending.has(key)) return;
    this.#pending.set(key, row);
    if (!this.#writing) void this.#write();
  }

  readonly #pending = new Map<string, PollerRecord>();
  #writing = false;

  async #write(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#pending.size > 0) {
        const rows = [...this.#pending.values()].slice(0, WRITE_BATCH);
        for (const r of rows) this.#pending.delete(`${r.namespace}\u0000${r.taskQueue}\u0000${r.kind}\u0000${r.identity}`);
        await this.core.store.taskQueues.recordPollers(rows).catch((err: unknown) => {
          this.core.logger.warn('could not record task queue pollers', { pollers: rows.length, err: String(err) });
        });
      }
    } finally {
      this.#writing = false;
    }
  }

  /** Tasks handed to a waiting poll as their transition committed (eager dispatch): they waited 0 ms. */
  handedOff(key: string, count: number): void {
    const now = this.core.clock.now();
    for (let i = 0; i < count; i++) this.#latency.record(key, now, 0);
  }

  /** A task claimed from its queue is being started: how long it waited counts toward schedule-to-start. */
  started(task: TaskRecord): void {
    const now = this.core.clock.now();
    this.#latency.record(queueKey(task.namespace, task.taskQueue, task.kind), now, now - task.visibleAt);
  }

  async #pollersOf(namespace: string, taskQueue: string | undefined): Promise<PollerRecord[]> {
    const since = this.core.clock.now() - POLLER_MEMORY_MS;
    const stored = await this.core.store.taskQueues.pollers(namespace, taskQueue, since);
    return mergePollers(stored, this.#pollers.pollers(namespace, taskQueue, since));
  }

  async describe(input: DescribeTaskQueueRequest): Promise<DescribeTaskQueueResponse> {
    const { namespace, taskQueue } = parseRequest(describeTaskQueueRequestSchema, input);
    const now = this.core.clock.now();
    const [pollers, backlog] = await Promise.all([this.#pollersOf(namespace, taskQueue), this.core.store.taskQueues.backlog(namespace, taskQueue, now)]);
    const kind = (k: 'workflow' | 'activity'): TaskQueueKindStatus => {
      const b = backlog.find((x) => x.kind === k);
      const status: TaskQueueKindStatus = {
        pollers: pollers.filter((p) => p.kind === k).map((p) => ({ identity: p.identity, lastAccessTime: iso(p.lastAccessTime), ratePerSecond: p.ratePerSecond })),
        backlogCount: b?.count ?? 0,
      };
      if (b?.oldestVisibleAt !== undefined) status.backlogAgeMs = Math.max(0, now - b.oldestVisibleAt);
      const latency = this.#latency.summary(queueKey(namespace, taskQueue, k), now);
      if (latency) status.scheduleToStart = latency;
      return status;
    };
    const res: DescribeTaskQueueResponse = { namespace, taskQueue, workflow: kind('workflow'), activity: kind('activity') };
    if (pollers[0]) res.lastPollTime = iso(pollers[0].lastAccessTime);
    return res;
  }

  async list(input: ListTaskQueuesRequest): Promise<ListTaskQueuesResponse> {
    const { namespace, pageSize } = parseRequest(listTaskQueuesRequestSchema, input);
    const [pollers, withTasks] = await Promise.all([this.#pollersOf(namespace, undefined), this.core.store.taskQueues.queuesWithTasks(namespace, '', pageSize)]);
    const byName = new Map<string, { identities: Set<string>; last?: number }>();
    for (const name of withTasks) byName.set(name, { identities: new Set() });
    for (const p of pollers) {
      let q = byName.get(p.taskQueue);
      if (!q) byName.set(p.taskQueue, (q = { identities: new Set() }));
      q.identities.add(p.identity);
      q.last = Math.max(q.last ?? 0, p.lastAccessTime);
    }
    const names = [...byName.keys()].sort().slice(0, pageSize);
    return {
      taskQueues: names.map((name) => {
        const q = byName.get(name)!;
        return { name, pollerCount: q.identities.size, ...(q.last !== undefined ? { lastPollTime: iso(q.last) } : {}) };
      }),
    };
  }

  /**
   * Whether the run's task queue has gone without a workflow poll for {@link UNPOLLED_AFTER_MS}:
   * `no worker has polled task queue "x" for 2 min`; undefined when some worker polls it, or the run is closed.
   */
  async unpolled(namespace: string, taskQueue: string, status: string): Promise<UnpolledTaskQueue | undefined> {
    if (status !== 'Running') return undefined;
    const now = this.core.clock.now();
    const last = (await this.#pollersOf(namespace, taskQueue)).find((p) => p.kind === 'workflow')?.lastAccessTime;
    if (last !== undefined && now - last < UNPOLLED_AFTER_MS) return undefined;
    const message = last === undefined
      ? `no worker has polled task queue "${taskQueue}" in the last ${waitText(POLLER_MEMORY_MS)}`
      : `no worker has polled task queue "${taskQueue}" for ${waitText(now - last)}`;
    return { taskQueue, message, ...(last !== undefined ? { lastPollTime: iso(last) } : {}) };
  }

  /** Adds to a run's description that nobody polls its queue, when so. */
  async annotate(d: WorkflowExecutionDescription): Promise<WorkflowExecutionDescription> {
    const u = await this.unpolled(d.execution.namespace, d.execution.taskQueue, d.execution.status);
    if (u) d.taskQueueUnpolled = u;
    return d;
  }
}
