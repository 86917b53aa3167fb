/**
 * An error's message on one line. A connection refused on every address of a host (PostgreSQL,
 * a server) comes as an AggregateError without a message of its own: its errors' messages are used.
 */
export function errorLine(err: unknown): string {
  const e = err as (Error & { errors?: unknown[]; code?: string }) | undefined;
  const nested = Array.isArray(e?.errors) ? e.errors.map((x) => (x as Error).message).join('; ') : '';
  const text = err instanceof Error ? err.message || nested || e?.code || err.name : String(err);
  return text.replace(/\s*\n\s*/g, ' ');
}
