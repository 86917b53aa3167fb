import type { WorkflowTaskFailedCause } from './events.ts';

/**
 * A failed workflow task attempt: a bug in workflow code (a thrown non-failure error), a
 * command the server refused (bad options, a result over the payload limit), non-determinism,
 * or no answer in time.
 * The run stays Running and the task is retried, as in Temporal; this is how a caller sees why.
 */
export interface WorkflowTaskFailureInfo {
  /** The WorkflowTaskFailed cause, or `TimedOut` when no answer came within the workflow task timeout. */
  cause: WorkflowTaskFailedCause | 'TimedOut';
  message: string;
  /** The error's type (`ApplicationFailure.type` or the class name), when it has one. */
  type?: string;
  /** The stack's first lines: the message line and up to five frames. */
  stack?: string;
  /** The attempt that failed. */
  attempt: number;
  failedTime: string;
  /** The worker that reported it, sent the refused commands, or (TimedOut) had taken the task. */
  identity: string;
}
