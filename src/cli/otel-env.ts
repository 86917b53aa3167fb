/* Tracing for `steadfast server` and `steadfast dev` from the standard OTEL_* environment variables,
 * so a server process needs no code of its own to send its spans (docs/operations.md). */
import { context, propagation, trace } from '@opentelemetry/api';

/** What the environment asked for, once the tracer provider is registered (or why not). */
export interface OtelSetup {
  exporter: 'none' | 'console' | 'otlp';
  serviceName: string;
  /** Flushes and stops the provider, on shutdown. */
  shutdown(): Promise<void>;
}

/** The OpenTelemetry packages the exporters need; they are loaded only when asked for. */
const PACKAGES = {
  sdk: '@opentelemetry/sdk-trace-base', resources: '@opentelemetry/resources', contexts: '@opentelemetry/context-async-hooks',
  core: '@opentelemetry/core', otlp: '@opentelemetry/exporter-trace-otlp-http',
} as const;

type Module = Record<string, unknown>;

async function load(name: string, why: string): Promise<Module> {
  try {
    return await import(name) as Module;
  } catch {
    throw new Error(`${why} needs the package ${name}; install it beside steadfast (npm install ${name})`);
  }
}

/**
 * Reads OTEL_TRACES_EXPORTER (`none`, the default; `console`; `otlp`), OTEL_SERVICE_NAME
 * (default `steadfast-server`) and, for `otlp`, OTEL_EXPORTER_OTLP_ENDPOINT /
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (read by the exporter itself), and registers a global tracer
 * provider that exports the server's spans (`steadfast.<method>`, under a request's `traceparent`).
 * @throws Error naming the variable and its allowed values, or the package an exporter needs.
 */
export async function tracingFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<OtelSetup> {
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'steadfast-server';
  const asked = (env.OTEL_TRACES_EXPORTER ?? 'none').trim().toLowerCase() || 'none';
  if (asked === 'none') return { exporter: 'none', serviceName, shutdown: async () => {} };
  if (asked !== 'console' && asked !== 'otlp') {
    throw new Error(`OTEL_TRACES_EXPORTER must be one of none, console, otlp; got "${env.OTEL_TRACES_EXPORTER}"`);
  }
  const why = `OTEL_TRACES_EXPORTER=${asked}`;
  const sdk = await load(PACKAGES.sdk, why);
  const resources = await load(PACKAGES.resources, why);
  const contexts = await load(PACKAGES.contexts, why);
  const core = await load(PACKAGES.core, why);
  let exporter: unknown;
  if (asked === 'console') {
    exporter = new (sdk.ConsoleSpanExporter as new () => unknown)();
  } else {
    const otlp = await load(PACKAGES.otlp, why);
    // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT itself.
    exporter = new (otlp.OTLPTraceExporter as new () => unknown)();
  }
  const Processor = (asked === 'console' ? sdk.SimpleSpanProcessor : sdk.BatchSpanProcessor) as new (e: unknown) => unknown;
  const Provider = sdk.BasicTracerProvider as new (o: unknown) => { shutdown(): Promise<void> };
  const resource = (resources.resourceFromAttributes as (a: Record<string, string>) => unknown)({ 'service.name': serviceName });
  const provider = new Provider({ resource, spanProcessors: [new Processor(exporter)] });
  const manager = new (contexts.AsyncLocalStorageContextManager as new () => { enable(): unknown })();
  context.setGlobalContextManager(manager.enable() as never);
  propagation.setGlobalPropagator(new (core.W3CTraceContextPropagator as new () => never)());
  trace.setGlobalTracerProvider(provider as never);
  return { exporter: asked, serviceName, shutdown: () => provider.shutdown() };
}
