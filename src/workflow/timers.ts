import { toMs, type Duration } from '../retry/duration.ts';
import { checkMaxDuration } from '../common/max-duration.ts';
import { activator } from './activator.ts';
import { outbound, type TimerOptions } from './interceptors.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { optionalRecord } from '../common/validate.ts';
import { userMetadataOf, type UserMetadata } from '../history/user-metadata.ts';

const TIMER_OPTION_KEYS = optionKeys<TimerOptions>({ summary: true });

/** A timer's options checked (`kind` names them in errors), as the StartTimer command's user metadata. */
function timerMetadata(kind: string, options: TimerOptions | undefined): UserMetadata | undefined {
  if (optionalRecord(`${kind} options`, options) === undefined) return undefined;
  refuseUnknownKeys(kind, options!, TIMER_OPTION_KEYS);
  return userMetadataOf({ field: 'summary', value: options!.summary });
}
import { CancellationScope } from './cancellation-scope.ts';

/**
 * Waits for `duration` of workflow time with a durable timer (StartTimer → TimerStarted, then
 * TimerFired). Cancelling the current scope cancels the timer and rejects with a
 * CancelledFailure. Durations under 1 ms are raised to 1 ms.
 * @param duration milliseconds or a string such as "30s", "5m", "30d"; at most 100 years.
 * @param options `summary`: a one-line summary of the timer, shown by the web UI (Temporal's `TimerOptions`).
 * @throws ValidationError for a malformed duration or one over 100 years, or a summary that is not a string.
 */
export function sleep(duration: Duration, options?: TimerOptions): Promise<void> {
  const ms = checkMaxDuration('sleep duration', toMs(duration, 'sleep duration'), duration);
  timerMetadata('sleep', options);
  const a = activator();
  const start = outbound(a.interceptors, 'startTimer', (input) => a.startTimer(input.durationMs, timerMetadata('sleep', input.options)));
  return start({ durationMs: Math.max(1, Math.ceil(ms)), seq: a.nextSeq('timer'), ...(options !== undefined ? { options } : {}) });
}

/** Waits until `fn()` returns true. `fn` is re-checked after every activation. */
export function condition(fn: () => boolean): Promise<void>;
/**
 * Waits until `fn()` returns true or `timeout` passes (a durable timer).
 * @returns true when the condition was met, false when the timeout passed first.
 */
export function condition(fn: () => boolean, timeout: Duration, options?: TimerOptions): Promise<boolean>;
export function condition(fn: () => boolean, timeout?: Duration, options?: TimerOptions): Promise<void | boolean> {
  if (typeof fn !== 'function') throw new TypeError(`condition fn must be a function, got ${typeof fn}`);
  if (timeout === undefined) return activator().waitForCondition(fn);
  const ms = checkMaxDuration('condition timeout', toMs(timeout, 'condition timeout'), timeout);
  if (fn()) return Promise.resolve(true);
  return CancellationScope.cancellable(async () => {
    try {
      return await Promise.race([
        sleep(ms, options).then(() => false),
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
