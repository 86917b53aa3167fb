import { ValidationError } from '../errors/index.ts';
import type { CurvePolicyData, PolicyData, RetryPolicyData } from './policy-data.ts';
import { backoffDelay, type BackoffCurve, type BackoffSchedule, type BackoffSource } from './backoff.ts';
import { checkSchedule } from './schedule-check.ts';
import { MAX_ATTEMPTS, MAX_ATTEMPTS_RULE, resolveRetryPolicy, retryInterval, temporalSchedule, type TemporalRetryPolicy } from './temporal.ts';
import { checkErrorCodeData, requireErrorCodes } from './error-codes.ts';
import { formatMs } from './duration.ts';
import { mixSeed } from './random.ts';

/**
 * Any policy of `steadfast/retry`: Temporal/Cadence fields (as users write them or resolved),
 * a schedule built by `RetryPolicy.*` (horsies) or `Backoff.*` (Polly), or such a schedule as data.
 */
export type RetryPolicyInput = TemporalRetryPolicy | RetryPolicyData | BackoffSchedule | CurvePolicyData;

const SOURCES: readonly BackoffSource[] = ['temporal', 'horsies', 'polly'];
const CURVE_KEYS = new Set([
  'version', 'source', 'curve', 'maximumAttempts', 'jitter', 'capMs', 'fastFirst', 'seed', 'nonRetryableErrorTypes', 'autoRetryFor', 'errorCodes',
]);

/** True for a curve policy in its data form (as opposed to Temporal's fields). */
export function isCurvePolicy(policy: PolicyData): policy is CurvePolicyData {
  return 'curve' in policy;
}

function stringList(field: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ValidationError(field, 'must be an array of strings', value);
  value.forEach((t, i) => {
    if (typeof t !== 'string' || t.length === 0) throw new ValidationError(`${field}[${i}]`, 'must be a non-empty string', t);
  });
  return [...(value as string[])];
}

/** The data form of a schedule (JSON-safe: unlimited retries are 0 attempts, no cap is no `capMs`). */
function fromSchedule(s: BackoffSchedule, field: string): CurvePolicyData {
  checkSchedule(s, field);
  return {
    version: 1, source: s.source, curve: s.curve,
    maximumAttempts: Number.isFinite(s.maxRetries) ? s.maxRetries + 1 : 0,
    jitter: s.jitter, fastFirst: s.fastFirst, nonRetryableErrorTypes: [],
    ...(Number.isFinite(s.capMs) ? { capMs: s.capMs } : {}),
    ...(s.seed !== undefined ? { seed: s.seed } : {}),
    ...(s.autoRetryFor !== undefined ? { autoRetryFor: [...s.autoRetryFor] } : {}),
  };
}

/** The schedule a policy's delays are computed from. */
export function scheduleOf(policy: PolicyData): BackoffSchedule {
  if (!isCurvePolicy(policy)) return temporalSchedule(policy);
  return {
    source: policy.source, curve: policy.curve,
    maxRetries: policy.maximumAttempts === 0 ? Infinity : policy.maximumAttempts - 1,
    jitter: policy.jitter, capMs: policy.capMs ?? Infinity, fastFirst: policy.fastFirst,
    ...(policy.seed !== undefined ? { seed: policy.seed } : {}),
    ...(policy.autoRetryFor !== undefined ? { autoRetryFor: policy.autoRetryFor } : {}),
  };
}

/** Validates a curve policy in its data form (from the wire or a history event). */
function checkCurveData(obj: Record<string, unknown>, field: string): CurvePolicyData {
  for (const key of Object.keys(obj)) {
    if (!CURVE_KEYS.has(key)) {
      throw new ValidationError(`${field}.${key}`, `is not a field of a curve policy (known: ${[...CURVE_KEYS].join(', ')})`, obj[key]);
    }
  }
  if (obj.version !== 1) throw new ValidationError(`${field}.version`, 'must be 1', obj.version);
  if (!SOURCES.includes(obj.source as BackoffSource)) throw new ValidationError(`${field}.source`, `must be one of ${SOURCES.join(', ')}`, obj.source);
  const attempts = obj.maximumAttempts;
  if (typeof attempts !== 'number' || !Number.isInteger(attempts) || attempts < 0) {
    throw new ValidationError(`${field}.maximumAttempts`, 'must be an integer >= 0 (0 = unlimited)', attempts);
  }
  if (attempts > MAX_ATTEMPTS) throw new ValidationError(`${field}.maximumAttempts`, MAX_ATTEMPTS_RULE, attempts);
  if (typeof obj.fastFirst !== 'boolean') throw new ValidationError(`${field}.fastFirst`, 'must be true or false', obj.fastFirst);
  if (obj.capMs !== undefined && (typeof obj.capMs !== 'number' || !Number.isFinite(obj.capMs))) {
    throw new ValidationError(`${field}.capMs`, 'must be a finite number of milliseconds (leave it out for no cap)', obj.capMs);
  }
  const data: CurvePolicyData = {
    version: 1, source: obj.source as BackoffSource, curve: obj.curve as BackoffCurve, maximumAttempts: attempts,
    jitter: obj.jitter as number, fastFirst: obj.fastFirst,
    nonRetryableErrorTypes: stringList(`${field}.nonRetryableErrorTypes`, obj.nonRetryableErrorTypes),
    ...(obj.capMs !== undefined ? { capMs: obj.capMs } : {}),
    ...(obj.seed !== undefined ? { seed: obj.seed as number } : {}),
    ...(obj.autoRetryFor !== undefined ? { autoRetryFor: [...requireErrorCodes(`${field}.autoRetryFor`, obj.autoRetryFor)] } : {}),
    ...(obj.errorCodes !== undefined && obj.errorCodes !== null ? { errorCodes: checkErrorCodeData(`${field}.errorCodes`, obj.errorCodes) } : {}),
  };
  checkSchedule(scheduleOf(data), field);
  return data;
}

/**
 * Validates any {@link RetryPolicyInput} and resolves it to data that travels in commands and
 * history events: Temporal's fields stay {@link RetryPolicyData} (defaults filled); a horsies or
 * Polly schedule, or its data form, becomes {@link CurvePolicyData}.
 * @param field the name errors start with. @default 'retry'
 * @throws ValidationError naming the field, the rule and the value.
 */
export function resolvePolicyData(policy: RetryPolicyInput | undefined | null, field = 'retry'): PolicyData {
  if (typeof policy === 'object' && policy !== null && !Array.isArray(policy) && 'curve' in policy) {
    if ('version' in policy) return checkCurveData(policy as unknown as Record<string, unknown>, field);
    return fromSchedule(policy as BackoffSchedule, field);
  }
  return resolveRetryPolicy(policy as TemporalRetryPolicy | RetryPolicyData | undefined | null, field);
}

/**
 * Delay, ms, before the attempt after failed attempt `attempt` (1-based), for any policy: a pure
 * function of (policy, attempt, seedKey). `seedKey` (the engine passes run id + activity id) is
 * mixed into the policy's seed (default 0), so every server computes the same delay while two
 * activities under one policy draw differently.
 */
export function policyDelay(policy: PolicyData, attempt: number, seedKey?: string): number {
  if (!isCurvePolicy(policy)) return retryInterval(policy, attempt, seedKey);
  return backoffDelay(scheduleOf(policy), attempt, mixSeed(policy.seed ?? 0, seedKey));
}

/** Which backoff curve a policy follows, as describe shows it. */
export interface BackoffInfo {
  /** Whose semantics: `temporal`, `horsies` or `polly`. */
  source: BackoffSource;
  /** The curve and its parameters (ms). */
  curve: BackoffCurve;
  /** Proportional jitter in [0, 1]. */
  jitter: number;
  /** Upper bound on every delay, ms; absent = none. */
  capMs?: number;
  /** The first retry happens at once (Polly's fastFirst). */
  fastFirst: boolean;
  /** horsies' autoRetryFor, when the policy has one. */
  autoRetryFor?: string[];
  /** One line for people, e.g. `polly decorrelated jitter V2, median 1s`. */
  summary: string;
}

function curveText(c: BackoffCurve): string {
  switch (c.kind) {
    case 'exponential':
      return `exponential, initial ${formatMs(c.initialMs)} × ${c.factor}^(n−1)`;
    case 'linear':
      return `linear, initial ${formatMs(c.initialMs)} × (1 + ${c.factor} × (n−1))`;
    case 'constant':
      return `constant ${formatMs(c.delayMs)}`;
    case 'fixed':
      return `fixed ${c.intervalsMs.map(formatMs).join(', ')}`;
    case 'decorrelated-jitter':
      return `decorrelated jitter V2, median ${formatMs(c.medianFirstRetryDelayMs)}`;
    case 'aws-jitter':
      return `AWS decorrelated jitter, ${formatMs(c.minMs)}..${formatMs(c.maxMs)}`;
  }
}

/** The curve in force for a policy, with a one-line summary. */
export function backoffInfo(policy: PolicyData): BackoffInfo {
  const s = scheduleOf(policy);
  const parts = [`${s.source} ${curveText(s.curve)}`];
  if (Number.isFinite(s.capMs)) parts.push(`at most ${formatMs(s.capMs)}`);
  if (s.jitter > 0) parts.push(`jitter ±${Math.round(s.jitter * 1000) / 10}%`);
  if (s.fastFirst) parts.push('first retry at once');
  if (s.autoRetryFor) parts.push(`retries only ${s.autoRetryFor.length > 0 ? s.autoRetryFor.join(', ') : '(no codes)'}`);
  return {
    source: s.source, curve: s.curve, jitter: s.jitter, fastFirst: s.fastFirst,
    ...(Number.isFinite(s.capMs) ? { capMs: s.capMs } : {}),
    ...(s.autoRetryFor ? { autoRetryFor: [...s.autoRetryFor] } : {}),
    summary: parts.join(', '),
  };
}
