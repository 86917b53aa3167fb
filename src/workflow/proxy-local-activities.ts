import { ValidationError } from '../errors/index.ts';
import type { Duration } from '../retry/duration.ts';
import { resolvePolicyData, type RetryPolicyInput } from '../retry/policy-model.ts';
import type { ActivityFunction } from '../common/workflow-types.ts';
import { optionalPositiveDuration, optionalRecord, optionalString, requireOneOf } from '../common/validate.ts';
import { ACTIVITY_CANCELLATION_TYPES, type ActivityCancellationType } from './activity-cancellation.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { checkPolicyDurations } from '../common/max-duration.ts';
import { userMetadataOf } from '../history/user-metadata.ts';
import { activator } from './activator.ts';
import { headerField, outbound } from './interceptors.ts';
import type { ActivityInterfaceFor } from './proxy-activities.ts';
import type { LocalActivityCallInput } from './local-activity-state.ts';

/** How the activities of a {@link proxyLocalActivities} proxy run. Temporal's option names. */
export interface LocalActivityOptions {
  /** Limit on one attempt, from start to result. One of this and scheduleToCloseTimeout is required. */
  startToCloseTimeout?: Duration;
  /** Limit on all attempts together, retries and their waits included. */
  scheduleToCloseTimeout?: Duration;
  /** Retry policy, as for activities. Local activities retry by default (1 s, ×2, capped at 100 s, unlimited attempts). */
  retry?: RetryPolicyInput;
  /**
   * A retry that waits less than this waits in the worker, inside the workflow task; a longer
   * wait goes through a durable timer, and the next attempt is a new call after it. @default 1 minute
   */
  localRetryThreshold?: Duration;
  /**
   * Limit on the time the call waits in the worker for a free slot (the worker runs at most
   * `maxConcurrentLocalActivityExecutions` at once). Passing it fails the call with a
   * ScheduleToStart timeout that is not retried: a retry would wait in the same queue.
   * Clamped to scheduleToCloseTimeout. @default scheduleToCloseTimeout, else no limit
   */
  scheduleToStartTimeout?: Duration;
  /** The call's id. @default its sequence number among the run's local activity calls */
  activityId?: string;
  /**
   * What cancelling the call's scope does (`ActivityCancellationType`): `TRY_CANCEL` rejects the
   * call at once and aborts the running attempt; `WAIT_CANCELLATION_COMPLETED` aborts it and
   * settles when the attempt ends (with its result, if it completes anyway); `ABANDON` rejects at
   * once and lets the attempt run on. @default "TRY_CANCEL"
   */
  cancellationType?: ActivityCancellationType;
  /** A one-line summary of the call (Temporal's `summary`, at most 400 characters), recorded on its marker. @default none */
  summary?: string;
}

const OPTION_KEYS = optionKeys<LocalActivityOptions>({
  startToCloseTimeout: true, scheduleToCloseTimeout: true, scheduleToStartTimeout: true, retry: true, localRetryThreshold: true,
  activityId: true, cancellationType: true, summary: true,
});

/** Temporal's default localRetryThreshold, ms. */
export const DEFAULT_LOCAL_RETRY_THRESHOLD_MS = 60_000;

/**
 * Validates local activity options and resolves them to a request's fields.
 * @throws ValidationError naming the option, e.g. `localRetryThreshold must be a positive duration …`.
 */
export function resolveLocalActivityOptions(options: LocalActivityOptions): Omit<LocalActivityCallInput, 'activityType' | 'args'> {
  if (optionalRecord('local activity options', options) === undefined) {
    throw new ValidationError('local activity options', 'must be an object with startToCloseTimeout or scheduleToCloseTimeout', options);
  }
  refuseUnknownKeys('local activity', options, OPTION_KEYS);
  const startToClose = optionalPositiveDuration('startToCloseTimeout', options.startToCloseTimeout);
  const scheduleToClose = optionalPositiveDuration('scheduleToCloseTimeout', options.scheduleToCloseTimeout);
  if (startToClose === undefined && scheduleToClose === undefined) {
    throw new ValidationError('startToCloseTimeout', 'or scheduleToCloseTimeout must be set', undefined,
      'local activity options need startToCloseTimeout or scheduleToCloseTimeout; neither was given');
  }
  const threshold = optionalPositiveDuration('localRetryThreshold', options.localRetryThreshold);
  const retryPolicy = options.retry !== undefined
    ? checkPolicyDurations('retry', resolvePolicyData(options.retry, 'retry'), 'user') : resolvePolicyData(undefined);
  const out: Omit<LocalActivityCallInput, 'activityType' | 'args'> = {
    retryPolicy, localRetryThresholdMs: threshold ?? DEFAULT_LOCAL_RETRY_THRESHOLD_MS,
  };
  if (startToClose !== undefined) out.startToCloseTimeoutMs = startToClose;
  if (scheduleToClose !== undefined) out.scheduleToCloseTimeoutMs = scheduleToClose;
  const scheduleToStart = optionalPositiveDuration('scheduleToStartTimeout', options.scheduleToStartTimeout) ?? scheduleToClose;
  if (scheduleToStart !== undefined) out.scheduleToStartTimeoutMs = Math.min(scheduleToStart, scheduleToClose ?? scheduleToStart);
  if (options.cancellationType !== undefined) {
    out.cancellationType = requireOneOf('cancellationType', options.cancellationType, ACTIVITY_CANCELLATION_TYPES);
  }
  const activityId = optionalString('activityId', options.activityId, 1000);
  if (activityId !== undefined) {
    if (activityId.length === 0) throw new ValidationError('activityId', 'must be a non-empty string', activityId);
    out.activityId = activityId;
  }
  return out;
}

/**
 * Returns an object whose functions run activities as local activities: in the worker that runs
 * the workflow task, inside that task, with the outcome recorded as a `core_local_activity`
 * marker instead of activity events. A replay takes the outcome from the marker and never runs a
 * completed call again. A failure rejects with an ActivityFailure, as for activities.
 * @example const { getPrice } = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '5s' });
 */
export function proxyLocalActivities<A = Record<string, ActivityFunction>>(options: LocalActivityOptions): ActivityInterfaceFor<A> {
  const resolved = resolveLocalActivityOptions(options);
  const userMetadata = userMetadataOf({ field: 'summary', value: options.summary });
  return new Proxy({} as ActivityInterfaceFor<A>, {
    get(_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return (...args: unknown[]) => {
        const a = activator();
        const call = outbound(a.interceptors, 'scheduleLocalActivity', (input) => a.local.call({
          ...resolved, activityType: input.activityType, args: input.args, ...headerField(input.headers),
        }, userMetadata));
        return call({ activityType: name, args, options, headers: {} });
      };
    },
  });
}
