import { SteadfastError, ValidationError } from '../errors/index.ts';
import {
  NamespaceAlreadyExistsError, NamespaceNotFoundError, SERVICE_ERROR_CODE_NAMES, ServiceError, WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError, type ServiceErrorCode,
} from '../common/errors.ts';
import { SERVICE_ERROR_CODES } from './error-codes.ts';

/** A code this version does not know reads as Internal. */
function knownCode(code: string): ServiceErrorCode {
  return (SERVICE_ERROR_CODE_NAMES as readonly string[]).includes(code) ? code as ServiceErrorCode : 'Internal';
}

/** An error as the HTTP API sends it: `{ error: WireError }` with the code's status. */
export interface WireError {
  /** The condition; its HTTP status is SERVICE_ERROR_CODES[code]. */
  code: ServiceErrorCode;
  /** For InvalidArgument: names the field, the rule and the value. */
  message: string;
  /** For InvalidArgument: the offending field's path (`retryPolicy.maximumAttempts`, `commands[2].attributes.taskQueue`). */
  field?: string;
  /** For InvalidArgument: the rule the value broke (`must be >= 0`). */
  rule?: string;
  /** For AlreadyStarted and NotFound: the workflow concerned. */
  workflowId?: string;
  /** For NotFound and AlreadyExists of a namespace: its name. */
  namespace?: string;
  /** For AlreadyStarted: the workflow type of the start that was refused. */
  workflowType?: string;
  /** For AlreadyStarted and NotFound: the run concerned, when there is one. */
  runId?: string;
  /** For Internal (500): the id under which the server logged the detail; the message says nothing else. */
  errorId?: string;
  /** For ResourceExhausted: how long to wait before trying again, ms (also the `Retry-After` header, in seconds). */
  retryAfterMs?: number;
  /** For a visibility query that cannot run: the query and the 1-based column of the offending text. */
  query?: string;
  /** See `query`. */
  column?: number;
}

/** The query and column a visibility query error carries (duck-typed: that class lives in a later layer). */
function queryPosition(err: object): { query?: string; column?: number } {
  const { query, column } = err as { query?: unknown; column?: unknown };
  return typeof query === 'string' && typeof column === 'number' ? { query, column } : {};
}

/** Maps any error thrown by the service to its wire form and HTTP status. */
export function toWireError(err: unknown): { status: number; error: WireError } {
  let error: WireError;
  if (err instanceof ValidationError) {
    error = { code: 'InvalidArgument', message: err.message, field: err.field, rule: err.rule, ...queryPosition(err) };
  } else if (err instanceof WorkflowExecutionAlreadyStartedError) {
    error = {
      code: 'AlreadyStarted', message: err.message, workflowId: err.workflowId, workflowType: err.workflowType,
      ...(err.runId ? { runId: err.runId } : {}),
    };
  } else if (err instanceof WorkflowNotFoundError) {
    error = { code: 'NotFound', message: err.message, workflowId: err.workflowId, ...(err.runId ? { runId: err.runId } : {}) };
  } else if (err instanceof NamespaceNotFoundError || err instanceof NamespaceAlreadyExistsError) {
    error = { code: err.code, message: err.message, namespace: err.namespace };
  } else if (err instanceof ServiceError) {
    error = {
      code: err.code, message: err.message, ...(err.field ? { field: err.field } : {}),
      ...(err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}),
    };
  } else if (err instanceof SteadfastError) {
    error = { code: 'InvalidArgument', message: err.message };
  } else {
    error = { code: 'Internal', message: err instanceof Error ? err.message : String(err) };
  }
  return { status: SERVICE_ERROR_CODES[error.code], error };
}

/** Rebuilds the error class a caller would have seen in-process. */
export function fromWireError(error: WireError): SteadfastError {
  switch (error.code) {
    case 'InvalidArgument':
      // A query error keeps its query and column, so a caller can point at the column.
      return error.field && error.rule
        ? Object.assign(new ValidationError(error.field, error.rule, undefined, error.message), queryPosition(error))
        : new ServiceError('InvalidArgument', error.message, error.field ? { field: error.field } : undefined);
    case 'AlreadyStarted':
      return new WorkflowExecutionAlreadyStartedError(error.message, error.workflowId ?? '', error.workflowType ?? '', error.runId);
    case 'NotFound':
      if (error.workflowId !== undefined) return new WorkflowNotFoundError(error.message, error.workflowId, error.runId);
      return error.namespace !== undefined ? new NamespaceNotFoundError(error.namespace, error.message) : new ServiceError('NotFound', error.message);
    case 'AlreadyExists':
      return error.namespace !== undefined ? new NamespaceAlreadyExistsError(error.namespace) : new ServiceError('AlreadyExists', error.message);
    default:
      return new ServiceError(
        knownCode(error.code), error.message,
        typeof error.retryAfterMs === 'number' && error.retryAfterMs >= 0 ? { retryAfterMs: error.retryAfterMs } : undefined,
      );
  }
}
