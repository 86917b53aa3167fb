import type { Logger } from '../../src/common/logger.ts';

/** A logger that drops every line: for tests whose expected warnings would only be noise. */
export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A logger that keeps warnings and errors in `lines`, for a test to assert on. */
export function recordingLogger(): Logger & { lines: Array<{ level: 'warn' | 'error'; message: string; meta?: Record<string, unknown> }> } {
  const lines: Array<{ level: 'warn' | 'error'; message: string; meta?: Record<string, unknown> }> = [];
  return {
    lines,
    debug: () => undefined,
    info: () => undefined,
    warn: (message, meta) => lines.push({ level: 'warn', message, ...(meta ? { meta } : {}) }),
    error: (message, meta) => lines.push({ level: 'error', message, ...(meta ? { meta } : {}) }),
  };
}
