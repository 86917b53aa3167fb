import type { Logger as FullLogger } from '../../common/logger.ts';

/** Where the engine reports problems it cannot hand to a caller (a timer that failed to fire). Any {@link FullLogger} fits. */
export type Logger = Pick<FullLogger, 'warn' | 'error'>;

/** Logs to stderr. */
export const consoleLogger: Logger = {
  warn: (m, meta) => console.warn(`[steadfast engine] ${m}`, meta ?? ''),
  error: (m, meta) => console.error(`[steadfast engine] ${m}`, meta ?? ''),
};
