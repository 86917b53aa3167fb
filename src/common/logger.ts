import { pino, type DestinationStream, type Level } from 'pino';

/**
 * Where steadfast reports what it does: the worker, the engine and the server all log through
 * this. Any object with these four methods fits (console, pino, winston through an adapter);
 * `meta` holds the ids that find the thing logged (namespace, workflowId, runId, activityId, errorId).
 */
export interface Logger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/** Options of {@link jsonLogger}. */
export interface JsonLoggerOptions {
  /** Lowest level written. @default "info" (or the STEADFAST_LOG_LEVEL environment variable) */
  level?: 'debug' | 'info' | 'warn' | 'error';
  /** Names the part that logs, as the `component` field of every line (`worker`, `server`, `engine`). */
  component?: string;
  /** Where the lines go. @default stderr, written synchronously */
  destination?: DestinationStream;
}

const LEVELS: readonly Level[] = ['debug', 'info', 'warn', 'error'];

/**
 * A {@link Logger} that writes one JSON object per line with pino: `level` (as a name),
 * `time` (ISO), `msg`, `component`, and the fields of `meta` at the top level, so a failure's
 * ids are searchable fields.
 */
export function jsonLogger(options: JsonLoggerOptions = {}): Logger {
  const envLevel = process.env.STEADFAST_LOG_LEVEL;
  const level = options.level ?? (envLevel && (LEVELS as readonly string[]).includes(envLevel) ? envLevel as Level : 'info');
  const p = pino({
    level,
    base: options.component ? { component: options.component } : null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  }, options.destination ?? pino.destination({ fd: 2, sync: true }));
  return {
    debug: (m, meta) => p.debug(meta ?? {}, m),
    info: (m, meta) => p.info(meta ?? {}, m),
    warn: (m, meta) => p.warn(meta ?? {}, m),
    error: (m, meta) => p.error(meta ?? {}, m),
  };
}
