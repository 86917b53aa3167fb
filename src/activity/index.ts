/**
 * steadfast/activity: what activity code can ask of the worker running it: `activityInfo()`,
 * `heartbeat()`, `cancellationSignal()`, `cancelled()`, `sleep()`, `log` and `Context.current()`, all bound to the current attempt through
 * AsyncLocalStorage; and `CompleteAsyncError`, which leaves the attempt to be completed by a client.
 */
export {
  activityInfo, heartbeat, cancellationSignal, Context, ActivityContext, inActivityContext, runInActivityContext,
  sleep, cancelled, log, type ActivityInfo, type ActivityInfo as Info, type ActivityLogger,
} from './context.ts';
export { CompleteAsyncError } from './complete-async-error.ts';
export {
  ApplicationFailure, CancelledFailure, TimeoutFailure, isCancellation, type ApplicationFailureOptions,
} from '../common/failure.ts';
