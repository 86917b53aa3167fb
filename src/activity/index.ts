/**
 * steadfast/activity: what activity code can ask of the worker running it: `activityInfo()`,
 * `heartbeat()`, `cancellationSignal()`, `cancelled()`, `sleep()`, `log` and `Context.current()`, all bound to the current attempt through
 * AsyncLocalStorage.
 */
export {
  activityInfo, heartbeat, cancellationSignal, Context, ActivityContext, inActivityContext, runInActivityContext,
  sleep, cancelled, log, type ActivityInfo, type ActivityInfo as Info, type ActivityLogger,
} from './context.ts';
export {
  ApplicationFailure, CancelledFailure, TimeoutFailure, isCancellation, type ApplicationFailureOptions,
} from '../common/failure.ts';
