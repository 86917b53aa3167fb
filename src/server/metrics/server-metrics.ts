import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { WorkflowExecutionStatus } from '../../history/events.ts';
import { StoreConflictError } from '../../store/errors.ts';
import type { QueueRef, Store } from '../../store/types.ts';
import type { ScheduleCounters } from '../../protocol/schedules.ts';

/** Latency buckets, seconds: 0.5 ms to 10 s. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Schedule-to-start buckets, seconds: 1 ms to 10 min (a task can wait for a worker that long). */
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60, 300, 600];
/** History length buckets, events; 51,200 is the limit past which a run is terminated. */
const EVENT_BUCKETS = [8, 16, 32, 64, 128, 256, 512, 1024, 4096, 10240, 51200];
/** History size buckets, bytes; 50 MiB is the limit past which a run is terminated. */
const BYTE_BUCKETS = [1024, 4096, 16384, 65536, 262144, 1048576, 10485760, 52428800];

/** How long a worker counts in steadfast_task_queue_pollers after its last poll, ms. */
const POLLER_WINDOW_MS = 5 * 60_000;

/** The schedule counters with a series each, and the series' names. */
const SCHEDULE_COUNTERS = {
  actions: 'steadfast_schedule_actions_total',
  skipped: 'steadfast_schedule_skipped_total',
  bufferOverruns: 'steadfast_schedule_buffer_overruns_total',
  missedCatchup: 'steadfast_schedule_missed_catchup_total',
} as const satisfies Partial<Record<keyof ScheduleCounters, string>>;

type ScheduleCounter = keyof typeof SCHEDULE_COUNTERS;

/** Closing statuses and the counter name each is counted under. */
const CLOSE_COUNTERS = {
  Completed: 'steadfast_workflows_completed_total',
  Failed: 'steadfast_workflows_failed_total',
  TimedOut: 'steadfast_workflows_timed_out_total',
  Canceled: 'steadfast_workflows_canceled_total',
  Terminated: 'steadfast_workflows_terminated_total',
  ContinuedAsNew: 'steadfast_workflows_continued_as_new_total',
} as const satisfies Record<Exclude<WorkflowExecutionStatus, 'Running'>, string>;

type ClosingStatus = keyof typeof CLOSE_COUNTERS;

/** Options of {@link ServerMetrics}. */
export interface ServerMetricsOptions {
  /** Where the series are registered. @default a new Registry of its own */
  registry?: Registry;
  /** Also collect Node's process metrics (CPU, memory, event loop lag) with prom-client's defaults. @default true */
  processMetrics?: boolean;
}

/**
 * The server's Prometheus series: HTTP requests, store operations, workflow starts and closes,
 * runs deleted by the retention sweep, state transitions, history sizes at close,
 * schedule-to-start latency and task backlog. Fed by
 * the HTTP server (one call per answered request) and by {@link instrumentStore} (one call per
 * store operation); the engine itself is not touched.
 */
export class ServerMetrics {
  readonly registry: Registry;
  readonly #requests: Counter<'method' | 'status'>;
  readonly #requestSeconds: Histogram<'method' | 'status'>;
  readonly #storeSeconds: Histogram<'operation'>;
  readonly #storeErrors: Counter<'operation'>;
  readonly #storeConflicts: Counter<'reason'>;
  readonly #started: Counter<'namespace' | 'workflow_type'>;
  readonly #closed: Record<ClosingStatus, Counter<'namespace' | 'workflow_type'>>;
  readonly #transitions: Counter<'namespace'>;
  readonly #historyEvents: Histogram<'namespace' | 'workflow_type'>;
  readonly #historyBytes: Histogram<'namespace' | 'workflow_type'>;
  readonly #scheduleToStart: Histogram<'namespace' | 'task_queue' | 'kind'>;
  readonly #deleted: Counter<'namespace'>;
  readonly #taskFailures: Counter<'cause'>;
  readonly #schedule: Record<ScheduleCounter, Counter<'namespace' | 'schedule_id'>>;
  /** The schedule counters last seen, per schedule: the series follow the stored totals. */
  readonly #scheduleSeen = new Map<string, Partial<Record<ScheduleCounter, number>>>();
  /** Workers seen polling, per queue and kind: identity → last poll (ms). */
  readonly #pollers = new Map<string, Map<string, number>>();
  #backlogSource: (() => Promise<(QueueRef & { count: number })[]>) | undefined;

  constructor(options: ServerMetricsOptions = {}) {
    const registers = [this.registry = options.registry ?? new Registry()];
    this.#requests = new Counter({
      name: 'steadfast_requests_total', help: 'API calls answered, per method and HTTP status', labelNames: ['method', 'status'], registers,
    });
    this.#requestSeconds = new Histogram({
      name: 'steadfast_request_duration_seconds', help: 'Time to answer an API call (long polls included), seconds',
      labelNames: ['method', 'status'], buckets: LATENCY_BUCKETS, registers,
    });
    this.#storeSeconds = new Histogram({
      name: 'steadfast_store_operation_duration_seconds', help: 'Time of one store operation, seconds',
      labelNames: ['operation'], buckets: LATENCY_BUCKETS, registers,
    });
    this.#storeErrors = new Counter({
      name: 'steadfast_store_errors_total', help: 'Store operations that failed, per operation (optimistic-concurrency conflicts are counted apart)',
      labelNames: ['operation'], registers,
    });
    this.#storeConflicts = new Counter({
      name: 'steadfast_store_conflicts_total',
      help: 'Writes the store refused as an optimistic-concurrency conflict (StoreConflictError), per reason: a race the engine decides again, or a refusal (a duplicate start)',
      labelNames: ['reason'], registers,
    });
    this.#started = new Counter({
      name: 'steadfast_workflows_started_total', help: 'Workflow runs started (retries and continue-as-new runs included)',
      labelNames: ['namespace', 'workflow_type'], registers,
    });
    const closed = {} as Record<ClosingStatus, Counter<'namespace' | 'workflow_type'>>;
    for (const [status, name] of Object.entries(CLOSE_COUNTERS) as [ClosingStatus, string][]) {
      closed[status] = new Counter({ name, help: `Workflow runs closed ${status}`, labelNames: ['namespace', 'workflow_type'], registers });
    }
    this.#closed = closed;
    this.#transitions = new Counter({
      name: 'steadfast_state_transitions_total', help: 'Committed state transitions of runs (one per run row written)', labelNames: ['namespace'], registers,
    });
    this.#historyEvents = new Histogram({
      name: 'steadfast_history_events_at_close', help: 'History length of a run when it closed, events',
      labelNames: ['namespace', 'workflow_type'], buckets: EVENT_BUCKETS, registers,
    });
    this.#historyBytes = new Histogram({
      name: 'steadfast_history_bytes_at_close', help: 'History size of a run when it closed, bytes',
      labelNames: ['namespace', 'workflow_type'], buckets: BYTE_BUCKETS, registers,
    });
    this.#scheduleToStart = new Histogram({
      name: 'steadfast_schedule_to_start_seconds', help: 'Time from a task being scheduled to a worker being handed it (by a poll or in a completion answer), seconds',
      labelNames: ['namespace', 'task_queue', 'kind'], buckets: WAIT_BUCKETS, registers,
    });
    this.#deleted = new Counter({
      name: 'steadfast_workflows_deleted_total', help: 'Closed runs deleted with their history by the retention sweep',
      labelNames: ['namespace'], registers,
    });
    this.#taskFailures = new Counter({
      name: 'steadfast_workflow_task_failures_total',
      help: 'Workflow tasks that failed (reported failed by a worker, or refused for a bad command), per cause', labelNames: ['cause'], registers,
    });
    const help: Record<ScheduleCounter, string> = {
      actions: 'Actions a schedule took (runs started), as its stored total', skipped: 'Actions a schedule skipped by its overlap policy',
      bufferOverruns: 'Actions a schedule dropped because its buffer was full', missedCatchup: 'Actions a schedule missed: due longer ago than its catchup window',
    };
    const schedule = {} as Record<ScheduleCounter, Counter<'namespace' | 'schedule_id'>>;
    for (const [k, name] of Object.entries(SCHEDULE_COUNTERS) as [ScheduleCounter, string][]) {
      schedule[k] = new Counter({ name, help: help[k], labelNames: ['namespace', 'schedule_id'], registers });
    }
    this.#schedule = schedule;
    const pollers = this.#pollers;
    new Gauge({
      name: 'steadfast_task_queue_pollers', help: 'Workers that polled this server for a task queue in the last 5 minutes, per kind',
      labelNames: ['namespace', 'task_queue', 'kind'], registers,
      collect() {
        this.reset();
        const since = Date.now() - POLLER_WINDOW_MS;
        for (const [key, seen] of pollers) {
          for (const [identity, at] of seen) if (at < since) seen.delete(identity);
          if (seen.size === 0) {
            pollers.delete(key);
            continue;
          }
          const [namespace, taskQueue, kind] = key.split('\u0000');
          this.set({ namespace: namespace!, task_queue: taskQueue!, kind: kind! }, seen.size);
        }
      },
    });
    const backlogSource = () => this.#backlogSource;
    const storeErrors = this.#storeErrors;
    new Gauge({
      name: 'steadfast_task_backlog', help: 'Tasks visible now and not claimed, per task queue (read from the store at scrape time)',
      labelNames: ['namespace', 'task_queue', 'kind'], registers,
      async collect() {
        this.reset();
        const source = backlogSource();
        if (!source) return;
        let queues;
        try {
          queues = await source();
        } catch {
          // An unreachable database must not take the other series down with it: the scrape
          // still answers, without a backlog, and the failed read is counted.
          storeErrors.inc({ operation: 'readyQueues' });
          return;
        }
        for (const q of queues) this.set({ namespace: q.namespace, task_queue: q.taskQueue, kind: q.kind }, q.count);
      },
    });
    if (options.processMetrics ?? true) collectProcessMetrics(this.registry);
  }

  /** Counts an answered API call; `seconds` from its arrival to its answer. */
  request(method: string, status: number, seconds: number): void {
    const labels = { method, status: String(status) };
    this.#requests.inc(labels);
    this.#requestSeconds.observe(labels, seconds);
  }

  /**
   * Times one store operation; `error` is what it threw, if it did. A conflict (the store refusing
   * a write made on a stale read, or one that a constraint forbids) is the store working as meant,
   * counted by reason; anything else is a failure of the store, counted by operation.
   */
  storeOperation(operation: string, seconds: number, error?: unknown): void {
    this.#storeSeconds.observe({ operation }, seconds);
    if (error === undefined) return;
    if (error instanceof StoreConflictError) this.#storeConflicts.inc({ reason: error.reason });
    else this.#storeErrors.inc({ operation });
  }

  /** A committed transition wrote a run's row. */
  transition(namespace: string): void {
    this.#transitions.inc({ namespace });
  }

  /** A run was created. */
  workflowStarted(namespace: string, workflowType: string): void {
    this.#started.inc({ namespace, workflow_type: workflowType });
  }

  /** A run closed with `status`, its history `events` long and `bytes` large. */
  workflowClosed(namespace: string, workflowType: string, status: ClosingStatus, events: number, bytes: number | undefined): void {
    const labels = { namespace, workflow_type: workflowType };
    this.#closed[status].inc(labels);
    this.#historyEvents.observe(labels, events);
    if (bytes !== undefined) this.#historyBytes.observe(labels, bytes);
  }

  /** The retention sweep deleted `count` closed runs of a namespace. */
  runsDeleted(namespace: string, count: number): void {
    if (count > 0) this.#deleted.inc({ namespace }, count);
  }

  /**
   * A schedule's row was written with these totals: each series moves by what its total grew
   * since last seen (from 0 in a new process, so the series carries the stored total).
   */
  scheduleWritten(namespace: string, scheduleId: string, counters: Partial<ScheduleCounters> | undefined): void {
    if (!counters) return;
    const key = `${namespace}\u0000${scheduleId}`;
    const seen = this.#scheduleSeen.get(key) ?? {};
    this.#scheduleSeen.set(key, seen);
    for (const k of Object.keys(SCHEDULE_COUNTERS) as ScheduleCounter[]) {
      const now = counters[k];
      if (typeof now !== 'number') continue;
      const delta = now - (seen[k] ?? 0);
      if (delta > 0) this.#schedule[k].inc({ namespace, schedule_id: scheduleId }, delta);
      seen[k] = now;
    }
  }

  /** A schedule was deleted: its series stop. */
  scheduleDeleted(namespace: string, scheduleId: string): void {
    this.#scheduleSeen.delete(`${namespace}\u0000${scheduleId}`);
    for (const c of Object.values(this.#schedule)) c.remove({ namespace, schedule_id: scheduleId });
  }

  /** A workflow task failed with `cause`. */
  workflowTaskFailed(cause: string): void {
    this.#taskFailures.inc({ cause });
  }

  /** A worker polled a queue (its poll began). */
  polled(namespace: string, taskQueue: string, kind: string, identity: string): void {
    const key = `${namespace}\u0000${taskQueue}\u0000${kind}`;
    let seen = this.#pollers.get(key);
    if (!seen) this.#pollers.set(key, (seen = new Map()));
    seen.set(identity, Date.now());
  }

  /** A poll was handed a task `seconds` after the task was scheduled. */
  taskStarted(namespace: string, taskQueue: string, kind: string, seconds: number): void {
    this.#scheduleToStart.observe({ namespace, task_queue: taskQueue, kind }, seconds);
  }

  /** Reads the backlog from this store at each scrape (the tasks visible at `now()`). */
  watchBacklog(store: Pick<Store, 'readyQueues'>, now: () => number = Date.now): void {
    this.#backlogSource = () => store.readyQueues(now());
  }

  /** The text exposition of every series, and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** Registers prom-client's default process metrics once per registry. */
function collectProcessMetrics(registry: Registry): void {
  if (registry.getSingleMetric('process_cpu_seconds_total')) return;
  collectDefaultMetrics({ register: registry });
}

/** True for the statuses a run closes with. */
export function isClosingStatus(status: WorkflowExecutionStatus): status is ClosingStatus {
  return status in CLOSE_COUNTERS;
}
