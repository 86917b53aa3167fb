import { ValidationError } from '../errors/index.ts';
import { jsonLogger, type Logger } from '../common/logger.ts';

/** Temporal's log levels, lowest first. */
export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

const LEVEL_ORDER: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

/** One line given to a {@link DefaultLogger}'s function. */
export interface LogEntry {
  level: LogLevel;
  message: string;
  meta?: Record<string, unknown>;
  /** When it was logged, in ns since the epoch. */
  timestampNanos: bigint;
}

/**
 * Temporal's DefaultLogger: keeps the entries at `level` and above and hands each to `fn`
 * (by default printed with console). Fits wherever a steadfast {@link Logger} goes.
 */
export class DefaultLogger implements Logger {
  readonly #min: number;
  readonly #fn: (entry: LogEntry) => void;

  constructor(public readonly level: LogLevel = 'INFO', fn?: (entry: LogEntry) => void) {
    if (!LEVEL_ORDER.includes(level)) throw new ValidationError('level', `must be one of ${LEVEL_ORDER.join(', ')}`, level);
    if (fn !== undefined && typeof fn !== 'function') throw new ValidationError('fn', 'must be a function', fn);
    this.#min = LEVEL_ORDER.indexOf(level);
    this.#fn = fn ?? printEntry;
  }

  log(level: LogLevel, message: string, meta?: Record<string, unknown>): void {
    if (LEVEL_ORDER.indexOf(level) < this.#min) return;
    this.#fn({ level, message, ...(meta ? { meta } : {}), timestampNanos: BigInt(Date.now()) * 1_000_000n });
  }

  trace(message: string, meta?: Record<string, unknown>): void {
    this.log('TRACE', message, meta);
  }

  debug(message: string, meta?: Record<string, unknown>): void {
    this.log('DEBUG', message, meta);
  }

  info(message: string, meta?: Record<string, unknown>): void {
    this.log('INFO', message, meta);
  }

  warn(message: string, meta?: Record<string, unknown>): void {
    this.log('WARN', message, meta);
  }

  error(message: string, meta?: Record<string, unknown>): void {
    this.log('ERROR', message, meta);
  }
}

function printEntry(entry: LogEntry): void {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  const line = `${time} [${entry.level}] ${entry.message}`;
  const args = entry.meta ? [line, entry.meta] : [line];
  if (entry.level === 'ERROR') console.error(...args);
  else if (entry.level === 'WARN') console.warn(...args);
  else console.log(...args);
}

/** Options of {@link Runtime.install}. */
export interface RuntimeOptions {
  /** Where every worker of the process logs unless given its own `logger`, workflow and activity `log` included. */
  logger?: Logger;
}

const LOGGER_METHODS = ['debug', 'info', 'warn', 'error'] as const;

/** Checks that `logger` has the four methods of a {@link Logger}. */
export function checkLogger(field: string, logger: unknown): Logger {
  if (typeof logger !== 'object' || logger === null) throw new ValidationError(field, 'must be an object with debug, info, warn and error methods', logger);
  for (const m of LOGGER_METHODS) {
    const f = (logger as Record<string, unknown>)[m];
    if (typeof f !== 'function') throw new ValidationError(`${field}.${m}`, 'must be a function', f);
  }
  return logger as Logger;
}

let installed: Runtime | undefined;

/**
 * What the workers of a process share (Temporal's Runtime): the logger. `Runtime.install({ logger })`
 * before creating workers sends their logs, and workflow and activity `log` calls, to `logger`.
 */
export class Runtime {
  private constructor(readonly logger: Logger) {}

  /** Installs the process's runtime; workers created afterwards without a `logger` option log through it. */
  static install(options: RuntimeOptions = {}): Runtime {
    if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be an object', options);
    for (const key of Object.keys(options)) {
      if (key !== 'logger') throw new ValidationError(`options.${key}`, 'is not a Runtime option (known: logger)', (options as Record<string, unknown>)[key]);
    }
    const logger = options.logger === undefined ? jsonLogger({ component: 'worker' }) : checkLogger('options.logger', options.logger);
    installed = new Runtime(logger);
    return installed;
  }

  /** The installed runtime, installing the default one (JSON lines on stderr) when none is. */
  static instance(): Runtime {
    return installed ?? Runtime.install();
  }

  /** The installed runtime's logger, or undefined when none is installed. */
  static installedLogger(): Logger | undefined {
    return installed?.logger;
  }
}

/** Logs at `level` ('trace' goes to the logger's trace when it has one, else to debug). */
export function logAt(logger: Logger, level: 'trace' | 'debug' | 'info' | 'warn' | 'error', message: string, meta: Record<string, unknown>): void {
  if (level === 'trace') {
    const trace = (logger as Logger & { trace?: (m: string, meta?: Record<string, unknown>) => void }).trace;
    if (typeof trace === 'function') trace.call(logger, message, meta);
    else logger.debug(message, meta);
    return;
  }
  logger[level](message, meta);
}
