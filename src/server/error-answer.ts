import { randomUUID } from 'node:crypto';
import type { Logger } from '../common/logger.ts';
import { toWireError, type WireError } from '../protocol/wire-error.ts';
import { StoreConflictError } from '../store/errors.ts';

/** Where the HTTP server writes what it cannot tell a caller: the detail of internal errors. Any {@link Logger} fits. */
export type ServerLogger = Pick<Logger, 'error'>;

/** Logs to stderr, prefixed with "[steadfast server]". */
export const consoleServerLogger: ServerLogger = {
  error: (m, meta) => console.error(`[steadfast server] ${m}`, ...(meta ? [meta] : [])),
};

/**
 * The wire answer to an error thrown by a call. A store conflict the engine could not resolve
 * is Unavailable (503): repeating the call is the remedy. A 500 never carries the error's own text
 * (a database message, a stack): it carries an error id, and the log gets the detail under
 * that id, so an operator can find it and a caller learns nothing internal.
 * @param method the API method that failed, for the log line.
 */
export function errorAnswer(err: unknown, method: string, logger: ServerLogger): { status: number; error: WireError } {
  if (err instanceof StoreConflictError) {
    // The engine retries lost races itself; one that still escapes is worth repeating, not a bad request.
    return { status: 503, error: { code: 'Unavailable', message: `${method}: kept losing races with concurrent changes (${err.reason}); retry the call` } };
  }
  const answer = toWireError(err);
  if (answer.status !== 500) return answer;
  const errorId = randomUUID();
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  logger.error(`internal error ${errorId} in ${method}: ${detail}`, { errorId, method });
  return {
    status: 500,
    error: { code: 'Internal', message: `internal error (error id ${errorId}); the server log has the details under this id`, errorId },
  };
}
