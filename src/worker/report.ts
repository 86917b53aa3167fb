import { ServiceError } from '../common/errors.ts';
import type { Clock } from '../retry/clock.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import { RetryError } from '../retry/retry-error.ts';
import { retry } from '../retry/retry.ts';
import type { Logger } from './logger.ts';

/**
 * Backoff between tries of a report the service could not take: 100 ms doubling to 2 s, ±20 %
 * jitter. A report's window is short (a 10 s workflow task timeout): a cap of 2 s keeps a try
 * within about 2 s of the service's return, also after two restarts in a row (a 5 s cap let a
 * report's tries straddle two back-to-back outages in the chaos test and miss its deadline).
 */
const REPORT_BACKOFF: RetryPolicyData = {
  initialIntervalMs: 100, backoffCoefficient: 2, maximumIntervalMs: 2_000, maximumAttempts: 0, nonRetryableErrorTypes: [], jitter: 0.2,
};

/**
 * How long an activity's report is retried when its task names no timeout to bound it, ms.
 * @default 60 000
 */
export const DEFAULT_REPORT_WINDOW_MS = 60_000;

/** How a report ended: taken by the service, refused by it (stale), or never delivered before its deadline. */
type ReportOutcome<T> =
  | { delivered: true; value: T }
  | { delivered: false; why: 'refused'; error: unknown }
  | { delivered: false; why: 'expired' | 'stopped' };

/** What {@link deliverReport} needs besides the call. */
interface ReportOptions {
  clock: Clock;
  logger: Logger;
  /** Names the report in log lines: `the outcome of activity charge (3)`. */
  what: string;
  meta: Record<string, unknown>;
  /** Clock time after which no try starts: the attempt's (or workflow task's) deadline, ms. */
  deadline: number;
  /** Ends the retries (the attempt finished, for heartbeats). */
  signal?: AbortSignal;
  /** Log level of a refusal. @default 'warn' */
  refusedLevel?: 'warn' | 'debug';
}

function isUnavailable(err: unknown): boolean {
  return err instanceof ServiceError && err.code === 'Unavailable';
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Sends a worker's report (an activity outcome, a heartbeat, a workflow task completion) and
 * tries again with {@link REPORT_BACKOFF} while the service is unavailable, until `deadline`:
 * after it the service has timed the attempt out and a repeat could only be refused. Any other
 * answer is a refusal (the attempt was superseded, the run closed, the token is stale): logged
 * once and dropped, never retried. Never throws.
 */
export async function deliverReport<T>(send: () => Promise<T>, o: ReportOptions): Promise<ReportOutcome<T>> {
  let warned = false;
  try {
    // The window is the policy's expiration: no try starts after the deadline, none waits past it.
    const windowMs = o.deadline - o.clock.now();
    const value = await retry(() => send(), {
      policy: windowMs > 0 ? { ...REPORT_BACKOFF, expirationIntervalMs: windowMs } : { ...REPORT_BACKOFF, maximumAttempts: 1 },
      clock: o.clock,
      ...(o.signal ? { signal: o.signal } : {}),
      retryIf: (err) => isUnavailable(err),
      onRetry: ({ error, delayMs }) => {
        if (warned) return;
        warned = true;
        o.logger.warn(`could not report ${o.what} yet (${messageOf(error)}); trying again with backoff for up to ` +
          `${Math.max(0, Math.round((o.deadline - o.clock.now()) / 1000))} s (next try in ${delayMs} ms)`, o.meta);
      },
    });
    if (warned) o.logger.info(`reported ${o.what} after the service came back`, o.meta);
    return { delivered: true, value };
  } catch (err) {
    const e = err as RetryError;
    if (!(err instanceof RetryError)) throw err;
    if (e.retryState === 'CancelRequested') return { delivered: false, why: 'stopped' };
    if (!isUnavailable(e.lastError)) {
      o.logger[o.refusedLevel ?? 'warn'](`the service refused ${o.what}; dropped: ${messageOf(e.lastError)}`, o.meta);
      return { delivered: false, why: 'refused', error: e.lastError };
    }
    o.logger.warn(`gave up reporting ${o.what} after ${e.attempts} tries: the service stayed unavailable until the ` +
      `attempt's deadline (${messageOf(e.lastError)}); the service times the attempt out and schedules it again`, o.meta);
    return { delivered: false, why: 'expired' };
  }
}
