import { setMaxListeners } from 'node:events';
import { traceHeaders } from './tracing.ts';
import { openConnection, type Connection, type ConnectionOptions } from './connection.ts';
import { groupCalls, sendBatch, unavailable, type QueuedCall } from './call-batch.ts';
import { requestText } from './request-limits.ts';
import { ServiceError } from '../common/errors.ts';
import { fromWireError, type WireError } from '../protocol/wire-error.ts';
import { ValidationError } from '../errors/index.ts';
import { systemClock, type Clock } from '../retry/clock.ts';
import {
  callWithRetry, resolveCallRetry, RETRIED_METHODS, stoppableClock, type CallRetryPlan, type ClientRetryOptions,
} from './call-retry.ts';
import {
  LONG_POLL_METHODS, WORKFLOW_SERVICE_METHODS, type CallOptions, type WorkflowService, type WorkflowServiceMethod,
} from '../protocol/index.ts';

/** Options of {@link HttpWorkflowService}; see ConnectionOptions for credentials and TLS. */
export interface HttpServiceOptions extends ConnectionOptions {
  /** Where the server listens, e.g. `http://127.0.0.1:7233` or `https://…`. */
  address: string;
  /** Per-request timeout for calls that are not long polls, ms. @default 30 000 */
  requestTimeoutMs?: number;
  /**
   * Send the calls issued in one event-loop turn as one `POST /api/v1/batch` (a turn with a
   * single call still uses its plain route). Task polls and calls with an AbortSignal always
   * take a request of their own.
   * @default true
   */
  batchCalls?: boolean;
  /**
   * Retries of calls that found the server unavailable (see RETRIED_METHODS for which); `{}` for
   * the defaults of ClientRetryOptions. `Client` turns them on; a bare transport does not retry.
   * @default false
   */
  retry?: ClientRetryOptions | false;
  /** Time source of the retry backoff. @default systemClock */
  clock?: Clock;
}

const LONG_POLLS = new Set<string>(LONG_POLL_METHODS);
/** Task polls need their own request: the server gives back a task whose request was cut. */
const TASK_POLLS = new Set<string>(['pollWorkflowTaskQueue', 'pollActivityTaskQueue']);

/** Checks and normalizes a server address; the error names the option. */
export function parseAddress(address: unknown, field = 'address'): URL {
  if (typeof address !== 'string' || address.length === 0) {
    throw new ValidationError(field, 'must be a URL such as http://127.0.0.1:7233', address);
  }
  let url: URL;
  try {
    url = new URL(address.includes('://') ? address : `http://${address}`);
  } catch {
    throw new ValidationError(field, 'must be a URL such as http://127.0.0.1:7233', address);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError(field, 'must use http:// or https://', address);
  return url;
}

/**
 * The WorkflowService contract over HTTP: each call is one `POST /api/v1/<method>` on a
 * keep-alive connection, or, when several are issued in the same event-loop turn, they share
 * one `POST /api/v1/batch` whose streamed answer lines settle each call as it finishes.
 * Connection failures surface as ServiceError `Unavailable`, so callers can tell an outage
 * from a refusal.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class HttpWorkflowService implements WorkflowService {
  readonly address: string;
  readonly #url: URL;
  readonly #conn: Connection;
  readonly #timeout: number;
  /** Off by option, or once the server answered that it has no batch route (an older server). */
  #batching: boolean;
  /** Calls issued this turn, sent together by the next flush. */
  #queue: QueuedCall[] = [];
  #flush: NodeJS.Immediate | undefined;
  readonly #retry: CallRetryPlan | undefined;
  /** Aborted by close(): ends the backoff waits of calls being retried. */
  readonly #closing = new AbortController();

  constructor(options: HttpServiceOptions) {
    this.#url = parseAddress(options.address);
    this.address = this.#url.origin;
    this.#timeout = options.requestTimeoutMs ?? 30_000;
    if (options.batchCalls !== undefined && typeof options.batchCalls !== 'boolean') {
      throw new ValidationError('batchCalls', 'must be a boolean', options.batchCalls);
    }
    this.#batching = options.batchCalls ?? true;
    this.#retry = resolveCallRetry(options.retry ?? false, stoppableClock(options.clock ?? systemClock, this.#closing.signal));
    // Every retry's backoff wait listens to it; hundreds at once during an outage are normal.
    setMaxListeners(0, this.#closing.signal);
    this.#conn = openConnection(this.#url, options);
  }

  /** Closes pooled connections. Calls in progress or not yet sent fail with Unavailable. */
  close(): void {
    this.#closing.abort(unavailable('a call', this.address, new Error('the client was closed')));
    if (this.#flush) clearImmediate(this.#flush);
    this.#flush = undefined;
    const queued = this.#queue;
    this.#queue = [];
    const closed = new Error('the client was closed');
    for (const call of queued) call.reject(unavailable(call.method, this.address, closed));
    this.#conn.agent.destroy();
  }

  /**
   * One logical call. The body is serialized once: every retry resends the same request id, so
   * the server can recognize a repeat. A payload over the contract's limits (size, depth) is
   * refused here, naming its field, and never sent.
   */
  call<T>(method: WorkflowServiceMethod, body: unknown, opts?: CallOptions): Promise<T> {
    let payload: string;
    try {
      payload = requestText(body ?? {});
    } catch (err) {
      return Promise.reject(err as Error);
    }
    if (!this.#retry || !RETRIED_METHODS.has(method)) return this.#attempt<T>(method, payload, opts);
    const signal = opts?.signal;
    return callWithRetry(this.#retry, method, this.address, () => this.#attempt<T>(method, payload, opts), {
      closed: this.#closing.signal, ...(signal ? { signal, aborted: () => null } : {}),
    });
  }

  #attempt<T>(method: WorkflowServiceMethod, payload: string, opts?: CallOptions): Promise<T> {
    // A call made inside a span goes on its own route, carrying its own traceparent.
    const traced = traceHeaders();
    if (traced || !this.#batching || opts?.signal || TASK_POLLS.has(method)) return this.#send<T>(method, payload, opts, traced);
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ method, payload, longPoll: LONG_POLLS.has(method), resolve: resolve as (v: unknown) => void, reject });
      // setImmediate, not a microtask: calls issued from every I/O callback of this turn join in.
      this.#flush ??= setImmediate(() => this.#sendQueued());
    });
  }

  #sendQueued(): void {
    this.#flush = undefined;
    const queued = this.#queue;
    this.#queue = [];
    for (const group of groupCalls(queued)) {
      if (group.length === 1 || !this.#batching) this.#sendEach(group);
      else {
        sendBatch({ url: this.#url, address: this.address, connection: this.#conn, timeoutMs: this.#timeout }, group, (calls) => {
          this.#batching = false;
          this.#sendEach(calls);
        });
      }
    }
  }

  #sendEach(calls: readonly QueuedCall[]): void {
    for (const c of calls) this.#send(c.method, c.payload).then(c.resolve, c.reject);
  }

  /** One call on its plain route. */
  #send<T>(method: WorkflowServiceMethod, payload: string, opts?: CallOptions, traced?: Record<string, string>): Promise<T> {
    const longPoll = LONG_POLLS.has(method);
    return new Promise<T>((resolve, reject) => {
      if (opts?.signal?.aborted) {
        resolve(null as T);
        return;
      }
      const req = this.#conn.request(
        {
          host: this.#url.hostname,
          port: this.#url.port || this.#conn.defaultPort,
          path: `/api/v1/${method}`,
          method: 'POST',
          agent: this.#conn.agent,
          headers: { ...this.#conn.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...traced },
          ...(longPoll ? {} : { timeout: this.#timeout }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            opts?.signal?.removeEventListener('abort', onAbort);
            const text = Buffer.concat(chunks).toString('utf8');
            let value: unknown;
            try {
              value = text.length ? JSON.parse(text) : null;
            } catch {
              reject(new ServiceError(codeOf(res.statusCode), `${method}: the server answered ${res.statusCode} with a body that is not JSON`));
              return;
            }
            if ((res.statusCode ?? 500) >= 400) {
              const wire = (value as { error?: WireError } | null)?.error;
              reject(wire ? fromWireError(wire) : new ServiceError(codeOf(res.statusCode), `${method}: HTTP ${res.statusCode}`));
              return;
            }
            resolve(value as T);
          });
          res.on('error', (err) => reject(unavailable(method, this.address, err)));
        },
      );
      const onAbort = () => {
        req.destroy();
        resolve(null as T);
      };
      opts?.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.#timeout} ms`)));
      req.on('error', (err) => {
        opts?.signal?.removeEventListener('abort', onAbort);
        if (opts?.signal?.aborted) return;
        reject(unavailable(method, this.address, err));
      });
      req.end(payload);
    });
  }
}

/** A gateway's answers (a proxy before the server) say the server is unreachable, not that the call is wrong. */
function codeOf(status: number | undefined): 'Unavailable' | 'Internal' {
  return status === 502 || status === 503 || status === 504 ? 'Unavailable' : 'Internal';
}

// One method per contract call, each a thin forwarder to call().
for (const method of WORKFLOW_SERVICE_METHODS) {
  Object.defineProperty(HttpWorkflowService.prototype, method, {
    value(this: HttpWorkflowService, req: unknown, opts?: CallOptions) {
      return this.call(method, req, opts);
    },
    writable: true,
    configurable: true,
  });
}

// The forwarders are installed above; this declaration tells the type checker they exist.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface HttpWorkflowService extends WorkflowService {}
