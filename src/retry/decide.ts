import type { PolicyData } from './policy-data.ts';
import { isCurvePolicy, policyDelay } from './policy-model.ts';
import { UNHANDLED_EXCEPTION } from './error-codes.ts';
import { failureTypeListed, type FailureTypeFacts } from './failure-types.ts';

/**
 * The failure type a timeout carries, matched by `nonRetryableErrorTypes` like an application
 * failure's type: `StartToClose` → `StartToCloseTimeout`, and so on for `ScheduleToStart`,
 * `ScheduleToClose` and `Heartbeat`.
 */
export function timeoutFailureType(timeoutType: string): string {
  return `${timeoutType}Timeout`;
}

/** What {@link decideRetry} is told about a failed attempt. */
export interface RetryDecisionInput {
  /** The attempt that failed, 1-based. */
  attempt: number;
  /**
   * The failure: `type` (with `kind` and `typeFromClass`, see {@link failureTypeListed}) is matched
   * against nonRetryableErrorTypes, `errorCode` against a horsies policy's autoRetryFor (absent =
   * `UNHANDLED_EXCEPTION`); `nextRetryDelayMs` replaces the interval.
   */
  failure?: FailureTypeFacts & { nonRetryable?: boolean; nextRetryDelayMs?: number; errorCode?: string };
  /** Time since the first attempt started, ms (for expirationInterval). @default 0 */
  elapsedMs?: number;
  /** Mixed into the seed of the policy's random draws; see {@link policyDelay}. */
  seedKey?: string;
}

/**
 * Why retrying stopped, or that it goes on: Temporal's `RetryState` names, the one vocabulary
 * of the engine (events, describe, failures) and of `retry()` (`RetryError.retryState`).
 */
export const RETRY_STATES = [
  /** Still retrying. */
  'InProgress',
  /** The failure was not retryable: its flag, its type, its error code, a predicate or a classifier said so. */
  'NonRetryableFailure',
  /** The time budget ran out: expirationInterval, a run or schedule-to-close timeout, or retry()'s overall `timeout`. */
  'Timeout',
  /** The policy's attempts were used up. */
  'MaximumAttemptsReached',
  /** Nothing retries this (a workflow without a retry policy). */
  'RetryPolicyNotSet',
  /** Cancelled: the execution was asked to cancel, or retry()'s `signal` aborted. */
  'CancelRequested',
] as const;

/** One of {@link RETRY_STATES}. */
export type RetryState = (typeof RETRY_STATES)[number];

/** The verdict on a failed attempt: retry after `delayMs`, or stop with the state that says why. */
export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; retryState: Extract<RetryState, 'MaximumAttemptsReached' | 'NonRetryableFailure' | 'Timeout'> };

/** What {@link decideNext} is told about a failed attempt, once the failure has been classified. */
export interface NextAttemptInput {
  /** The attempt that failed, 1-based. */
  attempt: number;
  /** Attempts allowed, the first included; 0 or Infinity = unlimited. */
  maximumAttempts: number;
  /** True when a check on the failure refused a retry. */
  nonRetryable: boolean;
  /** Time since the first attempt started, ms. */
  elapsedMs: number;
  /** The policy's expirationInterval (Cadence), ms: no attempt starts after it. */
  expirationMs?: number | undefined;
  /** Time left before an overall deadline, ms: no attempt starts at or after it. */
  remainingMs?: number | undefined;
}

/** Where {@link decideNext} draws the wait before the next attempt. */
export interface DelaySource {
  /** The wait after failed attempt `attempt`, ms; asked only when the attempts allow another (random draws stay in order). */
  delayMs(attempt: number): number;
}

/**
 * The one rule of stopping, in Temporal's order, for the engine's activities and workflows and
 * for `retry()` alike: a non-retryable failure stops first; then maximumAttempts; then the delay
 * is drawn, and the expiration interval or the overall deadline stops with `Timeout` when the
 * next attempt would start after it.
 */
export function decideNext(input: NextAttemptInput, delays: DelaySource): RetryDecision {
  if (input.nonRetryable) return { retry: false, retryState: 'NonRetryableFailure' };
  if (input.maximumAttempts > 0 && input.attempt >= input.maximumAttempts) return { retry: false, retryState: 'MaximumAttemptsReached' };
  const delayMs = delays.delayMs(input.attempt);
  if (input.expirationMs !== undefined && input.elapsedMs + delayMs > input.expirationMs) return { retry: false, retryState: 'Timeout' };
  if (input.remainingMs !== undefined && delayMs >= input.remainingMs) return { retry: false, retryState: 'Timeout' };
  return { retry: true, delayMs };
}

/**
 * True when a policy refuses to retry this failure: its `nonRetryable` flag, its type (timeouts'
 * other spellings and Cadence's reasons included) in nonRetryableErrorTypes, or, under a horsies policy, its error code missing from
 * autoRetryFor.
 */
function refusedByPolicy(policy: PolicyData, failure: RetryDecisionInput['failure']): boolean {
  if (failure?.nonRetryable === true || failureTypeListed(policy.nonRetryableErrorTypes, failure)) return true;
  const codes = isCurvePolicy(policy) ? policy.autoRetryFor : undefined;
  return codes !== undefined && !codes.includes(failure?.errorCode ?? UNHANDLED_EXCEPTION);
}

/**
 * The decision made when an attempt under a stored policy fails (the engine's activities and
 * workflows): the failure is classified against the policy, and {@link decideNext} decides,
 * with nextRetryDelay, else the policy's curve, as the delay.
 */
export function decideRetry(policy: PolicyData, input: RetryDecisionInput): RetryDecision {
  const failure = input.failure;
  return decideNext({
    attempt: input.attempt,
    maximumAttempts: policy.maximumAttempts,
    nonRetryable: refusedByPolicy(policy, failure),
    elapsedMs: input.elapsedMs ?? 0,
    expirationMs: isCurvePolicy(policy) ? undefined : policy.expirationIntervalMs,
  }, {
    delayMs: (attempt) => {
      const override = failure?.nextRetryDelayMs;
      return typeof override === 'number' && override >= 0 && Number.isFinite(override) ? override : policyDelay(policy, attempt, input.seedKey);
    },
  });
}
