/**
 * steadfast/activity: what activity code can ask of the worker running it: `activityInfo()`,
 * `heartbeat()` and `cancellationSignal()`, all bound to the current attempt through
 * AsyncLocalStorage.
 */
export {
  activityInfo, heartbeat, cancellationSignal, ActivityContext, inActivityContext, runInActivityContext,
  type ActivityInfo,
} from './context.ts';
export {
  ApplicationFailure, CancelledFailure, TimeoutFailure, isCancellation, type ApplicationFailureOptions,
} from '../common/failure.ts';
