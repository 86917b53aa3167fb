import { SteadfastError, ValidationError } from '../retry/errors.ts';
import {
  SERVICE_ERROR_CODES, ServiceError, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError,
  type ServiceErrorCode,
} from './errors.ts';

/** An error as the HTTP API sends it: `{ error: WireError }` with the code's status. */
export interface WireError {
  code: ServiceErrorCode;
  message: string;
  field?: string;
  rule?: string;
  workflowId?: string;
  workflowType?: string;
  runId?: string;
}

/** Maps any error thrown by the service to its wire form and HTTP status. */
export function toWireError(err: unknown): { status: number; error: WireError } {
  let error: WireError;
  if (err instanceof ValidationError) {
    error = { code: 'InvalidArgument', message: err.message, field: err.field, rule: err.rule };
  } else if (err instanceof WorkflowExecutionAlreadyStartedError) {
    error = {
      code: 'AlreadyStarted', message: err.message, workflowId: err.workflowId, workflowType: err.workflowType,
      ...(err.runId ? { runId: err.runId } : {}),
    };
  } else if (err instanceof WorkflowNotFoundError) {
    error = { code: 'NotFound', message: err.message, workflowId: err.workflowId, ...(err.runId ? { runId: err.runId } : {}) };
  } else if (err instanceof ServiceError) {
    error = { code: err.code, message: err.message, ...(err.field ? { field: err.field } : {}) };
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
      return error.field && error.rule
        ? new ValidationError(error.field, error.rule, undefined, error.message)
        : new ServiceError('InvalidArgument', error.message, error.field ? { field: error.field } : undefined);
    case 'AlreadyStarted':
      return new WorkflowExecutionAlreadyStartedError(error.message, error.workflowId ?? '', error.workflowType ?? '', error.runId);
    case 'NotFound':
      return error.workflowId !== undefined
        ? new WorkflowNotFoundError(error.message, error.workflowId, error.runId)
        : new ServiceError('NotFound', error.message);
    default:
      return new ServiceError(
        (error.code in SERVICE_ERROR_CODES ? error.code : 'Internal') as ServiceErrorCode, error.message,
      );
  }
}
