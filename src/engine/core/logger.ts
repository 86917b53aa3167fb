import type { Logger as FullLogger } from '../../common/logger.ts';

/**
 * Where the engine reports problems it cannot hand to a caller (a timer that failed to fire), and,
 * through `info` when the logger has one, its audit lines (a query naming who asked). Any
 * {@link FullLogger} fits.
 */
export type Logger = Pick<FullLogger, 'warn' | 'error'> & Partial<Pick<FullLogger, 'info'>>;

/** Logs to stderr. */
export const consoleLogger: Logger = {
  info: (m, meta) => console.info(`[steadfast engine] ${m}`, meta ?? ''),
  warn: (m, meta) => console.warn(`[steadfast engine] ${m}`, meta ?? ''),
  error: (m, meta) => console.error(`[steadfast engine] ${m}`, meta ?? ''),
};
