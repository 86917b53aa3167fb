import { fromFailureInfo, type FailureInfo } from '../common/failure.ts';
import type { WorkflowExecutionStatus } from '../history/events.ts';
import { brandClass, SteadfastError } from '../errors/index.ts';

/** A query was answered with a failure: no such handler, the handler threw, or it tried to emit a command. */
export class QueryFailedError extends SteadfastError {
  constructor(
    message: string,
    readonly workflowId: string,
    readonly queryType: string,
    readonly failure: FailureInfo,
  ) {
    super(message, { cause: fromFailureInfo(failure) });
  }
}
brandClass(QueryFailedError, 'QueryFailedError');

/**
 * An update did not produce a result: its validator rejected it (nothing was written to
 * history), or its handler threw a failure. `cause` is the failure as the workflow threw it.
 */
export class WorkflowUpdateFailedError extends SteadfastError {
  constructor(
    message: string,
    readonly workflowId: string,
    readonly updateId: string,
    readonly stage: 'Rejected' | 'Completed',
    readonly failure: FailureInfo,
  ) {
    super(message, { cause: fromFailureInfo(failure) });
  }
}
brandClass(WorkflowUpdateFailedError, 'WorkflowUpdateFailedError');

/**
 * A query refused by its `queryRejectCondition` without asking a worker: the run is closed
 * (`NotOpen`) or closed otherwise than Completed (`NotCompletedCleanly`). `status` is the run's.
 */
export class QueryRejectedError extends SteadfastError {
  constructor(
    message: string,
    readonly workflowId: string,
    readonly queryType: string,
    readonly status: WorkflowExecutionStatus,
  ) {
    super(message);
  }
}
brandClass(QueryRejectedError, 'QueryRejectedError');

/**
 * The wait for an update ended before the update completed: the deadline of
 * `client.withDeadline` passed, or the signal of `client.withAbortSignal` was aborted (Temporal's
 * class of the same name). The update itself goes on: it was accepted, and its handler runs
 * once the run's workflow task succeeds; `executeUpdate` with the same `updateId` waits for it
 * again (a repeated update id answers the first one's outcome). The message says why the run
 * did not move, when its workflow task is failing.
 */
export class WorkflowUpdateRPCTimeoutOrCancelledError extends SteadfastError {
  constructor(message: string, readonly workflowId: string, readonly updateId: string, options?: { cause?: unknown }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
  }
}
brandClass(WorkflowUpdateRPCTimeoutOrCancelledError, 'WorkflowUpdateRPCTimeoutOrCancelledError');
