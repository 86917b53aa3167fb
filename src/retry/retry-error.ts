import { SteadfastError, brandClass } from '../errors/index.ts';
import type { RetryState } from './decide.ts';

/** The rejection of `retry()`: how many attempts ran, why it stopped, and the last attempt's error. */
export class RetryError extends SteadfastError {
  /** Attempts made, the first included (0 when aborted before the first). */
  readonly attempts: number;
  /**
   * Why it stopped, in Temporal's RetryState names: `MaximumAttemptsReached`,
   * `NonRetryableFailure` (the error's flag or type, autoRetryFor, the predicate or the
   * classifier), `Timeout` (the overall `timeout`, or the expiration interval, would pass before
   * the next attempt) or `CancelRequested` (the caller's `signal` aborted).
   */
  readonly retryState: RetryState;
  /** The error of the last attempt, if one failed. Also `cause`, unless the stop had its own cause. */
  readonly lastError: unknown;
  /** Time from the first attempt's start to the stop, ms, on the run's clock. */
  readonly elapsedMs: number;
  constructor(retryState: RetryState, attempts: number, lastError: unknown, elapsedMs: number, cause?: unknown) {
    const last = lastError === undefined ? '' : `: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
    super(`${describe(retryState)} after ${attempts} attempt${attempts === 1 ? '' : 's'}${last}`, {
      cause: cause ?? lastError,
    });
    this.retryState = retryState;
    this.attempts = attempts;
    this.lastError = lastError;
    this.elapsedMs = elapsedMs;
  }
}
brandClass(RetryError, 'RetryError');

function describe(state: RetryState): string {
  switch (state) {
    case 'MaximumAttemptsReached': return 'gave up (maximum attempts reached)';
    case 'NonRetryableFailure': return 'stopped on a non-retryable error';
    case 'Timeout': return 'timed out (the timeout or expiration interval would pass before the next attempt)';
    case 'CancelRequested': return 'aborted';
    default: return `stopped (${state})`;
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
