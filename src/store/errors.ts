import { brandClass, SteadfastError } from '../retry/errors.ts';

/** Why a transition was rejected. */
export type ConflictReason =
  /** An execution row's version moved since it was read. */
  | 'version'
  /** Another open run has the same workflow id. */
  | 'alreadyOpen'
  /** The run id exists already. */
  | 'duplicateRun'
  /** The consumed timer was consumed by another transition. */
  | 'timerGone';

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
