import { Agent, request } from 'node:http';
import { ServiceError } from '../common/errors.ts';
import { fromWireError, type WireError } from '../common/wire-error.ts';
import { ValidationError } from '../retry/errors.ts';
import {
  LONG_POLL_METHODS, WORKFLOW_SERVICE_METHODS, type CallOptions, type WorkflowService, type WorkflowServiceMethod,
} from '../history/service.ts';

/** Options of {@link HttpWorkflowService}. */
export interface HttpServiceOptions {
  /** Where the server listens, e.g. `http://127.0.0.1:7233`. */
  address: string;
  /** Per-request timeout for calls that are not long polls, ms. @default 30 000 */
  requestTimeoutMs?: number;
}

const LONG_POLLS = new Set<string>(LONG_POLL_METHODS);

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
  if (url.protocol !== 'http:') throw new ValidationError(field, 'must use http://', address);
  return url;
}

/**
 * The WorkflowService contract over HTTP: each call is one `POST /api/v1/<method>` on a
 * keep-alive connection. Connection failures surface as ServiceError `Unavailable`, so
 * callers can tell an outage from a refusal.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class HttpWorkflowService implements WorkflowService {
  readonly address: string;
  readonly #url: URL;
  readonly #agent: Agent;
  readonly #timeout: number;

  constructor(options: HttpServiceOptions) {
    this.#url = parseAddress(options.address);
    this.address = this.#url.origin;
    this.#timeout = options.requestTimeoutMs ?? 30_000;
    this.#agent = new Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 });
  }

  /** Closes pooled connections. Calls in progress fail with Unavailable. */
  close(): void {
    this.#agent.destroy();
  }

  call<T>(method: WorkflowServiceMethod, body: unknown, opts?: CallOptions): Promise<T> {
    const payload = JSON.stringify(body ?? {});
    const longPoll = LONG_POLLS.has(method);
    return new Promise<T>((resolve, reject) => {
      if (opts?.signal?.aborted) {
        resolve(null as T);
        return;
      }
      const req = request(
        {
          host: this.#url.hostname,
          port: this.#url.port || 80,
          path: `/api/v1/${method}`,
          method: 'POST',
          agent: this.#agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
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
              reject(new ServiceError('Internal', `${method}: the server answered ${res.statusCode} with a body that is not JSON`));
              return;
            }
            if ((res.statusCode ?? 500) >= 400) {
              const wire = (value as { error?: WireError } | null)?.error;
              reject(wire ? fromWireError(wire) : new ServiceError('Internal', `${method}: HTTP ${res.statusCode}`));
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

function unavailable(method: string, address: string, err: Error): ServiceError {
  return new ServiceError('Unavailable', `${method}: cannot reach the steadfast server at ${address} (${err.message})`, { cause: err });
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
