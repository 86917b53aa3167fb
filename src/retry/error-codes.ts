import { SteadfastError, ValidationError, brandClass } from '../errors/index.ts';

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

/** Where exception codes come from at one level (per call or task, or global). */
export interface ErrorCodeConfig {
  /** Exact-class lookups. */
  exceptionMapper?: ReadonlyMap<ErrorClass, string>;
  /**
   * Exact-class lookups by class name (`error.constructor.name`), for a mapper written where the
   * classes are other copies (an engine activity's, written in the workflow sandbox). Consulted
   * after `exceptionMapper`, at the same level.
   */
  exceptionNames?: ReadonlyMap<string, string>;
  /** Code for an exception the mapper does not know. */
  defaultUnhandledErrorCode?: string;
}

/**
 * A per-task exception mapper and default code as data (JSON), as an engine activity's retry
 * policy carries them to the worker that runs it: exact class names → codes.
 */
export interface ErrorCodeData {
  /** Exact class name (`error.constructor.name`) → UPPER_SNAKE_CASE code. */
  exceptionMapper?: Record<string, string> | undefined;
  /** Code of an exception the mappers do not know, before the global default. */
  defaultUnhandledErrorCode?: string | undefined;
}

/** Validates {@link ErrorCodeData} from the wire or a history event; errors name `field.…`. */
export function checkErrorCodeData(field: string, value: unknown): ErrorCodeData {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(field, 'must be an object { exceptionMapper?, defaultUnhandledErrorCode? }', value);
  }
  const { exceptionMapper, defaultUnhandledErrorCode, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new ValidationError(`${field}.${extra}`, 'is not a field of errorCodes (use exceptionMapper, defaultUnhandledErrorCode)', rest[extra]);
  const out: ErrorCodeData = {};
  if (exceptionMapper !== undefined) {
    if (typeof exceptionMapper !== 'object' || exceptionMapper === null || Array.isArray(exceptionMapper)) {
      throw new ValidationError(`${field}.exceptionMapper`, 'must be an object of class names to error codes', exceptionMapper);
    }
    const names: Record<string, string> = {};
    for (const [name, code] of Object.entries(exceptionMapper)) {
      if (name === '') throw new ValidationError(`${field}.exceptionMapper`, 'must not name a class ""', exceptionMapper);
      names[name] = requireErrorCode(`${field}.exceptionMapper.${name}`, code);
    }
    out.exceptionMapper = names;
  }
  if (defaultUnhandledErrorCode !== undefined) {
    out.defaultUnhandledErrorCode = requireErrorCode(`${field}.defaultUnhandledErrorCode`, defaultUnhandledErrorCode);
  }
  return out;
}

/** The {@link ErrorCodeConfig} of {@link ErrorCodeData}. */
export function errorCodeConfigOf(data: ErrorCodeData | undefined): ErrorCodeConfig {
  if (data === undefined) return {};
  return {
    ...(data.exceptionMapper !== undefined ? { exceptionNames: new Map(Object.entries(data.exceptionMapper)) } : {}),
    ...(data.defaultUnhandledErrorCode !== undefined ? { defaultUnhandledErrorCode: data.defaultUnhandledErrorCode } : {}),
  };
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

/** Which step of the resolution gave an error its code. */
export type ErrorCodeSource = 'explicit' | 'mapper' | 'default' | 'unhandled';

/**
 * The error code of a thrown value, and where it came from, in horsies' resolution order:
 * an explicit code (a {@link CodedError}, or any error with an UPPER_SNAKE_CASE `errorCode`,
 * is never mapped); 1. the per-call (task) mapper, 2. the global mapper (both by exact class:
 * subclasses do not match); 3. the per-call default code; 4. the global default code; else
 * `UNHANDLED_EXCEPTION`.
 */
export function resolveErrorCodeOf(
  error: unknown, perCall: ErrorCodeConfig = {}, global: ErrorCodeConfig = globalConfig,
): { code: string; source: ErrorCodeSource } {
  if (typeof error === 'object' && error !== null) {
    const explicit = (error as { errorCode?: unknown }).errorCode;
    if (isErrorCode(explicit)) return { code: explicit, source: 'explicit' };
    const cls = (error as { constructor?: unknown }).constructor as ErrorClass | undefined;
    if (cls) {
      const name = typeof cls.name === 'string' ? cls.name : '';
      const mapped = perCall.exceptionMapper?.get(cls) ?? perCall.exceptionNames?.get(name)
        ?? global.exceptionMapper?.get(cls) ?? global.exceptionNames?.get(name);
      if (mapped !== undefined) return { code: mapped, source: 'mapper' };
    }
  }
  const fallback = perCall.defaultUnhandledErrorCode ?? global.defaultUnhandledErrorCode;
  return fallback !== undefined ? { code: fallback, source: 'default' } : { code: UNHANDLED_EXCEPTION, source: 'unhandled' };
}

/** The error code of a thrown value: {@link resolveErrorCodeOf}'s code. */
export function resolveErrorCode(error: unknown, perCall: ErrorCodeConfig = {}, global: ErrorCodeConfig = globalConfig): string {
  return resolveErrorCodeOf(error, perCall, global).code;
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
