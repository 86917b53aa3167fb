import { ValidationError } from '../errors/index.ts';
import type { Duration } from '../retry/duration.ts';
import { resolvePolicyData, type RetryPolicyInput } from '../retry/policy-model.ts';
import type { ActivityFunction } from '../common/workflow-types.ts';
import { optionalPositiveDuration, optionalRecord, optionalString, requireOneOf } from '../common/validate.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { requireErrorCode, toExceptionMap, type ErrorCodeData, type ExceptionMapper } from '../retry/error-codes.ts';
import { checkPolicyDurations } from '../common/max-duration.ts';
import type { CommandAttributes } from '../history/commands.ts';
import { userMetadataOf } from '../history/user-metadata.ts';
import { activator } from './activator.ts';
import { headerField, outbound } from './interceptors.ts';
import { ACTIVITY_CANCELLATION_TYPES, type ActivityCancellationType } from './activity-cancellation.ts';

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
   * Retry policy: Temporal's fields, or any policy of `steadfast/retry` — a horsies
   * `RetryPolicy.fixed([60, 300, 900], { autoRetryFor })`, a Polly `Backoff.decorrelatedJitterV2('1s', 5)`,
   * … — which the engine then follows. Activities retry by default (1 s, ×2, capped at 100 s,
   * unlimited attempts); `{ maximumAttempts: 1 }` disables retries.
   */
  retry?: RetryPolicyInput;
  /**
   * The activity's id (Temporal's `activityId`), unique among the run's pending activities.
   * @default the activity's sequence number in the run ("1", "2", …)
   */
  activityId?: string;
  /**
   * What cancelling the activity's scope does (Temporal's values, also as
   * `ActivityCancellationType.TRY_CANCEL` …): `TRY_CANCEL` rejects the call at once and asks the
   * activity to cancel; `WAIT_CANCELLATION_COMPLETED` asks it to cancel and settles only when it
   * reports the cancellation (or completes or fails first); `ABANDON` rejects at once and sends
   * no cancel request. @default "TRY_CANCEL"
   */
  cancellationType?: ActivityCancellationType;
  /**
   * horsies' per-task exception mapper: the exact class of an error the activity throws → its
   * UPPER_SNAKE_CASE error code, as `[[Class, 'CODE'], …]`, a Map, or `{ ClassName: 'CODE' }`.
   * Classes are matched by name on the worker that runs the activity (the workflow's copy of a
   * class is not the worker's), subclasses not included. It comes before the worker's
   * `exceptionMapper`; a code it gives becomes the failure's `type` and `errorCode`, which
   * `autoRetryFor` and `nonRetryableErrorTypes` match. @default none
   */
  exceptionMapper?: ExceptionMapper | Readonly<Record<string, string>>;
  /**
   * horsies' per-task default code, for an error no mapper names (after the worker's
   * `exceptionMapper`, before its `defaultUnhandledErrorCode`). @default the worker's, else UNHANDLED_EXCEPTION
   */
  defaultUnhandledErrorCode?: string;
  /**
   * A one-line summary of the call (Temporal's `summary`, at most 400 characters), recorded in
   * its ActivityTaskScheduled event and shown by the web UI's compact history and timeline. @default none
   */
  summary?: string;
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

const OPTION_KEYS = optionKeys<ActivityOptions>({
  taskQueue: true, startToCloseTimeout: true, scheduleToCloseTimeout: true, scheduleToStartTimeout: true, heartbeatTimeout: true, retry: true,
  activityId: true, cancellationType: true, exceptionMapper: true, defaultUnhandledErrorCode: true, summary: true,
});

type ResolvedOptions = Omit<CommandAttributes['ScheduleActivityTask'], 'activityId' | 'activityType' | 'args'> & {
  activityId?: string;
  cancellationType?: ActivityCancellationType;
};

/**
 * Validates activity options and resolves them to the ScheduleActivityTask command's fields
 * (durations in ms, the retry policy as PolicyData).
 * @throws ValidationError naming the option, e.g. `retry.maximumAttempts must be >= 0 …, got -1`.
 */
export function resolveActivityOptions(options: ActivityOptions): ResolvedOptions {
  if (optionalRecord('activity options', options) === undefined) {
    throw new ValidationError('activity options', 'must be an object with startToCloseTimeout or scheduleToCloseTimeout', options);
  }
  refuseUnknownKeys('activity', options, OPTION_KEYS);
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
  if (options.retry !== undefined) out.retryPolicy = checkPolicyDurations('retry', resolvePolicyData(options.retry, 'retry'), 'user');
  const errorCodes = errorCodeDataOf(options);
  if (errorCodes) out.retryPolicy = { ...(out.retryPolicy ?? resolvePolicyData(undefined)), errorCodes };
  const activityId = optionalString('activityId', options.activityId, 1000);
  if (activityId !== undefined) {
    if (activityId.length === 0) throw new ValidationError('activityId', 'must be a non-empty string', activityId);
    out.activityId = activityId;
  }
  if (options.cancellationType !== undefined) {
    out.cancellationType = requireOneOf('cancellationType', options.cancellationType, ACTIVITY_CANCELLATION_TYPES);
  }
  const userMetadata = userMetadataOf({ field: 'summary', value: options.summary });
  if (userMetadata) out.userMetadata = userMetadata;
  return out;
}

/**
 * The proxy's exception mapper and default code as data for the worker (class names), or
 * undefined when neither is set. Errors name the option: `exceptionMapper[0][1] must be an
 * UPPER_SNAKE_CASE error code …`.
 */
function errorCodeDataOf(options: ActivityOptions): ErrorCodeData | undefined {
  const { exceptionMapper: mapper, defaultUnhandledErrorCode: fallback } = options;
  if (mapper === undefined && fallback === undefined) return undefined;
  const data: ErrorCodeData = {};
  if (mapper !== undefined) {
    const isClassMapper = mapper instanceof Map || Array.isArray(mapper);
    const byName: Record<string, string> = {};
    if (isClassMapper) {
      [...toExceptionMap('exceptionMapper', mapper as ExceptionMapper)].forEach(([cls, code], i) => {
        if (!cls.name) throw new ValidationError(`exceptionMapper[${i}][0]`, 'must be a named class (the worker matches it by name)', cls);
        byName[cls.name] = code;
      });
    } else if (typeof mapper === 'object' && mapper !== null) {
      for (const [name, code] of Object.entries(mapper)) byName[name] = requireErrorCode(`exceptionMapper.${name}`, code);
    } else {
      throw new ValidationError('exceptionMapper', "must be [[Class, 'CODE'], …], a Map, or { ClassName: 'CODE' }", mapper);
    }
    data.exceptionMapper = byName;
  }
  if (fallback !== undefined) data.defaultUnhandledErrorCode = requireErrorCode('defaultUnhandledErrorCode', fallback);
  return data;
}

/**
 * Returns an object whose functions schedule activities: calling `charge(id)` emits a
 * ScheduleActivityTask command for activity type "charge" and resolves with its result, or
 * rejects with an ActivityFailure whose cause says why it failed for good.
 * Options are validated here, once, when the workflow module loads.
 * @example const { charge } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s' });
 */
export function proxyActivities<A = Record<string, ActivityFunction>>(options: ActivityOptions): ActivityInterfaceFor<A> {
  const { cancellationType, ...resolved } = resolveActivityOptions(options);
  return new Proxy({} as ActivityInterfaceFor<A>, {
    get(_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return (...args: unknown[]) => {
        const a = activator();
        const schedule = outbound(a.interceptors, 'scheduleActivity', (input) => a.scheduleActivity({
          activityType: input.activityType, args: input.args, ...resolved, ...headerField(input.headers),
        }, cancellationType));
        return schedule({ activityType: name, args, options, headers: {}, seq: a.nextSeq('activity') });
      };
    },
  });
}
