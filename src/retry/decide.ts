import type { PolicyData } from './policy-data.ts';
import { isCurvePolicy, policyDelay } from './policy-model.ts';
import { UNHANDLED_EXCEPTION } from './error-codes.ts';

/**
 * The failure type a timeout carries, matched by `nonRetryableErrorTypes` like an application
 * failure's type: `StartToClose` → `StartToCloseTimeout`, and so on for `ScheduleToStart`,
 * `ScheduleToClose` and `Heartbeat`.
 */
export function timeoutFailureType(timeoutType: string): string {
  return `${timeoutType}Timeout`;
}

/**
 * Other spellings of the same timeout types, so a ported policy stops on the timeouts it lists:
 * Temporal's server convention (`TemporalTimeout:StartToClose`) and Cadence's
 * (`cadenceInternal:Timeout START_TO_CLOSE`).
 */
const TIMEOUT_TYPE_ALIASES: Record<string, readonly string[]> = {
  StartToCloseTimeout: ['TemporalTimeout:StartToClose', 'cadenceInternal:Timeout START_TO_CLOSE'],
  ScheduleToStartTimeout: ['TemporalTimeout:ScheduleToStart', 'cadenceInternal:Timeout SCHEDULE_TO_START'],
  ScheduleToCloseTimeout: ['TemporalTimeout:ScheduleToClose', 'cadenceInternal:Timeout SCHEDULE_TO_CLOSE'],
  HeartbeatTimeout: ['TemporalTimeout:Heartbeat', 'cadenceInternal:Timeout HEARTBEAT'],
};

/** True when the failure's type, or another spelling of it, is listed. */
function typeListed(types: readonly string[], type: string | undefined): boolean {
  if (type === undefined || types.length === 0) return false;
  if (types.includes(type)) return true;
  return TIMEOUT_TYPE_ALIASES[type]?.some((alias) => types.includes(alias)) ?? false;
}

/** What {@link decideRetry} is told about a failed attempt. */
export interface RetryDecisionInput {
  /** The attempt that failed, 1-based. */
  attempt: number;
  /**
   * The failure: `type` is matched against nonRetryableErrorTypes, `errorCode` against a horsies
   * policy's autoRetryFor (absent = `UNHANDLED_EXCEPTION`); `nextRetryDelayMs` replaces the interval.
   */
  failure?: { type?: string; nonRetryable?: boolean; nextRetryDelayMs?: number; errorCode?: string };
  /** Time since the first attempt started, ms (for expirationInterval). @default 0 */
  elapsedMs?: number;
  /** Mixed into the seed of the policy's random draws; see {@link policyDelay}. */
  seedKey?: string;
}

/** The engine's verdict on a failed attempt. */
export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; retryState: 'MaximumAttemptsReached' | 'NonRetryableFailure' | 'Timeout' };

/**
 * The whole decision made when an attempt fails, for any policy, in Temporal's order: a
 * non-retryable failure stops first (its flag, its type — timeouts included — in
 * nonRetryableErrorTypes, or, under a horsies policy, its error code missing from autoRetryFor);
 * then maximumAttempts; then the delay (nextRetryDelay, else the policy's curve); then the
 * expiration interval, which stops with `Timeout` when the next attempt would start after it.
 */
export function decideRetry(policy: PolicyData, input: RetryDecisionInput): RetryDecision {
  const failure = input.failure;
  if (failure) {
    if (failure.nonRetryable === true) return { retry: false, retryState: 'NonRetryableFailure' };
    if (typeListed(policy.nonRetryableErrorTypes, failure.type)) return { retry: false, retryState: 'NonRetryableFailure' };
  }
  const codes = isCurvePolicy(policy) ? policy.autoRetryFor : undefined;
  if (codes !== undefined && !codes.includes(failure?.errorCode ?? UNHANDLED_EXCEPTION)) {
    return { retry: false, retryState: 'NonRetryableFailure' };
  }
  if (policy.maximumAttempts > 0 && input.attempt >= policy.maximumAttempts) {
    return { retry: false, retryState: 'MaximumAttemptsReached' };
  }
  const override = failure?.nextRetryDelayMs;
  const delayMs = typeof override === 'number' && override >= 0 && Number.isFinite(override)
    ? override
    : policyDelay(policy, input.attempt, input.seedKey);
  const expiration = isCurvePolicy(policy) ? undefined : policy.expirationIntervalMs;
  if (expiration !== undefined && (input.elapsedMs ?? 0) + delayMs > expiration) {
    return { retry: false, retryState: 'Timeout' };
  }
  return { retry: true, delayMs };
}
