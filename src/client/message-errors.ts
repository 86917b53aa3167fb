import { fromFailureInfo, type FailureInfo } from '../common/failure.ts';
import type { WorkflowExecutionStatus } from '../history/events.ts';
import { brandClass, SteadfastError } from '../retry/errors.ts';

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
