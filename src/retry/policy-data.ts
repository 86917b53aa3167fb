import type { BackoffCurve, BackoffSource } from './backoff.ts';
import type { ErrorCodeData } from './error-codes.ts';

/**
 * A Temporal/Cadence-style retry policy with every field resolved to plain numbers
 * (milliseconds). This is the form stored in history events and sent over the wire; the
 * engine, the retry library and the simulator compute intervals from it with one function.
 */
export interface RetryPolicyData {
  /** Interval before the first retry, ms. */
  initialIntervalMs: number;
  /** Multiplier applied per retry; >= 1. */
  backoffCoefficient: number;
  /** Cap on the interval, ms; >= initialIntervalMs. */
  maximumIntervalMs: number;
  /** Attempts in all, the first included; 0 = unlimited, 1 = no retries. */
  maximumAttempts: number;
  /** Failure types (`ApplicationFailure.type`) that are never retried. */
  nonRetryableErrorTypes: string[];
  /** Cadence's ExpirationInterval: no retry starts after this long since the first attempt, ms. */
  expirationIntervalMs?: number;
  /** Proportional jitter in [0, 1): each interval is spread by ±jitter × interval. @default 0 */
  jitter?: number;
  /** Seed for the jitter's generator, so the same seed and attempt give the same delay. */
  seed?: number;
  /**
   * An activity's own exception mapper and default error code (horsies' per-task level), set by
   * `proxyActivities`' `exceptionMapper` and `defaultUnhandledErrorCode`; the worker that runs the
   * activity resolves a failure's code with them.
   */
  errorCodes?: ErrorCodeData;
}

/**
 * Any other backoff (a horsies policy, a Polly curve) as JSON data: a `BackoffSchedule` with
 * its unbounded values spelled the JSON way. Told apart from {@link RetryPolicyData} by `curve`.
 * Version 1; a later shape gets a new version number and a reader for the old one.
 */
export interface CurvePolicyData {
  version: 1;
  /** Whose semantics: `horsies` or `polly` (or `temporal` for a hand-made schedule). */
  source: BackoffSource;
  /** The delay curve, as `backoffDelay` reads it. */
  curve: BackoffCurve;
  /** Attempts in all, the first included; 0 = unlimited. */
  maximumAttempts: number;
  /** Proportional jitter in [0, 1]. */
  jitter: number;
  /** Upper bound on every delay, ms; absent = none. */
  capMs?: number;
  /** Polly's fastFirst: the first retry happens at once. */
  fastFirst: boolean;
  /** Mixed with the run and activity ids into the seed of the random draws. @default 0 */
  seed?: number;
  /** Failure types never retried (timeouts included: `StartToCloseTimeout`, …). */
  nonRetryableErrorTypes: string[];
  /** horsies' autoRetryFor: when present, only failures whose error code is listed are retried. */
  autoRetryFor?: string[];
  /** An activity's own exception mapper and default error code; see {@link RetryPolicyData.errorCodes}. */
  errorCodes?: ErrorCodeData;
}

/** An activity's retry policy as data: Temporal's fields, or any other curve of `steadfast/retry`. */
export type PolicyData = RetryPolicyData | CurvePolicyData;
