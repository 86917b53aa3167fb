import { ValidationError } from '../errors/index.ts';
import type { PolicyData } from '../retry/policy-data.ts';

/**
 * Longest duration steadfast accepts anywhere (start timeouts, timers, `sleep`, `condition`
 * timeouts, activity and child timeouts, retry intervals), ms: 100 years. Every deadline is
 * then a safe integer that SQL BIGINT holds, on both stores.
 */
export const MAX_DURATION_MS = 100 * 365 * 86_400_000;

/** The rule a duration over {@link MAX_DURATION_MS} breaks, as error messages word it. */
export const MAX_DURATION_RULE = `must be at most 100 years (${MAX_DURATION_MS} ms)`;

/**
 * Checks that `ms` is within {@link MAX_DURATION_MS}.
 * @param given the value as the caller wrote it (`"200y"`, `1e20`), for the message.
 * @throws ValidationError naming the field and the maximum.
 */
export function checkMaxDuration(field: string, ms: number, given: unknown = ms): number {
  if (ms > MAX_DURATION_MS) throw new ValidationError(field, MAX_DURATION_RULE, given);
  return ms;
}

/**
 * A computed retry delay (a curve without a ceiling, an error's `nextRetryDelay`) held to
 * {@link MAX_DURATION_MS}, so every due time stays a BIGINT on both stores.
 */
export function capDelay(ms: number): number {
  return Math.min(ms, MAX_DURATION_MS);
}

/**
 * Checks a resolved retry policy's intervals against {@link MAX_DURATION_MS}: Temporal's
 * intervals, or a curve's ceiling (its computed delays are held by {@link capDelay}).
 * @param names `user` for the option names (`retry.initialInterval`), `wire` for the resolved
 *   form's (`retryPolicy.initialIntervalMs`).
 */
export function checkPolicyDurations<P extends PolicyData>(field: string, policy: P, names: 'user' | 'wire'): P {
  const suffix = names === 'wire' ? 'Ms' : '';
  if ('curve' in policy) {
    if (policy.capMs !== undefined) checkMaxDuration(`${field}.capMs`, policy.capMs);
    return policy;
  }
  checkMaxDuration(`${field}.initialInterval${suffix}`, policy.initialIntervalMs);
  if (policy.maximumIntervalMs > MAX_DURATION_MS) {
    throw new ValidationError(`${field}.maximumInterval${suffix}`, `${MAX_DURATION_RULE} (when not given it is 100 × initialInterval)`,
      policy.maximumIntervalMs);
  }
  if (policy.expirationIntervalMs !== undefined) checkMaxDuration(`${field}.expirationInterval${suffix}`, policy.expirationIntervalMs);
  return policy;
}
