import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { defaultPayloadConverter, type Headers } from '../common/headers.ts';
import type { WorkflowClientInterceptor } from './interceptors.ts';

/** The header that carries the trace context, as @temporalio/interceptors-opentelemetry names it. */
export const TRACE_HEADER = '_tracer-data';

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

/** `headers` with the active trace context added under {@link TRACE_HEADER} (unchanged when no span is active). */
export function withTraceHeader(headers: Headers): Headers {
  const carrier = traceHeaders();
  return carrier ? { ...headers, [TRACE_HEADER]: defaultPayloadConverter.toPayload(carrier) } : headers;
}

/**
 * Runs `fn` inside a client span named `name` (through `@opentelemetry/api`: a no-op unless
 * the application registered an SDK).
 */
async function inClientSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  const tracer = trace.getTracer('steadfast');
  return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * The client's built-in tracing, as an interceptor that runs last (nearest the service): a
 * client span per start, signal-with-start and signal, and the active trace context in the
 * call's headers under {@link TRACE_HEADER} (queries and updates carry it too), where the
 * worker's interceptors find it.
 */
export function tracingClientInterceptor(namespace: string): WorkflowClientInterceptor {
  const ids = (workflowId: string, workflowType?: string): Attributes => ({
    'steadfast.namespace': namespace, 'steadfast.workflow_id': workflowId, ...(workflowType ? { 'steadfast.workflow_type': workflowType } : {}),
  });
  return {
    start: (input, next) => inClientSpan(`StartWorkflow:${input.workflowType}`, ids(input.options.workflowId, input.workflowType),
      () => next({ ...input, headers: withTraceHeader(input.headers) })),
    signalWithStart: (input, next) => inClientSpan(`SignalWithStartWorkflow:${input.workflowType}`, ids(input.options.workflowId, input.workflowType),
      () => next({ ...input, headers: withTraceHeader(input.headers) })),
    signal: (input, next) => inClientSpan(`SignalWorkflow:${input.signalName}`, ids(input.workflowExecution.workflowId),
      () => next({ ...input, headers: withTraceHeader(input.headers) })),
    query: (input, next) => next({ ...input, headers: withTraceHeader(input.headers) }),
    startUpdate: (input, next) => next({ ...input, headers: withTraceHeader(input.headers) }),
    startUpdateWithStart: (input, next) => inClientSpan(`UpdateWithStartWorkflow:${input.workflowType}`,
      ids(input.workflowStartOptions.workflowId, input.workflowType),
      () => next({ ...input, workflowStartHeaders: withTraceHeader(input.workflowStartHeaders), updateHeaders: withTraceHeader(input.updateHeaders) })),
  };
}
