import { VisibilityQueryError } from '../visibility/errors.ts';

/**
 * The query of a failed list or count with a caret under the offending column, or undefined
 * for other errors. Errors from a server carry the query and column as plain fields.
 */
export function queryPointer(err: unknown): string | undefined {
  if (err instanceof VisibilityQueryError) return err.pointer();
  const { query, column } = (err ?? {}) as { query?: unknown; column?: unknown };
  if (typeof query !== 'string' || typeof column !== 'number') return undefined;
  return `${query.replace(/[\r\n\t]/g, ' ')}\n${' '.repeat(Math.max(0, column - 1))}^`;
}
