import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

/**
 * The propagation headers (W3C `traceparent`, `tracestate`, with the propagator the
 * application registered) of the active span; undefined when no span is active, so untraced
 * calls cost nothing and keep being batched.
 */
export function traceHeaders(): Record<string, string> | undefined {
  const active = context.active();
  if (!trace.getSpan(active)) return undefined;
  const headers: Record<string, string> = {};
  propagation.inject(active, headers);
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/**
 * Runs `fn` inside a client span named `name` (through `@opentelemetry/api`: a no-op unless
 * the application registered an SDK), handing it the span's propagation headers.
 */
export async function inClientSpan<T>(name: string, attributes: Attributes, fn: (header: Record<string, string> | undefined) => Promise<T>): Promise<T> {
  const tracer = trace.getTracer('steadfast');
  return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await fn(traceHeaders());
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}
