import { ValidationError } from '../errors/index.ts';
import { toMs, type Duration } from './duration.ts';
import type { RetryPolicyData } from './policy-data.ts';
import { backoffDelay, type BackoffSchedule } from './backoff.ts';
import { mixSeed } from './random.ts';
import { checkErrorCodeData } from './error-codes.ts';

/**
 * A Temporal/Cadence retry policy as users write it. Durations are ms numbers or strings such
 * as `"1.5s"`. Every field is optional; {@link resolveRetryPolicy} fills the defaults.
 * @see Temporal "Retry Policies" and Cadence "Activity and Workflow Retries".
 */
export interface TemporalRetryPolicy {
  /** Interval before the first retry. @default 1s */
  initialInterval?: Duration;
  /** Multiplier of the interval per retry; must be >= 1. @default 2 */
  backoffCoefficient?: number;
  /** Cap on the interval; must be >= initialInterval. @default 100 × initialInterval */
  maximumInterval?: Duration;
  /** Attempts in all, the first included: 0 = unlimited, 1 = no retries, negative = error; at most {@link MAX_ATTEMPTS}. @default 0 */
  maximumAttempts?: number;
  /** Failure types (an error's `type`) that are never retried. @default [] */
  nonRetryableErrorTypes?: string[];
  /** Cadence's ExpirationInterval: no retry starts later than this after the first attempt. @default none */
  expirationInterval?: Duration;
  /** Proportional jitter in [0, 1]: 0.2 spreads each interval over ±20 %. @default 0 */
  jitter?: number;
  /** Seed of the jitter, so the same seed and attempt give the same delay. @default 0 (engine), fresh per run (retry()) */
  seed?: number;
}

/**
 * Most attempts a policy may allow (0 = unlimited aside): 2^31 − 1, as Temporal's
 * `maximum_attempts` is a 32-bit integer, so a policy steadfast keeps is one Temporal could hold.
 */
export const MAX_ATTEMPTS = 2_147_483_647;

/** The rule a maximumAttempts over {@link MAX_ATTEMPTS} breaks, as error messages word it. */
export const MAX_ATTEMPTS_RULE = "must be at most 2147483647 (Temporal's 32-bit limit; 0 = unlimited)";

/** Temporal's defaults: 1 s initial, coefficient 2, maximum 100 s, unlimited attempts. */
export const DEFAULT_RETRY_POLICY: RetryPolicyData = Object.freeze({
  initialIntervalMs: 1000,
  backoffCoefficient: 2,
  maximumIntervalMs: 100_000,
  maximumAttempts: 0,
  nonRetryableErrorTypes: Object.freeze([]) as unknown as string[],
});

const USER_KEYS = new Set([
  'initialInterval', 'backoffCoefficient', 'maximumInterval', 'maximumAttempts', 'nonRetryableErrorTypes',
  'expirationInterval', 'jitter', 'seed',
]);
const DATA_KEYS = new Set([
  'initialIntervalMs', 'backoffCoefficient', 'maximumIntervalMs', 'maximumAttempts', 'nonRetryableErrorTypes',
  'expirationIntervalMs', 'jitter', 'seed', 'errorCodes',
]);

function msField(obj: Record<string, unknown>, key: string, field: string): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (key.endsWith('Ms') && typeof value !== 'number') {
    throw new ValidationError(`${field}.${key}`, 'must be a number of milliseconds', value);
  }
  return toMs(value as Duration, `${field}.${key}`);
}

/**
 * Validates a retry policy and fills its defaults. Accepts the user form
 * ({@link TemporalRetryPolicy}) and the resolved form ({@link RetryPolicyData}, fields ending in
 * `Ms`), so wire input is re-validated with the same rules. Unknown fields are errors.
 * @param field the name errors start with, e.g. `retry.initialInterval must be ...`. @default 'retry'
 * @throws ValidationError naming the field, the rule and the value.
 */
export function resolveRetryPolicy(
  policy: TemporalRetryPolicy | RetryPolicyData | undefined | null,
  field = 'retry',
): RetryPolicyData {
  if (policy === undefined || policy === null) return { ...DEFAULT_RETRY_POLICY, nonRetryableErrorTypes: [] };
  if (typeof policy !== 'object' || Array.isArray(policy)) {
    throw new ValidationError(field, 'must be a retry policy object', policy);
  }
  const obj = policy as Record<string, unknown>;
  const isData = 'initialIntervalMs' in obj || 'maximumIntervalMs' in obj || 'expirationIntervalMs' in obj;
  const allowed = isData ? DATA_KEYS : USER_KEYS;
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) {
      const hint = isData ? 'resolved policies use initialIntervalMs, maximumIntervalMs, expirationIntervalMs'
        : 'known fields: ' + [...USER_KEYS].join(', ');
      throw new ValidationError(`${field}.${key}`, `is not a retry policy field (${hint})`, obj[key]);
    }
  }
  const initialKey = isData ? 'initialIntervalMs' : 'initialInterval';
  const maximumKey = isData ? 'maximumIntervalMs' : 'maximumInterval';
  const expirationKey = isData ? 'expirationIntervalMs' : 'expirationInterval';

  const initialIntervalMs = msField(obj, initialKey, field) ?? 1000;
  if (initialIntervalMs <= 0) throw new ValidationError(`${field}.${initialKey}`, 'must be greater than 0', obj[initialKey]);

  const coefficient = obj.backoffCoefficient ?? 2;
  if (typeof coefficient !== 'number' || !Number.isFinite(coefficient)) {
    throw new ValidationError(`${field}.backoffCoefficient`, 'must be a finite number', coefficient);
  }
  if (coefficient < 1) throw new ValidationError(`${field}.backoffCoefficient`, 'must be >= 1', coefficient);

  const maximumIntervalMs = msField(obj, maximumKey, field) ?? 100 * initialIntervalMs;
  if (maximumIntervalMs < initialIntervalMs) {
    throw new ValidationError(`${field}.${maximumKey}`, `must be >= ${initialKey} (${initialIntervalMs}ms)`, obj[maximumKey]);
  }

  const maximumAttempts = obj.maximumAttempts ?? 0;
  if (typeof maximumAttempts !== 'number' || !Number.isInteger(maximumAttempts)) {
    throw new ValidationError(`${field}.maximumAttempts`, 'must be an integer', maximumAttempts);
  }
  if (maximumAttempts < 0) {
    throw new ValidationError(`${field}.maximumAttempts`, 'must be >= 0 (0 = unlimited, 1 = no retries)', maximumAttempts);
  }
  if (maximumAttempts > MAX_ATTEMPTS) throw new ValidationError(`${field}.maximumAttempts`, MAX_ATTEMPTS_RULE, maximumAttempts);

  const types = obj.nonRetryableErrorTypes ?? [];
  if (!Array.isArray(types)) throw new ValidationError(`${field}.nonRetryableErrorTypes`, 'must be an array of strings', types);
  types.forEach((t, i) => {
    if (typeof t !== 'string' || t.length === 0) {
      throw new ValidationError(`${field}.nonRetryableErrorTypes[${i}]`, 'must be a non-empty string', t);
    }
  });

  const out: RetryPolicyData = {
    initialIntervalMs,
    backoffCoefficient: coefficient,
    maximumIntervalMs,
    maximumAttempts,
    nonRetryableErrorTypes: [...(types as string[])],
  };
  const expirationIntervalMs = msField(obj, expirationKey, field);
  if (expirationIntervalMs !== undefined) {
    if (expirationIntervalMs <= 0) {
      throw new ValidationError(`${field}.${expirationKey}`, 'must be greater than 0', obj[expirationKey]);
    }
    out.expirationIntervalMs = expirationIntervalMs;
  }
  const jitter = obj.jitter;
  if (jitter !== undefined && jitter !== null) {
    if (typeof jitter !== 'number' || !(jitter >= 0 && jitter <= 1)) {
      throw new ValidationError(`${field}.jitter`, 'must be a fraction between 0 and 1', jitter);
    }
    if (jitter > 0) out.jitter = jitter;
  }
  const seed = obj.seed;
  if (seed !== undefined && seed !== null) {
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
      throw new ValidationError(`${field}.seed`, 'must be an integer', seed);
    }
    out.seed = seed;
  }
  if (obj.errorCodes !== undefined && obj.errorCodes !== null) out.errorCodes = checkErrorCodeData(`${field}.errorCodes`, obj.errorCodes);
  return out;
}

/** The {@link BackoffSchedule} of a resolved Temporal policy. */
export function temporalSchedule(policy: RetryPolicyData): BackoffSchedule {
  return {
    source: 'temporal',
    curve: { kind: 'exponential', initialMs: policy.initialIntervalMs, factor: policy.backoffCoefficient },
    maxRetries: policy.maximumAttempts === 0 ? Infinity : policy.maximumAttempts - 1,
    jitter: policy.jitter ?? 0,
    capMs: policy.maximumIntervalMs,
    fastFirst: false,
    ...(policy.seed !== undefined ? { seed: policy.seed } : {}),
  };
}

/**
 * Delay, ms, before the attempt that follows failed attempt `attempt` (1-based: attempt 1 failed
 * → the first retry interval = initialInterval): `min(initial × coefficient^(attempt−1), maximum)`,
 * spread by the policy's jitter. A pure function of (policy, attempt, seedKey): `seedKey` (e.g.
 * an activity id) is mixed into `policy.seed` (default 0) so activities with one seed differ
 * while every server computes the same value.
 */
export function retryInterval(policy: RetryPolicyData, attempt: number, seedKey?: string): number {
  if (!policy.jitter) {
    const ms = policy.initialIntervalMs * Math.pow(policy.backoffCoefficient, attempt - 1);
    return Math.floor(ms < policy.maximumIntervalMs ? ms : policy.maximumIntervalMs);
  }
  return backoffDelay(temporalSchedule(policy), attempt, mixSeed(policy.seed ?? 0, seedKey));
}
