import { ServiceError } from '../common/errors.ts';
import { brandClass, SteadfastError } from '../errors/index.ts';

/** Why a transition was rejected. */
export type ConflictReason =
  /** An execution row's version moved since it was read. */
  | 'version'
  /** Another open run has the same workflow id. */
  | 'alreadyOpen'
  /** A run inserted as the workflow id's first found a run of that id (see `ExecutionWrite.firstOfWorkflowId`). */
  | 'workflowIdUsed'
  /** The run id exists already. */
  | 'duplicateRun'
  /** The consumed timer was consumed by another transition. */
  | 'timerGone'
  /** A schedule row's version moved since it was read (or it was deleted). */
  | 'scheduleVersion'
  /** A schedule with the id exists already. */
  | 'scheduleExists'
  /** A namespace of that name is registered already. */
  | 'namespaceExists';

/** A transition lost a race; the engine re-reads and decides again. */
export class StoreConflictError extends SteadfastError {
  constructor(readonly reason: ConflictReason, message: string) {
    super(message);
  }
}
brandClass(StoreConflictError, 'StoreConflictError');

/**
 * PostgreSQL SQLSTATE codes the store branches on.
 * @see https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
export const PG_ERROR_CODES = {
  /** unique_violation: an insert hit a unique index (open run per workflow id, run id). */
  uniqueViolation: '23505',
  /** serialization_failure: a concurrent transaction made ours impossible; retry it. */
  serializationFailure: '40001',
  /** deadlock_detected: two transactions waited on each other; one is aborted, retry it. */
  deadlockDetected: '40P01',
  /** undefined_table: the schema is not migrated (or search_path is wrong). */
  undefinedTable: '42P01',
} as const;

/**
 * PostgreSQL SQLSTATE codes that mean the database cannot be reached or dropped our connection:
 * the call may succeed if repeated, so the service answers Unavailable (503), never Internal.
 * @see https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
export const PG_CONNECTION_ERROR_CODES: Readonly<Record<string, string>> = {
  /** connection_exception: the connection failed in a way no narrower code names. */
  '08000': 'connection_exception',
  /** connection_does_not_exist: the session is gone. */
  '08003': 'connection_does_not_exist',
  /** connection_failure: the connection broke during the call. */
  '08006': 'connection_failure',
  /** sqlclient_unable_to_establish_sqlconnection: no connection could be made. */
  '08001': 'sqlclient_unable_to_establish_sqlconnection',
  /** sqlserver_rejected_establishment_of_sqlconnection: the server refused a new connection. */
  '08004': 'sqlserver_rejected_establishment_of_sqlconnection',
  /** admin_shutdown: pg_terminate_backend() ended our session, or the server is shutting down. */
  '57P01': 'admin_shutdown',
  /** crash_shutdown: another backend crashed and the server is resetting every session. */
  '57P02': 'crash_shutdown',
  /** cannot_connect_now: the server is starting up or in recovery. */
  '57P03': 'cannot_connect_now',
  /** too_many_connections: max_connections is reached; connections free up as others close. */
  '53300': 'too_many_connections',
};

/**
 * Node.js socket error codes (`err.code`) of a connection that could not be made or broke:
 * answered Unavailable like {@link PG_CONNECTION_ERROR_CODES}.
 */
export const NETWORK_ERROR_CODES: Readonly<Record<string, string>> = {
  /** Nothing listens on the database's port (the server is down or restarting). */
  ECONNREFUSED: 'connection refused',
  /** The peer reset the connection. */
  ECONNRESET: 'connection reset',
  /** A write to a connection the peer had closed. */
  EPIPE: 'broken pipe',
  /** The connection attempt or a read timed out. */
  ETIMEDOUT: 'timed out',
  /** No route to the database's host. */
  EHOSTUNREACH: 'host unreachable',
  /** The database's network is unreachable. */
  ENETUNREACH: 'network unreachable',
  /** A temporary DNS failure resolving the database's host. */
  EAI_AGAIN: 'name resolution failed',
};

/**
 * Errors node-postgres raises itself, without a code, when a connection is lost or cannot be
 * had, by the start of their message.
 */
const PG_CLIENT_CONNECTION_MESSAGES: readonly string[] = [
  // The socket closed under a query (the backend was terminated, the network dropped).
  'Connection terminated',
  // A client of the pool that already lost its connection.
  'Client has encountered a connection error',
  // A query on a client whose connection was already ended.
  'Client was closed and is not queryable',
  // The pool's connectionTimeoutMillis passed before a connection was free or made.
  'timeout exceeded when trying to connect',
  // The store is closing (the server shuts down) while a call is still running.
  'Cannot use a pool after calling end on the pool',
];

/** The database is unreachable or dropped the connection; the caller may repeat the call. */
export class StoreUnavailableError extends ServiceError {
  constructor(message: string, cause: unknown) {
    super('Unavailable', message, { cause });
  }
}
brandClass(StoreUnavailableError, 'StoreUnavailableError');

/**
 * A StoreUnavailableError for a connection-level PostgreSQL or network error, else undefined.
 * Its message names the condition, not the database's own text (which stays in `cause`).
 */
export function connectionLoss(err: unknown): StoreUnavailableError | undefined {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (typeof e !== 'object' || e === null) return undefined;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const named = code !== undefined ? (PG_CONNECTION_ERROR_CODES[code] ?? NETWORK_ERROR_CODES[code]) : undefined;
  if (named !== undefined) return new StoreUnavailableError(`the database is unavailable (${named}, ${code}); retry the call`, err);
  const message = typeof e.message === 'string' ? e.message : '';
  if (code === undefined && PG_CLIENT_CONNECTION_MESSAGES.some((m) => message.startsWith(m))) {
    return new StoreUnavailableError('the database is unavailable (connection lost); retry the call', err);
  }
  return undefined;
}

/**
 * SQLite extended result codes the store branches on (better-sqlite3 reports them as `err.code`).
 * @see https://www.sqlite.org/rescode.html
 */
export const SQLITE_ERROR_CODES = {
  /** A UNIQUE constraint failed: open run per workflow id, run id, event id. */
  uniqueViolation: 'SQLITE_CONSTRAINT_UNIQUE',
  /** A PRIMARY KEY constraint failed: a duplicate run id, event id or task id. */
  primaryKeyViolation: 'SQLITE_CONSTRAINT_PRIMARYKEY',
  /** Another connection holds the write lock longer than busy_timeout. */
  busy: 'SQLITE_BUSY',
} as const;

/** The constraint name that a unique violation reports for "one open run per workflow id". */
export const OPEN_RUN_INDEX = 'executions_one_open_run';
