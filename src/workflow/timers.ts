import { toMs, type Duration } from '../retry/duration.ts';
import { checkMaxDuration } from '../common/max-duration.ts';
import { activator } from './activator.ts';
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
  return activator().startTimer(Math.max(1, Math.ceil(ms)));
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
