import { brandClass, SteadfastError } from '../errors/index.ts';

/**
 * Thrown by an activity to leave its attempt open, as Temporal's `CompleteAsyncError`: the worker
 * reports nothing and frees the slot, and the attempt is completed later from anywhere by
 * `client.activity.complete()` (or `fail`, `reportCancellation`, `heartbeat`), given the
 * attempt's `activityInfo().taskToken` or the activity's `{ workflowId, runId, activityId }`.
 * The attempt's timeouts still run: one never completed times out and is retried by its policy.
 */
export class CompleteAsyncError extends SteadfastError {
  constructor() {
    super('the activity will be completed asynchronously');
  }
}
brandClass(CompleteAsyncError, 'CompleteAsyncError');
