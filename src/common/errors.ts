import { brandClass, SteadfastError } from '../errors/index.ts';
import type { FailureInfo } from './failure.ts';

/**
 * The conditions the service reports to callers, by name. Each maps to one HTTP status
 * (protocol/error-codes.ts, where each is described) and back to the same class in the client.
 */
export const SERVICE_ERROR_CODE_NAMES = [
  'InvalidArgument', 'NotFound', 'AlreadyStarted', 'AlreadyExists', 'FailedPrecondition', 'Unauthenticated', 'PermissionDenied',
  'ResourceExhausted', 'Unavailable', 'Internal',
] as const;

/** One of {@link SERVICE_ERROR_CODE_NAMES}. */
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODE_NAMES)[number];

/** An error answered by the service, with a code a caller can branch on. */
export class ServiceError extends SteadfastError {
  readonly code: ServiceErrorCode;
  /** Dotted path of the offending field, for InvalidArgument. */
  readonly field?: string;
  /** For ResourceExhausted: how long to wait before trying again, ms. */
  readonly retryAfterMs?: number;
  constructor(code: ServiceErrorCode, message: string, options?: { field?: string; cause?: unknown; retryAfterMs?: number }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.code = code;
    if (options?.field) this.field = options.field;
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}
brandClass(ServiceError, 'ServiceError');

/**
 * The wait a ResourceExhausted answer asks for (a namespace over its rate or long-poll limit),
 * ms, or undefined for any other error. Clients and workers retry after it.
 */
export function throttledFor(err: unknown): number | undefined {
  return err instanceof ServiceError && err.code === 'ResourceExhausted' && err.retryAfterMs !== undefined ? err.retryAfterMs : undefined;
}

/** Starting a workflow whose id is open, or whose reuse policy forbids another run. */
export class WorkflowExecutionAlreadyStartedError extends ServiceError {
  constructor(
    message: string,
    readonly workflowId: string,
    readonly workflowType: string,
    readonly runId?: string,
  ) {
    super('AlreadyStarted', message);
  }
}
brandClass(WorkflowExecutionAlreadyStartedError, 'WorkflowExecutionAlreadyStartedError');

/** No execution with this id (and run id, when given). */
export class WorkflowNotFoundError extends ServiceError {
  constructor(
    message: string,
    readonly workflowId: string,
    readonly runId?: string,
  ) {
    super('NotFound', message);
  }
}
brandClass(WorkflowNotFoundError, 'WorkflowNotFoundError');

/**
 * A call named a namespace that is not registered (`steadfast namespace create` registers one),
 * or asked about one.
 */
export class NamespaceNotFoundError extends ServiceError {
  constructor(readonly namespace: string, message = namespaceNotRegistered(namespace)) {
    super('NotFound', message);
  }
}
brandClass(NamespaceNotFoundError, 'NamespaceNotFoundError');

/** The message of {@link NamespaceNotFoundError}: what is wrong and the command that fixes it. */
export function namespaceNotRegistered(namespace: string): string {
  return `namespace "${namespace}" is not registered; create it with steadfast namespace create --name ${namespace}`;
}

/** Registering a namespace whose name is taken. */
export class NamespaceAlreadyExistsError extends ServiceError {
  constructor(readonly namespace: string) {
    super('AlreadyExists', `namespace "${namespace}" is registered already`);
  }
}
brandClass(NamespaceAlreadyExistsError, 'NamespaceAlreadyExistsError');

/** The workflow's last run closed without completing: failed, timed out, canceled or terminated. */
export class WorkflowFailedError extends SteadfastError {
  constructor(
    message: string,
    readonly status: string,
    readonly workflowId: string,
    readonly runId: string,
    readonly failure?: FailureInfo,
    cause?: unknown,
  ) {
    super(message, cause !== undefined ? { cause } : undefined);
  }
}
brandClass(WorkflowFailedError, 'WorkflowFailedError');

/** Replay produced a command that does not match the recorded history. */
export class DeterminismViolationError extends SteadfastError {
  constructor(
    message: string,
    readonly eventId?: number,
  ) {
    super(message);
  }
}
brandClass(DeterminismViolationError, 'DeterminismViolationError');

/** A call made from workflow code that the sandbox forbids (I/O, real timers, ...). */
export class IllegalStateError extends SteadfastError {}
brandClass(IllegalStateError, 'IllegalStateError');
