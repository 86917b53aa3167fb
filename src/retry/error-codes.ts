import { SteadfastError, ValidationError, brandClass } from './errors.ts';

/**
 * horsies' error codes: what `autoRetryFor` lists and what exception mappers produce. Codes are
 * UPPER_SNAKE_CASE, which keeps them apart from exception class names (`TimeoutError` is rejected).
 */
const CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/** The code of an exception no mapper knows, unless configured otherwise (horsies' default). */
export const UNHANDLED_EXCEPTION = 'UNHANDLED_EXCEPTION';

/**
 * The code of an attempt lost with the process running it (horsies' library code). The engine
 * gives it to an activity attempt whose worker stopped answering: its start-to-close or
 * heartbeat timeout fired with no result, failure or heartbeat reported in time.
 */
export const WORKER_CRASHED = 'WORKER_CRASHED';

/** A class of thrown values; mappers match it exactly (`error.constructor === cls`). */
export type ErrorClass = abstract new (...args: any[]) => unknown;

/** Maps exception classes to error codes: a Map, or an array of `[Class, 'CODE']` pairs. */
export type ExceptionMapper = ReadonlyMap<ErrorClass, string> | ReadonlyArray<readonly [ErrorClass, string]>;

/** True when `code` is an UPPER_SNAKE_CASE error code. */
export function isErrorCode(code: unknown): code is string {
  return typeof code === 'string' && CODE.test(code);
}

/** Throws unless `code` is UPPER_SNAKE_CASE; the message names the field and the value. */
export function requireErrorCode(field: string, code: unknown): string {
  if (!isErrorCode(code)) {
    throw new ValidationError(
      field,
      'must be an UPPER_SNAKE_CASE error code such as "RATE_LIMITED" (exception class names such as "TimeoutError" are rejected)',
      code,
    );
  }
  return code;
}

/** Validates a list of error codes (`autoRetryFor`). */
export function requireErrorCodes(field: string, codes: unknown): readonly string[] {
  if (!Array.isArray(codes)) throw new ValidationError(field, 'must be an array of error codes', codes);
  codes.forEach((c, i) => requireErrorCode(`${field}[${i}]`, c));
  return codes as string[];
}

/** Validates an exception mapper and returns it as a Map. */
export function toExceptionMap(field: string, mapper: ExceptionMapper): ReadonlyMap<ErrorClass, string> {
  const entries = mapper instanceof Map ? [...mapper] : mapper;
  if (!Array.isArray(entries)) {
    throw new ValidationError(field, 'must be a Map of error classes to codes or an array of [Class, code] pairs', mapper);
  }
  const out = new Map<ErrorClass, string>();
  entries.forEach((entry: unknown, i: number) => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'function') {
      throw new ValidationError(`${field}[${i}]`, 'must be a [Class, code] pair', entry);
    }
    out.set(entry[0] as ErrorClass, requireErrorCode(`${field}[${i}][1]`, entry[1]));
  });
  return out;
}

/** Where exception codes come from at one level (per call, or global). */
export interface ErrorCodeConfig {
  /** Exact-class lookups. */
  exceptionMapper?: ReadonlyMap<ErrorClass, string>;
  /** Code for an exception the mapper does not know. */
  defaultUnhandledErrorCode?: string;
}

let globalConfig: ErrorCodeConfig = {};

/**
 * Sets the process-wide exception mapper and default code (horsies' `AppConfig.exception_mapper`
 * and `default_unhandled_error_code`). Pass `undefined` to clear both.
 */
export function setGlobalExceptionMapper(
  config: { exceptionMapper?: ExceptionMapper; defaultUnhandledErrorCode?: string } | undefined,
): void {
  if (config === undefined) {
    globalConfig = {};
    return;
  }
  globalConfig = {
    ...(config.exceptionMapper ? { exceptionMapper: toExceptionMap('exceptionMapper', config.exceptionMapper) } : {}),
    ...(config.defaultUnhandledErrorCode !== undefined
      ? { defaultUnhandledErrorCode: requireErrorCode('defaultUnhandledErrorCode', config.defaultUnhandledErrorCode) }
      : {}),
  };
}

/** The current global exception mapper configuration. */
export function globalExceptionMapper(): ErrorCodeConfig {
  return globalConfig;
}

/**
 * The error code of a thrown value, in horsies' resolution order:
 * an explicit code (a {@link CodedError}, or any error with an UPPER_SNAKE_CASE `errorCode`,
 * is never mapped); 1. the per-call mapper, 2. the global mapper (both by exact class:
 * subclasses do not match); 3. the per-call default code; 4. the global default code,
 * itself defaulting to `UNHANDLED_EXCEPTION`.
 */
export function resolveErrorCode(error: unknown, perCall: ErrorCodeConfig = {}, global: ErrorCodeConfig = globalConfig): string {
  if (typeof error === 'object' && error !== null) {
    const explicit = (error as { errorCode?: unknown }).errorCode;
    if (isErrorCode(explicit)) return explicit;
    const cls = (error as { constructor?: unknown }).constructor as ErrorClass | undefined;
    if (cls) {
      const local = perCall.exceptionMapper?.get(cls);
      if (local !== undefined) return local;
      const shared = global.exceptionMapper?.get(cls);
      if (shared !== undefined) return shared;
    }
  }
  return perCall.defaultUnhandledErrorCode ?? global.defaultUnhandledErrorCode ?? UNHANDLED_EXCEPTION;
}

/**
 * An error that carries its error code explicitly, like horsies' `TaskResult(err=TaskError(...))`:
 * exception mappers are never consulted for it.
 */
export class CodedError extends SteadfastError {
  /** UPPER_SNAKE_CASE code matched against `autoRetryFor`. */
  readonly errorCode: string;
  constructor(errorCode: string, message?: string, options?: { cause?: unknown }) {
    super(message ?? errorCode, options);
    this.errorCode = requireErrorCode('errorCode', errorCode);
  }
}
brandClass(CodedError, 'CodedError');
