import { toMs, type Duration } from '../retry/duration.ts';
import { checkMaxDuration } from '../common/max-duration.ts';
import { activator } from './activator.ts';
import { outbound } from './interceptors.ts';
import { CancellationScope } from './cancellation-scope.ts';

/**
 * Waits for `duration` of workflow time with a durable timer (StartTimer → TimerStarted, then
 * TimerFired). Cancelling the current scope cancels the timer and rejects with a
 * CancelledFailure. Durations under 1 ms are raised to 1 ms.
 * @param duration milliseconds or a string such as "30s", "5m", "30d"; at most 100 years.
 * @throws ValidationError for a malformed duration or one over 100 years.
 */
export function sleep(duration: Duration): Promise<void> {
  const ms = checkMaxDuration('sleep duration', toMs(duration, 'sleep duration'), duration);
  const a = activator();
  const start = outbound(a.interceptors, 'startTimer', (input) => a.startTimer(input.durationMs));
  return start({ durationMs: Math.max(1, Math.ceil(ms)), seq: a.nextSeq('timer') });
}

/** Waits until `fn()` returns true. `fn` is re-checked after every activation. */
export function condition(fn: () => boolean): Promise<void>;
/**
 * Waits until `fn()` returns true or `timeout` passes (a durable timer).
 * @returns true when the condition was met, false when the timeout passed first.
 */
export function condition(fn: () => boolean, timeout: Duration): Promise<boolean>;
export function condition(fn: () => boolean, timeout?: Duration): Promise<void | boolean> {
  if (typeof fn !== 'function') throw new TypeError(`condition fn must be a function, got ${typeof fn}`);
  if (timeout === undefined) return activator().waitForCondition(fn);
  const ms = checkMaxDuration('condition timeout', toMs(timeout, 'condition timeout'), timeout);
  if (fn()) return Promise.resolve(true);
  return CancellationScope.cancellable(async () => {
    try {
      return await Promise.race([
        sleep(ms).then(() => false),
        activator().waitForCondition(fn).then(() => true),
      ]);
    } finally {
      CancellationScope.current().cancel();
    }
  });
}

/**
 * `setTimeout` in workflow code, as in Temporal's sandbox: a durable timer (StartTimer) in a
 * cancellable scope of its own under the current one, which calls `callback(...args)` when it
 * fires. Cancelling the enclosing scope, or `clearTimeout(handle)`, cancels the timer and the
 * callback never runs. A delay under 1 ms (or not a number) is 1 ms.
 * @returns the handle for `clearTimeout`: 1, 2, … per run, the same on every replay.
 */
export function workflowSetTimeout(callback: (...args: unknown[]) => unknown, ms?: number, ...args: unknown[]): number {
  if (typeof callback !== 'function') throw new TypeError(`setTimeout callback must be a function, got ${typeof callback}`);
  const a = activator();
  const delay = Number(ms);
  const wait = Number.isFinite(delay) && delay >= 1 ? Math.ceil(delay) : 1;
  const handle = ++a.timeouts.seq;
  const scope = new CancellationScope({ cancellable: true });
  a.timeouts.scopes.set(handle, scope);
  scope.run(() => sleep(wait)).then(() => {
    a.timeouts.scopes.delete(handle);
    callback(...args);
  }, () => {
    a.timeouts.scopes.delete(handle);
  });
  return handle;
}

/** `clearTimeout` in workflow code: cancels the timer of a pending `setTimeout` (CancelTimer, or no command if it was not sent yet). */
export function workflowClearTimeout(handle?: unknown): void {
  const a = activator();
  const scope = typeof handle === 'number' ? a.timeouts.scopes.get(handle) : undefined;
  if (!scope) return;
  a.timeouts.scopes.delete(handle as number);
  scope.cancel('clearTimeout');
}
