/**
 * What cancelling an activity's scope does, with Temporal's names and values. Use the strings
 * or this object: `ActivityCancellationType.WAIT_CANCELLATION_COMPLETED`.
 */
export const ActivityCancellationType = Object.freeze({
  /** Reject the activity's promise at once and send the cancel request. The default. */
  TRY_CANCEL: 'TRY_CANCEL',
  /** Send the cancel request; the promise settles when the activity reports how it ended. */
  WAIT_CANCELLATION_COMPLETED: 'WAIT_CANCELLATION_COMPLETED',
  /** Reject the promise at once and send no cancel request: the activity runs on. */
  ABANDON: 'ABANDON',
} as const);

/** One of {@link ActivityCancellationType}'s values. */
export type ActivityCancellationType = (typeof ActivityCancellationType)[keyof typeof ActivityCancellationType];

/** Every cancellation type, for validation. */
export const ACTIVITY_CANCELLATION_TYPES: readonly ActivityCancellationType[] = Object.values(ActivityCancellationType);
