import { SteadfastError, brandClass } from './errors.ts';

/** Why `retry()` stopped trying. */
export type RetryStopReason =
  /** The policy's attempts (or retries) were used up. */
  | 'MaximumAttemptsReached'
  /** The error was not retryable: its flag or type, autoRetryFor, the predicate or the classifier said so. */
  | 'NonRetryable'
  /** The overall `timeout` ran out (or the next wait would end after it). */
  | 'Timeout'
  /** The caller's `signal` aborted. */
  | 'Aborted'
  /** The policy's expirationInterval (Cadence) would pass before the next attempt. */
  | 'Expired';

/** The rejection of `retry()`: how many attempts ran, why it stopped, and the last attempt's error. */
export class RetryError extends SteadfastError {
  /** Attempts made, the first included (0 when aborted before the first). */
  readonly attempts: number;
  readonly reason: RetryStopReason;
  /** The error of the last attempt, if one failed. Also `cause`, unless the stop had its own cause. */
  readonly lastError: unknown;
  /** Time from the first attempt's start to the stop, ms, on the run's clock. */
  readonly elapsedMs: number;
  constructor(reason: RetryStopReason, attempts: number, lastError: unknown, elapsedMs: number, cause?: unknown) {
    const last = lastError === undefined ? '' : `: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
    super(`${describe(reason)} after ${attempts} attempt${attempts === 1 ? '' : 's'}${last}`, {
      cause: cause ?? lastError,
    });
    this.reason = reason;
    this.attempts = attempts;
    this.lastError = lastError;
    this.elapsedMs = elapsedMs;
  }
}
brandClass(RetryError, 'RetryError');

function describe(reason: RetryStopReason): string {
  switch (reason) {
    case 'MaximumAttemptsReached': return 'gave up (maximum attempts reached)';
    case 'NonRetryable': return 'stopped on a non-retryable error';
    case 'Timeout': return 'timed out';
    case 'Aborted': return 'aborted';
    case 'Expired': return 'gave up (expiration interval passed)';
  }
}

/** An attempt ran longer than `attemptTimeout`; it counts as a failed, retryable attempt. */
export class AttemptTimeoutError extends SteadfastError {
  /** Matched by nonRetryableErrorTypes. */
  readonly type = 'AttemptTimeout';
  constructor(readonly attempt: number, readonly timeoutMs: number) {
    super(`attempt ${attempt} timed out after ${timeoutMs}ms`);
  }
}
brandClass(AttemptTimeoutError, 'AttemptTimeoutError');

/** The reason given to `signal` when the overall timeout of a retry() call runs out. */
export class RetryTimeoutError extends SteadfastError {
  readonly type = 'RetryTimeout';
  constructor(readonly timeoutMs: number) {
    super(`retry timed out after ${timeoutMs}ms`);
  }
}
brandClass(RetryTimeoutError, 'RetryTimeoutError');
