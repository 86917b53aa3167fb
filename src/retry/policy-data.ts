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
}
