import { ValidationError } from '../retry/errors.ts';
import { optionalRecord } from '../common/validate.ts';

/** Most entries a trace header may have (traceparent, tracestate, baggage, and a few vendor keys). */
const MAX_ENTRIES = 8;
/** Longest value of one entry, characters (W3C allows tracestate up to 512). */
const MAX_VALUE_LENGTH = 8192;

/**
 * Checks a request's `header`: the trace context (W3C `traceparent`, `tracestate`, …) a client
 * started the run under, kept in WorkflowExecutionStarted so the worker's spans join the
 * client's trace. The engine stores it and never reads it.
 */
export function optionalTraceHeader(field: string, value: unknown): Record<string, string> | undefined {
  const header = optionalRecord(field, value);
  if (!header) return undefined;
  const entries = Object.entries(header);
  if (entries.length > MAX_ENTRIES) throw new ValidationError(field, `must have at most ${MAX_ENTRIES} entries`, entries.length);
  for (const [key, v] of entries) {
    if (typeof v !== 'string') throw new ValidationError(`${field}.${key}`, 'must be a string', v);
    if (v.length > MAX_VALUE_LENGTH) throw new ValidationError(`${field}.${key}`, `must be at most ${MAX_VALUE_LENGTH} characters`, v.length);
  }
  return header as Record<string, string>;
}
