import { optionalInt } from '../../common/validate.ts';
import { brandClass, ValidationError } from '../../errors/index.ts';
import type { Logger } from './logger.ts';
import { terminateRun } from './runs.ts';
import type { TransitionBuilder } from './transition.ts';

/**
 * Per-run limits that protect the store from runaway workflows (Temporal's defaults and
 * dynamic-config names: NumPendingActivitiesLimit, NumPendingChildExecutionsLimit,
 * NumPendingSignalsLimit, NumPendingCancelRequestsLimit, the history count limits).
 */
export interface EngineLimits {
  /** Pending activities per run. @default 2000 */
  maxPendingActivities: number;
  /** Pending child workflows per run. @default 2000 */
  maxPendingChildren: number;
  /** Pending signals to external workflows per run. @default 2000 */
  maxPendingSignals: number;
  /** Pending cancel requests to external workflows per run. @default 2000 */
  maxPendingCancelRequests: number;
  /** History length (events) at which a warning is logged, and again every time it grows by this much. @default 10240 */
  historyWarnEvents: number;
  /** History length (events) past which the run is terminated. @default 51200 */
  historyMaxEvents: number;
  /**
   * History size (bytes of the events' JSON) at which a warning is logged, and again every time
   * it grows by this much. @default 10485760 (10 MiB, Temporal's HistorySizeLimitWarn)
   */
  historyWarnBytes: number;
  /** History size (bytes) past which the run is terminated. @default 52428800 (50 MiB, Temporal's HistorySizeLimitError) */
  historyMaxBytes: number;
}

/** Temporal's defaults. */
export const DEFAULT_LIMITS: Readonly<EngineLimits> = Object.freeze({
  maxPendingActivities: 2000,
  maxPendingChildren: 2000,
  maxPendingSignals: 2000,
  maxPendingCancelRequests: 2000,
  historyWarnEvents: 10_240,
  historyMaxEvents: 51_200,
  historyWarnBytes: 10 * 1024 * 1024,
  historyMaxBytes: 50 * 1024 * 1024,
});

/** Largest value a limit may be set to: counts are bounded lower than byte sizes. */
const maxOf = (key: keyof EngineLimits) => (key.endsWith('Bytes') ? 2 ** 40 : 10_000_000);

/** Fills unset limits with the defaults; each given one must be a positive integer. */
export function resolveLimits(input: Partial<EngineLimits> | undefined): EngineLimits {
  const out = { ...DEFAULT_LIMITS };
  if (input === undefined) return out;
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof EngineLimits)[]) {
    const v = optionalInt(`limits.${key}`, input[key], 1, maxOf(key));
    if (v !== undefined) out[key] = v;
  }
  for (const key of Object.keys(input)) {
    if (!(key in DEFAULT_LIMITS)) throw new ValidationError(`limits.${key}`, `is not a limit (known: ${Object.keys(DEFAULT_LIMITS).join(', ')})`, input[key as keyof EngineLimits]);
  }
  return out;
}

/**
 * A command would take a run past one of its pending limits. The workflow task fails with
 * cause LimitExceeded and the run stays open, as in Temporal.
 */
export class LimitExceededError extends ValidationError {
  constructor(field: string, readonly limit: keyof EngineLimits, readonly max: number) {
    super(field, `would exceed the limit of ${max} (${limit})`, undefined,
      `${field} would exceed the limit of ${max} ${LIMIT_WHAT[limit]} per run (engine limit ${limit})`);
  }
}

brandClass(LimitExceededError, 'LimitExceededError');

const LIMIT_WHAT: Record<keyof EngineLimits, string> = {
  maxPendingActivities: 'pending activities',
  maxPendingChildren: 'pending child workflows',
  maxPendingSignals: 'pending signals to external workflows',
  maxPendingCancelRequests: 'pending cancel requests to external workflows',
  historyWarnEvents: 'history events before a warning',
  historyMaxEvents: 'history events',
  historyWarnBytes: 'history bytes before a warning',
  historyMaxBytes: 'history bytes',
};

/** Throws when adding one more would exceed `limit`. */
export function checkPending(field: string, pending: number, limits: EngineLimits, limit: keyof EngineLimits): void {
  if (pending >= limits[limit]) throw new LimitExceededError(field, limit, limits[limit]);
}

/**
 * After a transition's events: a run whose history grew past `historyWarnEvents` or
 * `historyWarnBytes` (and each further multiple) is logged; a run past `historyMaxEvents` or
 * `historyMaxBytes` is terminated.
 */
export function enforceHistoryLimits(b: TransitionBuilder, limits: EngineLimits, logger: Logger): void {
  if (b.events.length === 0) return;
  const length = b.record.nextEventId - 1;
  const before = length - b.events.length;
  const bytes = b.state.historySizeBytes ?? 0;
  const bytesBefore = bytes - b.addedBytes;
  const run = `workflow ${b.record.workflowId} run ${b.record.runId}`;
  const fields = { workflowId: b.record.workflowId, runId: b.record.runId, historyLength: length, historySizeBytes: bytes };
  const warnEvery = limits.historyWarnEvents;
  if (Math.floor(length / warnEvery) > Math.floor(before / warnEvery)) {
    logger.warn(`${run} has ${length} history events (warning every ${warnEvery}; terminated past ${limits.historyMaxEvents}); consider continue-as-new`, fields);
  }
  const warnBytes = limits.historyWarnBytes;
  if (Math.floor(bytes / warnBytes) > Math.floor(bytesBefore / warnBytes)) {
    logger.warn(`${run} has ${bytes} bytes of history (warning every ${warnBytes}; terminated past ${limits.historyMaxBytes}); consider continue-as-new`, fields);
  }
  if (!b.closed && length > limits.historyMaxEvents) {
    terminateRun(b, `history has ${length} events, over the limit of ${limits.historyMaxEvents} (historyMaxEvents)`);
  } else if (!b.closed && bytes > limits.historyMaxBytes) {
    terminateRun(b, `history has ${bytes} bytes, over the limit of ${limits.historyMaxBytes} (historyMaxBytes)`);
  }
}
