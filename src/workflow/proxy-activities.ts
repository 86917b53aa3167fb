import { ValidationError } from '../retry/errors.ts';
import type { Duration } from '../retry/duration.ts';
import { resolveRetryPolicy, type TemporalRetryPolicy } from '../retry/temporal.ts';
import type { ActivityFunction } from '../common/workflow-types.ts';
import { optionalPositiveDuration, optionalRecord, optionalString } from '../common/validate.ts';
import type { CommandAttributes } from '../history/commands.ts';
import { activator } from './activator.ts';

/** How the activities of a {@link proxyActivities} proxy are scheduled. Temporal's option names. */
export interface ActivityOptions {
  /** Task queue the activity runs on. @default the workflow's task queue */
  taskQueue?: string;
  /** Limit on one attempt, from start to result. One of this and scheduleToCloseTimeout is required. */
  startToCloseTimeout?: Duration;
  /** Limit on all attempts together, retries included. */
  scheduleToCloseTimeout?: Duration;
  /** Limit on the time an attempt waits in the task queue. */
  scheduleToStartTimeout?: Duration;
  /** Longest gap between heartbeats before the attempt times out. */
  heartbeatTimeout?: Duration;
  /**
   * Retry policy in Temporal's form. Activities retry by default (1 s, ×2, capped at 100 s,
   * unlimited attempts); `{ maximumAttempts: 1 }` disables retries.
   */
  retry?: TemporalRetryPolicy;
}

/**
 * The callable face of an activities module: each function keeps its parameters and resolves
 * to what the activity resolves to, so wrong argument or result types fail to compile.
 */
export type ActivityInterfaceFor<T> = {
  [K in keyof T as T[K] extends ActivityFunction ? K : never]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

const OPTION_KEYS = new Set([
  'taskQueue', 'startToCloseTimeout', 'scheduleToCloseTimeout', 'scheduleToStartTimeout', 'heartbeatTimeout', 'retry',
]);

type ResolvedOptions = Omit<CommandAttributes['ScheduleActivityTask'], 'activityId' | 'activityType' | 'args'>;

/**
 * Validates activity options and resolves them to the ScheduleActivityTask command's fields
 * (durations in ms, the retry policy as RetryPolicyData).
 * @throws ValidationError naming the option, e.g. `retry.maximumAttempts must be >= 0 …, got -1`.
 */
export function resolveActivityOptions(options: ActivityOptions): ResolvedOptions {
  if (optionalRecord('activity options', options) === undefined) {
    throw new ValidationError('activity options', 'must be an object with startToCloseTimeout or scheduleToCloseTimeout', options);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) {
      throw new ValidationError(key, `is not an activity option (known: ${[...OPTION_KEYS].join(', ')})`, (options as Record<string, unknown>)[key]);
    }
  }
  const out: ResolvedOptions = {};
  const taskQueue = optionalString('taskQueue', options.taskQueue);
  if (taskQueue !== undefined) out.taskQueue = taskQueue;
  const startToClose = optionalPositiveDuration('startToCloseTimeout', options.startToCloseTimeout);
  const scheduleToClose = optionalPositiveDuration('scheduleToCloseTimeout', options.scheduleToCloseTimeout);
  const scheduleToStart = optionalPositiveDuration('scheduleToStartTimeout', options.scheduleToStartTimeout);
  const heartbeat = optionalPositiveDuration('heartbeatTimeout', options.heartbeatTimeout);
  if (startToClose === undefined && scheduleToClose === undefined) {
    throw new ValidationError('startToCloseTimeout', 'or scheduleToCloseTimeout must be set', undefined,
      'activity options need startToCloseTimeout or scheduleToCloseTimeout; neither was given');
  }
  if (startToClose !== undefined) out.startToCloseTimeoutMs = startToClose;
  if (scheduleToClose !== undefined) out.scheduleToCloseTimeoutMs = scheduleToClose;
  if (scheduleToStart !== undefined) out.scheduleToStartTimeoutMs = scheduleToStart;
  if (heartbeat !== undefined) out.heartbeatTimeoutMs = heartbeat;
  if (options.retry !== undefined) out.retryPolicy = resolveRetryPolicy(options.retry, 'retry');
  return out;
}

/**
 * Returns an object whose functions schedule activities: calling `charge(id)` emits a
 * ScheduleActivityTask command for activity type "charge" and resolves with its result, or
 * rejects with an ActivityFailure whose cause says why it failed for good.
 * Options are validated here, once, when the workflow module loads.
 * @example const { charge } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s' });
 */
export function proxyActivities<A = Record<string, ActivityFunction>>(options: ActivityOptions): ActivityInterfaceFor<A> {
  const resolved = resolveActivityOptions(options);
  return new Proxy({} as ActivityInterfaceFor<A>, {
    get(_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return (...args: unknown[]) => activator().scheduleActivity({ activityType: name, args, ...resolved });
    },
  });
}
