import { setMaxListeners } from 'node:events';
import { returnsUndeliveredTasks } from '../engine/index.ts';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toWireError } from '../protocol/wire-error.ts';
import { BATCH_ROUTE, parseBatch, runBatch, type BatchCall } from './batch-route.ts';
import { jsonLogger } from '../common/logger.ts';
import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { instrumentService } from './metrics/instrumented-service.ts';
import { answerMetrics, METRICS_PATH } from './metrics/metrics-route.ts';
import { grants, SYSTEM_SCOPE } from './method-roles.ts';
import { ServiceError } from '../common/errors.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { ValidationError } from '../errors/index.ts';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../common/payload.ts';
import type { ServerMetrics } from './metrics/server-metrics.ts';
import type { Authenticator } from './auth.ts';
import { createTlsServer, type TlsOptions } from './tls.ts';
import { errorAnswer, type ServerLogger } from './error-answer.ts';
import { limitService, type NamespaceLimitOptions } from './namespace-limits.ts';
import { refuseCrossSiteCall, refuseHost, resolveAllowedHosts, type Refusal } from './site-guard.ts';
import {
  LONG_POLL_METHODS, WORKFLOW_SERVICE_METHODS, type WorkflowService, type WorkflowServiceMethod,
} from '../protocol/index.ts';

/** Options of {@link startHttpServer}. */
export interface HttpServerOptions {
  /** The service the API exposes: an Engine, usually. */
  service: WorkflowService;
  /** @default 7233 (0 picks a free port) */
  port?: number;
  /** @default "127.0.0.1" */
  host?: string;
  /** Largest request body accepted, bytes. @default 8 MiB (payloads are capped at 2 MiB each) */
  maxBodyBytes?: number;
  /** Extra routes (the web UI's static files) tried before the API answers 404. */
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
  /** Gets the detail of every internal error, under the error id its 500 answer carries. @default JSON lines on stderr (jsonLogger) */
  logger?: ServerLogger;
  /** Counts and times every API call per method and status, and serves `GET /metrics` (docs/operations.md). @default no metrics */
  metrics?: ServerMetrics;
  /** Authenticates and authorizes every API call (see auth.ts). @default none: every call is allowed */
  auth?: Authenticator;
  /** Serves HTTPS (and, with `clientCa`, requires client certificates). @default plain HTTP */
  tls?: TlsOptions;
  /** Per-namespace rate limits and long-poll caps (namespace-limits.ts). @default DEFAULT_NAMESPACE_LIMITS */
  limits?: NamespaceLimitOptions;
  /**
   * Host names a server without `auth` answers to, besides any IP address and the loopback names
   * (`localhost`, `127.0.0.1`, `[::1]`): a request whose `Host` header names another is refused
   * `403`, so that a web page whose domain resolves to this machine (DNS rebinding) cannot use
   * the open API. Bare names, no scheme or port (`steadfast.internal`). Not checked with `auth`.
   * @default [] (see site-guard.ts)
   */
  allowedHosts?: readonly string[];
}

/** A running HTTP API. */
export interface HttpServer {
  /** `http://host:port`, or `https://` with TLS */
  readonly address: string;
  readonly port: number;
  /**
   * Stops accepting connections, ends open long polls with their empty answer, waits for
   * requests in progress, then resolves. The service itself is not shut down.
   */
  close(): Promise<void>;
}

const METHODS = new Set<string>(WORKFLOW_SERVICE_METHODS);
const LONG_POLLS = new Set<string>(LONG_POLL_METHODS);
/** Polls that hand out tasks; a task whose client left before the answer is given back. */
const TASK_POLLS = new Set<string>(['pollWorkflowTaskQueue', 'pollActivityTaskQueue']);
type PolledTask = { taskToken: string; activityId?: string; moreTasks?: PolledTask[] };
const API_PREFIX = '/api/v1/';
const HTTP_SERVER_OPTION_KEYS = optionKeys<HttpServerOptions>({
  service: true, port: true, host: true, maxBodyBytes: true, fallback: true, logger: true, metrics: true, auth: true, tls: true, limits: true,
  allowedHosts: true,
});

/**
 * Serves the WorkflowService contract as JSON over HTTP: `POST /api/v1/<method>` with the
 * request as the body, answered with the response as JSON (`null` when a long poll ends
 * empty), or `{ error: { code, message, field? } }` with the code's status; a 500's message is
 * only an error id (`errorId`), under which the logger gets the detail.
 * `POST /api/v1/batch` runs many calls in one request and streams their answers as NDJSON
 * lines (see batch-route.ts and docs/http-api.md). Every API call must be sent as
 * `application/json`; without `auth`, calls from other web pages and requests naming the server
 * by a foreign host name are refused (site-guard.ts).
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  if (typeof options !== 'object' || options === null || typeof options.service !== 'object' || options.service === null) {
    throw new ValidationError('service', 'is required (the Engine, or another WorkflowService, the server answers for)', options?.service);
  }
  refuseUnknownKeys('startHttpServer', options, HTTP_SERVER_OPTION_KEYS);
  // Limits inside the metrics: a refused call is counted under its 429.
  const service = instrumentService(limitService(options.service, options.limits), options.metrics);
  const logger = options.logger ?? jsonLogger({ component: 'server' });
  const maxBody = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const open = !options.auth;
  const allowedHosts = resolveAllowedHosts(options.allowedHosts);
  const scheme = options.tls ? 'https' : 'http';
  const inFlight = new Set<AbortController>();
  let closing = false;

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    // A caller's W3C traceparent becomes the parent of the server spans of its calls.
    void context.with(propagation.extract(ROOT_CONTEXT, req.headers), () => handle(req, res))
      .catch((err) => send(res, 500, { error: errorAnswer(err, req.url ?? '', logger).error }));
  };
  const server: Server = options.tls ? createTlsServer(options.tls, listener) : createHttpServer(listener);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Long polls hold requests open for up to a minute; the default 5-minute request timeout is fine.

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (open && refuse(res, refuseHost(req.headers, allowedHosts))) return;
    if (url.pathname === '/api/v1/health' || url.pathname === '/health') {
      send(res, closing ? 503 : 200, { status: closing ? 'shutting-down' : 'ok' });
      return;
    }
    if (options.metrics && url.pathname === METRICS_PATH && options.auth) {
      // Metrics span every namespace: with authentication on, a scrape needs system:reader.
      try {
        const principal = await options.auth.authenticate(req.headers.authorization);
        if (!grants(principal.permissions, SYSTEM_SCOPE, 'reader')) {
          throw new ServiceError('PermissionDenied', `GET ${METRICS_PATH} needs the reader role on the ${SYSTEM_SCOPE} scope ("${SYSTEM_SCOPE}:reader")`);
        }
      } catch (err) {
        const { status, error } = toWireError(err);
        if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
        send(res, status, { error });
        return;
      }
    }
    if (options.metrics && (await answerMetrics(options.metrics, req, res, url.pathname))) return;
    if (!url.pathname.startsWith(API_PREFIX)) {
      if (options.fallback && (await options.fallback(req, res))) return;
      send(res, 404, { error: { code: 'NotFound', message: `no route for ${req.method} ${url.pathname}` } });
      return;
    }
    const method = url.pathname.slice(API_PREFIX.length);
    if (method !== BATCH_ROUTE && !METHODS.has(method)) {
      send(res, 404, {
        error: { code: 'NotFound', message: `unknown API method "${method}"; known: ${WORKFLOW_SERVICE_METHODS.join(', ')}` },
      });
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      send(res, 405, { error: { code: 'InvalidArgument', message: `${method} takes POST with a JSON body, got ${req.method}` } });
      return;
    }
    if (refuse(res, refuseCrossSiteCall(req.headers, method, open, scheme))) return;
    if (closing) {
      send(res, 503, { error: { code: 'Unavailable', message: 'the server is shutting down' } });
      return;
    }
    let caller = service;
    if (options.auth) {
      try {
        caller = options.auth.guard(service, await options.auth.authenticate(req.headers.authorization));
      } catch (err) {
        const { status, error } = toWireError(err);
        res.setHeader('WWW-Authenticate', 'Bearer');
        send(res, status, { error });
        return;
      }
    }
    let body: unknown;
    try {
      body = await readJson(req, maxBody);
    } catch (err) {
      send(res, (err as { status?: number }).status ?? 400, { error: { code: 'InvalidArgument', message: (err as Error).message } });
      return;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      send(res, 400, { error: { code: 'InvalidArgument', message: 'request body must be a JSON object' } });
      return;
    }
    let batch: BatchCall[] | undefined;
    if (method === BATCH_ROUTE) {
      try {
        batch = parseBatch(body);
      } catch (err) {
        const { status, error } = toWireError(err);
        send(res, status, { error });
        return;
      }
    }
    const abort = new AbortController();
    // A batch's long polls all listen to this one signal; hundreds at once are normal, not a leak.
    setMaxListeners(0, abort.signal);
    inFlight.add(abort);
    const onClose = () => {
      if (!res.writableEnded) abort.abort();
    };
    res.on('close', onClose);
    try {
      if (batch) {
        await runBatch(caller, batch, res, abort.signal, () => (closing ? { connection: 'close' } : {}), logger);
        return;
      }
      const fn = caller[method as WorkflowServiceMethod] as (req: unknown, opts?: unknown) => Promise<unknown>;
      const result = LONG_POLLS.has(method)
        ? await fn.call(caller, body, { signal: abort.signal })
        : await fn.call(caller, body);
      if (TASK_POLLS.has(method) && result && (abort.signal.aborted || res.destroyed)) {
        await giveBack(result as PolledTask);
        return;
      }
      send(res, 200, result === undefined ? {} : result);
    } catch (err) {
      const { status, error } = errorAnswer(err, method, logger);
      send(res, status, { error });
    } finally {
      inFlight.delete(abort);
      res.off('close', onClose);
    }
  }

  /** The poll's client left while its task was being started: the task goes back at once. */
  async function giveBack(task: PolledTask): Promise<void> {
    if (!returnsUndeliveredTasks(options.service)) return;
    for (const t of [task, ...(task.moreTasks ?? [])]) {
      await options.service.returnUndeliveredTask(t).catch(() => undefined);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 7233, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;

  return {
    address: `${options.tls ? 'https' : 'http'}://${host}:${addr.port}`,
    port: addr.port,
    async close() {
      if (closing) return;
      closing = true;
      for (const a of inFlight) a.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Answers sent from now on carry `connection: close`; sockets already idle are closed now,
      // and any still open after the grace period are cut.
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), 5_000);
      await closed;
      clearTimeout(cut);
    },
  };

  /** Answers a refusal, if there is one; Node reads and drops the body the request still sends. */
  function refuse(res: ServerResponse, refusal: Refusal | undefined): boolean {
    if (!refusal) return false;
    send(res, refusal.status, { error: refusal.error });
    return true;
  }

  function send(res: ServerResponse, status: number, value: unknown): void {
    if (res.headersSent || res.destroyed) return;
    const text = JSON.stringify(value ?? null);
    const retryAfterMs = (value as { error?: { retryAfterMs?: unknown } } | null)?.error?.retryAfterMs;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...(closing ? { connection: 'close' } : {}),
      ...(typeof retryAfterMs === 'number' ? { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) } : {}),
    });
    res.end(text);
  }
}

/**
 * The body as JSON. A body over `maxBytes` is refused with a 413 naming the limit, at once when
 * its Content-Length says so, else as soon as it passes the limit; either way the rest is read
 * and dropped, not cut: a connection reset while the client still sends can lose the answer on
 * its way, and the client would take the reset for an outage and send the body again.
 */
function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const tooLarge = (got: string) => Object.assign(
    new Error(`request body must be at most ${maxBytes} bytes (${byteSize(maxBytes)}, the server's maxBodyBytes; each payload at most ${byteSize(DEFAULT_MAX_PAYLOAD_BYTES)}), got ${got}`),
    { status: 413 },
  );
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) {
    req.resume();
    return Promise.reject(tooLarge(`${declared} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > maxBytes) return;
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        reject(tooLarge(`more than ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > maxBytes) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.length === 0) return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch (err) {
        reject(new Error(`request body is not valid JSON: ${(err as Error).message}`));
      }
    });
    req.on('error', reject);
  });
}

/** A byte count for messages: `8 MiB`, `64 KiB`, `1.5 KiB`. */
function byteSize(bytes: number): string {
  return bytes >= 1048576 ? `${Number((bytes / 1048576).toFixed(2))} MiB` : `${Number((bytes / 1024).toFixed(2))} KiB`;
}
