/**
 * steadfast/retry: one retry-policy model for Temporal/Cadence, horsies and
 * Polly.Contrib.WaitAndRetry, the pure backoff functions the engine and the simulator share,
 * and `retry()`, an executor for any async function.
 */
export { SteadfastError, ValidationError } from '../errors/index.ts';
export { toMs, optionalMs, formatMs, type Duration, type DurationString } from './duration.ts';
export { systemClock, ManualClock, type Clock } from './clock.ts';
export type { RetryPolicyData, CurvePolicyData, PolicyData } from './policy-data.ts';
export {
  resolveRetryPolicy, DEFAULT_RETRY_POLICY, MAX_ATTEMPTS, retryInterval, temporalSchedule, type TemporalRetryPolicy,
} from './temporal.ts';
export {
  resolvePolicyData, scheduleOf, policyDelay, backoffInfo, isCurvePolicy, type BackoffInfo, type RetryPolicyInput,
} from './policy-model.ts';
export {
  decideNext, decideRetry, timeoutFailureType, RETRY_STATES, type DelaySource, type NextAttemptInput, type RetryDecision, type RetryDecisionInput, type RetryState,
} from './decide.ts';
export {
  cadenceReason, failureTypeListed, thrownFailureFacts, CADENCE_GENERIC, CADENCE_PANIC, PANIC_ERROR_NAMES, type FailureTypeFacts,
} from './failure-types.ts';
export {
  backoffDelay, backoffDelays, isRandomized, MAX_DELAY_MS, DECORRELATED_JITTER_SCALE,
  type BackoffCurve, type BackoffSchedule, type BackoffSource,
} from './backoff.ts';
export { mixSeed, unitRandom, hashString, randomSeed } from './random.ts';
export {
  RetryPolicy, horsiesPolicy, HORSIES_JITTER, type HorsiesPolicyOptions, type HorsiesInterval, type HorsiesFixedOptions, type HorsiesExponentialOptions,
} from './horsies.ts';
export { Backoff, type PollyOptions } from './polly.ts';
export { checkSchedule } from './schedule-check.ts';
export {
  UNHANDLED_EXCEPTION, WORKER_CRASHED, CodedError, isErrorCode, resolveErrorCode, resolveErrorCodeOf, setGlobalExceptionMapper, globalExceptionMapper,
  type ErrorClass, type ExceptionMapper, type ErrorCodeConfig, type ErrorCodeData, type ErrorCodeSource,
} from './error-codes.ts';
export { RetryError, AttemptTimeoutError, RetryTimeoutError } from './retry-error.ts';
export {
  type RetryOptions, type AttemptContext, type RetryEvent, type RetryVerdict,
} from './retry-options.ts';
export { retry, createRetry, type Attempt, type RetryResult } from './retry.ts';
export { simulateTimeline, delayPercentiles, type TimelineRow, type DelayPercentiles } from './simulate.ts';
