import { hasBrand } from '../errors/index.ts';

/**
 * How `nonRetryableErrorTypes` matches a failure: by its type, by the other spellings of a
 * timeout's type, and by Cadence's error reasons. One definition for the engine's retry
 * decisions (activities and workflows) and for `retry()`.
 */

/**
 * Other spellings of the same timeout types, so a ported policy stops on the timeouts it lists:
 * Temporal's server convention (`TemporalTimeout:StartToClose`) and Cadence's
 * (`cadenceInternal:Timeout START_TO_CLOSE`).
 */
const TIMEOUT_TYPE_ALIASES: Record<string, readonly string[]> = {
  StartToCloseTimeout: ['TemporalTimeout:StartToClose', 'cadenceInternal:Timeout START_TO_CLOSE'],
  ScheduleToStartTimeout: ['TemporalTimeout:ScheduleToStart', 'cadenceInternal:Timeout SCHEDULE_TO_START'],
  ScheduleToCloseTimeout: ['TemporalTimeout:ScheduleToClose', 'cadenceInternal:Timeout SCHEDULE_TO_CLOSE'],
  HeartbeatTimeout: ['TemporalTimeout:Heartbeat', 'cadenceInternal:Timeout HEARTBEAT'],
};

/** Cadence's reason for a panic; a panic in TypeScript is one of {@link PANIC_ERROR_NAMES}. */
export const CADENCE_PANIC = 'cadenceInternal:Panic';

/** Cadence's reason for any error that is not a timeout, a panic or a custom error. */
export const CADENCE_GENERIC = 'cadenceInternal:Generic';

/**
 * The error classes whose throw is a programming error, TypeScript's counterpart of a Go panic:
 * a value of the wrong type, a number out of range, a name never declared, code that does not parse.
 */
export const PANIC_ERROR_NAMES = ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'] as const;

/** What the matching reads of a failure; a `FailureInfo` is one. */
export interface FailureTypeFacts {
  /** `Timeout` for a timeout; anything else otherwise. */
  kind?: string | undefined;
  /** The failure's type: an application failure's own, or the thrown error's class name. */
  type?: string | undefined;
  /**
   * True when `type` is only the class name of what was thrown: no ApplicationFailure, no `type`
   * of its own. Such a failure is Cadence's generic error, or its panic.
   */
  typeFromClass?: boolean | undefined;
}

/**
 * Cadence's error reason for a failure that has no reason of its own: `cadenceInternal:Panic`
 * for a thrown TypeError, RangeError, ReferenceError or SyntaxError, `cadenceInternal:Generic`
 * for any other thrown error; undefined for a custom error (an ApplicationFailure, an error with a
 * `type`), whose reason is its type, and for a timeout, whose reasons are its type's spellings.
 * @see shared/seeds/cadence-activity-and-workflow-retries.md (NonRetriableErrorReasons)
 */
export function cadenceReason(failure: FailureTypeFacts): typeof CADENCE_PANIC | typeof CADENCE_GENERIC | undefined {
  if (failure.kind === 'Timeout' || failure.typeFromClass !== true) return undefined;
  return (PANIC_ERROR_NAMES as readonly (string | undefined)[]).includes(failure.type) ? CADENCE_PANIC : CADENCE_GENERIC;
}

/** True when `types` lists the failure's type, another spelling of it, or its Cadence reason. */
export function failureTypeListed(types: readonly string[], failure: FailureTypeFacts | undefined): boolean {
  if (failure === undefined || types.length === 0) return false;
  const type = failure.type;
  if (type !== undefined) {
    if (types.includes(type)) return true;
    if (TIMEOUT_TYPE_ALIASES[type]?.some((alias) => types.includes(alias))) return true;
  }
  const reason = cadenceReason(failure);
  return reason !== undefined && types.includes(reason);
}

/**
 * The facts of a thrown value, as `retry()` and the worker read them: its type is its own `type`,
 * else its class name (`Error` for what is not an object); the type comes from the class unless
 * the value is an ApplicationFailure or carries a string `type`.
 */
export function thrownFailureFacts(thrown: unknown): FailureTypeFacts {
  if (typeof thrown !== 'object' || thrown === null) return { type: 'Error', typeFromClass: true };
  const e = thrown as { type?: unknown; name?: unknown };
  if (typeof e.type === 'string') return { type: e.type };
  const name = typeof e.name === 'string' && e.name !== '' ? e.name : 'Error';
  return hasBrand(thrown, 'ApplicationFailure') ? { type: name } : { type: name, typeFromClass: true };
}
