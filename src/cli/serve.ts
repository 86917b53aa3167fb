import { tracingFromEnv } from './otel-env.ts';
import { Engine } from '../engine/index.ts';
import { openStore } from '../store/index.ts';
import {
  instrumentStore, ServerMetrics, startHttpServer, uiRoute, type Authenticator, type NamespaceLimitOptions, type TlsOptions,
} from '../server/index.ts';
import type { TaskTokenKey } from '../engine/index.ts';
import { ValidationError } from '../errors/index.ts';
import { errorLine } from './error-line.ts';
import { NamespaceAlreadyExistsError } from '../common/errors.ts';
import type { SearchAttributeTypeName } from '../protocol/index.ts';

/** What `steadfast server` and `steadfast dev` run: store, engine and HTTP API, until a signal. */
interface ServeOptions {
  database: string;
  port: number;
  host: string;
  /** Printed first: the name the command goes by. */
  label: string;
  /** Count requests, store calls and runs, and serve `GET /metrics`. @default true */
  metrics?: boolean;
  /** Authentication of API calls. @default none (the API is open) */
  auth?: Authenticator;
  /** HTTPS. @default plain HTTP */
  tls?: TlsOptions;
  /** Task-token signing keys. @default a key kept in the database */
  taskTokenKeys?: TaskTokenKey[];
  /** Open on purpose (`--insecure`): warned about on stderr once the server is up. */
  insecure?: boolean;
  /** Per-namespace rate limits and long-poll caps. @default the server's defaults */
  limits?: NamespaceLimitOptions;
  /** Bundle the web UI at start instead of on its first request. @default false */
  warmUi?: boolean;
  /** Namespaces registered at start when missing (`steadfast dev --namespace`). @default none */
  namespaces?: string[];
  /** Search attributes registered at start in "default" and each of `namespaces` (`steadfast dev --search-attribute`). @default none */
  searchAttributes?: Array<{ name: string; type: SearchAttributeTypeName }>;
  /** How often closed runs past retention are deleted, ms; 0 turns the sweep off. @default the engine's */
  retentionSweepIntervalMs?: number;
  /** Host names an open server answers to besides IP addresses and the loopback names (`--allowed-host`). @default none */
  allowedHosts?: string[];
  /** Bytes of heap the store's row caches may hold (`--cache-max-bytes`). @default the store's (64 MiB) */
  cacheMaxBytes?: number;
}

/** Opens the store, starts the engine and the API, and shuts all down cleanly on SIGTERM/SIGINT. */
export async function serve(options: ServeOptions): Promise<number> {
  let tracing;
  try {
    tracing = await tracingFromEnv();
  } catch (err) {
    console.error(`${options.label}: ${errorLine(err)}`);
    return 2;
  }
  if (tracing.exporter !== 'none') console.log(`Tracing: ${tracing.exporter} exporter, service ${tracing.serviceName} (OTEL_* environment)`);
  let store;
  try {
    store = await openStore(options.database, options.cacheMaxBytes === undefined ? {} : { cacheMaxBytes: options.cacheMaxBytes });
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    console.error(`${options.label}: cannot open the database ${redact(options.database)}: ${errorLine(err)}`);
    return 1;
  }
  const metrics = options.metrics === false ? undefined : new ServerMetrics();
  if (metrics) store = instrumentStore(store, metrics);
  let engine;
  try {
    engine = await Engine.create({
      store, ...(options.taskTokenKeys ? { taskTokenKeys: options.taskTokenKeys } : {}),
      ...(options.retentionSweepIntervalMs !== undefined ? { retentionSweepIntervalMs: options.retentionSweepIntervalMs } : {}),
    });
    for (const namespace of options.namespaces ?? []) {
      await engine.registerNamespace({ namespace }).catch((err: unknown) => {
        if (!(err instanceof NamespaceAlreadyExistsError)) throw err;
      });
    }
    for (const namespace of new Set(['default', ...(options.namespaces ?? [])])) {
      const registered = (await engine.listSearchAttributes({ namespace })).custom;
      for (const a of options.searchAttributes ?? []) {
        const known = registered.find((r) => r.name === a.name);
        if (known && known.type !== a.type) throw new Error(`search attribute ${a.name} is registered in namespace ${namespace} as ${known.type}, not ${a.type}`);
        if (!known) await engine.createSearchAttribute({ namespace, name: a.name, type: a.type });
      }
    }
  } catch (err) {
    await engine?.shutdown();
    await store.close().catch(() => undefined);
    console.error(`${options.label}: cannot start on the database ${redact(options.database)}: ${errorLine(err)}`);
    return 1;
  }
  let http;
  try {
    http = await startHttpServer({
      service: engine, port: options.port, host: options.host, fallback: uiRoute({ warm: options.warmUi ?? false }), ...(metrics ? { metrics } : {}),
      ...(options.auth ? { auth: options.auth } : {}), ...(options.tls ? { tls: options.tls } : {}),
      ...(options.limits ? { limits: options.limits } : {}), ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    });
  } catch (err) {
    await engine.shutdown();
    await store.close();
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') {
      console.error(`${options.label}: port ${options.port} on ${options.host} is in use; pick another with --port`);
      return 1;
    }
    throw err;
  }
  const access = options.auth ? 'authentication on' : 'no authentication';
  console.log(`${options.label} listening on ${http.address} (database ${redact(options.database)}; ${access})`);
  console.log(`Web UI: ${http.address}/`);
  console.log('Press Ctrl+C to stop.');
  if (options.insecure) console.warn(`${options.label}: --insecure: no authentication, anyone who can reach the port may do anything`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal}: shutting down`);
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  await http.close();
  await engine.shutdown();
  await store.close();
  await tracing.shutdown();
  console.log('stopped');
  return 0;
}

/** Hides a password in a connection string. */
function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
