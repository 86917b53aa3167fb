import type { ServiceErrorCode } from '../common/errors.ts';

/** The HTTP status of each service error code; the server answers with it and the client maps it back. */
export const SERVICE_ERROR_CODES = {
  /** Input broke a rule; the message names the field. HTTP 400. */
  InvalidArgument: 400,
  /** No such workflow execution, run or namespace. HTTP 404. */
  NotFound: 404,
  /** A workflow with this id is already open (or the reuse policy forbids a new one). HTTP 409. */
  AlreadyStarted: 409,
  /** What the call would create exists already (a namespace of that name). HTTP 409. */
  AlreadyExists: 409,
  /** The request came too late or too early for the execution's state (stale attempt, closed run). HTTP 412. */
  FailedPrecondition: 412,
  /** The server requires credentials and the call carried none it accepts. HTTP 401. */
  Unauthenticated: 401,
  /** The credentials do not grant the role the call needs on its namespace. HTTP 403. */
  PermissionDenied: 403,
  /** A configured limit would be exceeded. HTTP 429. */
  ResourceExhausted: 429,
  /** The service is shutting down or cannot reach its store. HTTP 503. */
  Unavailable: 503,
  /** A bug or an unexpected store error. HTTP 500. */
  Internal: 500,
} as const satisfies Record<ServiceErrorCode, number>;

