/* Task queues as an operator sees them: who polls them, what waits on them, how long tasks wait. */

/** Asks about one task queue. */
export interface DescribeTaskQueueRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** The queue. */
  taskQueue: string;
}

/** A worker that polled a queue lately. */
export interface TaskQueuePoller {
  /** The worker's identity, as its polls give it. */
  identity: string;
  /** When it last polled this kind of the queue. */
  lastAccessTime: string;
  /** Its polls per second over the last minute. */
  ratePerSecond: number;
}

/** How long tasks of a queue waited between becoming ready and being started, ms, over the last minutes. */
export interface ScheduleToStartLatency {
  p50: number;
  p99: number;
  /** How many started tasks the percentiles are over. */
  samples: number;
}

/** One kind of a task queue (workflow or activity tasks). */
export interface TaskQueueKindStatus {
  /** The workers that polled it in the last 5 minutes, the latest first. */
  pollers: TaskQueuePoller[];
  /** Tasks ready to be handed out now. */
  backlogCount: number;
  /** How long the oldest of them has been ready, ms; absent when there is none. */
  backlogAgeMs?: number | undefined;
  /** Schedule-to-start latency of the tasks this server started in the last 5 minutes; absent when none. */
  scheduleToStart?: ScheduleToStartLatency | undefined;
}

/** What describeTaskQueue answers. */
export interface DescribeTaskQueueResponse {
  namespace: string;
  taskQueue: string;
  workflow: TaskQueueKindStatus;
  activity: TaskQueueKindStatus;
  /** The last poll of either kind by any worker, as far as the pollers table remembers (5 minutes). */
  lastPollTime?: string | undefined;
}

/** Lists the task queues of a namespace that have pollers or tasks. */
export interface ListTaskQueuesRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** Most queues in the answer. @default 100 */
  pageSize?: number | undefined;
}

/** One task queue in a list. */
export interface TaskQueueSummary {
  name: string;
  /** Workers that polled it (either kind) in the last 5 minutes. */
  pollerCount: number;
  /** When one last did. */
  lastPollTime?: string | undefined;
}

/** The task queues of a namespace, in name order. */
export interface ListTaskQueuesResponse {
  taskQueues: TaskQueueSummary[];
}

/** Where a run waits for a worker that nobody has polled for a while (see describe's `taskQueueUnpolled`). */
export interface UnpolledTaskQueue {
  /** The run's task queue. */
  taskQueue: string;
  /** When a worker last polled it, if within the pollers table's memory (5 minutes). */
  lastPollTime?: string | undefined;
  /** `no worker has polled task queue "x" for 2 min`. */
  message: string;
}
