import type { Logger } from '../common/logger.ts';

export type { Logger } from '../common/logger.ts';

/** Prints info and above to the console, prefixed with "[steadfast worker]"; debug is dropped. */
export const consoleLogger: Logger = {
  debug: () => undefined,
  info: (m, meta) => console.info(`[steadfast worker] ${m}`, ...(meta ? [meta] : [])),
  warn: (m, meta) => console.warn(`[steadfast worker] ${m}`, ...(meta ? [meta] : [])),
  error: (m, meta) => console.error(`[steadfast worker] ${m}`, ...(meta ? [meta] : [])),
};
