import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Activity latency buckets, seconds: 1 ms to 10 min. */
const ACTIVITY_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60, 600];

/** What the worker's gauges and cache counters read at scrape time. */
interface WorkerLoad {
  /** Task slots per kind: how many are taken and the most that may be. */
  slots(): { kind: 'workflow' | 'activity'; used: number; max: number }[];
  /** Workflow cache counters since the worker was made. */
  cache(): { hits: number; misses: number; cached: number };
}

/** What a poll came back with. */
export type PollOutcome = 'task' | 'empty' | 'error';

/**
 * The worker's Prometheus series, registered in the registry the application passes as
 * `metrics.registry` and scrapes itself (the worker opens no port): task slots, sticky cache
 * hits and misses, poll outcomes and activity latency, labelled with the task queue.
 */
export class WorkerMetrics {
  readonly #polls: Counter<'task_queue' | 'kind' | 'outcome'>;
  readonly #activitySeconds: Histogram<'task_queue' | 'activity_type' | 'outcome'>;
  readonly #taskFailures: Counter<'task_queue' | 'cause'>;

  constructor(registry: Registry, readonly taskQueue: string, load: WorkerLoad) {
    const registers = [registry];
    const taskQueue_ = taskQueue;
    this.#polls = new Counter({
      name: 'steadfast_worker_polls_total', help: 'Polls of the task queue answered, per kind and outcome (task, empty, error)',
      labelNames: ['task_queue', 'kind', 'outcome'], registers,
    });
    this.#activitySeconds = new Histogram({
      name: 'steadfast_worker_activity_duration_seconds', help: 'Time an activity attempt ran in this worker, per type and outcome, seconds',
      labelNames: ['task_queue', 'activity_type', 'outcome'], buckets: ACTIVITY_BUCKETS, registers,
    });
    this.#taskFailures = new Counter({
      name: 'steadfast_workflow_task_failures_total', help: 'Workflow tasks this worker failed (a bug in workflow code, nondeterminism), per cause',
      labelNames: ['task_queue', 'cause'], registers,
    });
    new Gauge({
      name: 'steadfast_worker_task_slots_used', help: 'Task slots taken now, per kind', labelNames: ['task_queue', 'kind'], registers,
      collect() {
        for (const s of load.slots()) this.set({ task_queue: taskQueue_, kind: s.kind }, s.used);
      },
    });
    new Gauge({
      name: 'steadfast_worker_task_slots_available', help: 'Task slots free now, per kind', labelNames: ['task_queue', 'kind'], registers,
      collect() {
        for (const s of load.slots()) this.set({ task_queue: taskQueue_, kind: s.kind }, Math.max(0, s.max - s.used));
      },
    });
    new Gauge({
      name: 'steadfast_worker_sticky_cache_size', help: 'Workflow runs held in the sticky cache', labelNames: ['task_queue'], registers,
      collect() {
        this.set({ task_queue: taskQueue_ }, load.cache().cached);
      },
    });
    const seen = { hits: 0, misses: 0 };
    new Counter({
      name: 'steadfast_worker_sticky_cache_total', help: 'Workflow tasks served from the sticky cache (hit) or not (miss: a run\'s first task, or a replay of its history)',
      labelNames: ['task_queue', 'result'], registers,
      collect() {
        const now = load.cache();
        this.inc({ task_queue: taskQueue_, result: 'hit' }, now.hits - seen.hits);
        this.inc({ task_queue: taskQueue_, result: 'miss' }, now.misses - seen.misses);
        seen.hits = now.hits;
        seen.misses = now.misses;
      },
    });
  }

  /** A poll of `kind` answered. */
  polled(kind: 'workflow' | 'activity', outcome: PollOutcome): void {
    this.#polls.inc({ task_queue: this.taskQueue, kind, outcome });
  }

  /** This worker failed a workflow task with `cause`. */
  workflowTaskFailed(cause: string): void {
    this.#taskFailures.inc({ task_queue: this.taskQueue, cause });
  }

  /** An activity attempt ended after `seconds`. */
  activityEnded(activityType: string, outcome: 'completed' | 'failed' | 'canceled', seconds: number): void {
    this.#activitySeconds.observe({ task_queue: this.taskQueue, activity_type: activityType, outcome }, seconds);
  }
}
