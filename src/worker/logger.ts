/** Where the worker reports what it does. Any object with these four methods (console, pino, …) fits. */
export interface Logger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/** Prints info and above to the console, prefixed with "[steadfast worker]"; debug is dropped. */
export const consoleLogger: Logger = {
  debug: () => undefined,
  info: (m, meta) => console.info(`[steadfast worker] ${m}`, ...(meta ? [meta] : [])),
  warn: (m, meta) => console.warn(`[steadfast worker] ${m}`, ...(meta ? [meta] : [])),
  error: (m, meta) => console.error(`[steadfast worker] ${m}`, ...(meta ? [meta] : [])),
};
