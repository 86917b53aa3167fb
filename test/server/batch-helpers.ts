import { request, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import type { CallOptions, WorkflowService } from '../../src/protocol/index.ts';

/** A batch response read line by line as it streams in. */
export interface BatchStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Answer lines parsed so far, in arrival order. */
  lines: any[];
  /** Resolves once at least `n` lines have arrived; rejects if the response ends first. */
  waitForLines(n: number): Promise<void>;
  /** Resolves when the response has ended. */
  ended: Promise<void>;
  req: ClientRequest;
}

/** Posts a batch body and resolves with the open response once its head has arrived. */
export function openBatch(address: string, body: unknown): Promise<BatchStream> {
  const url = new URL('/api/v1/batch', address);
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST',
      headers: { 'content-type': 'application/json' } }, (res) => {
      res.setEncoding('utf8');
      const lines: any[] = [];
      const waiters = new Set<() => void>();
      let buffered = '';
      let done = false;
      const ended = new Promise<void>((r) => res.on('end', () => {
        done = true;
        for (const w of waiters) w();
        r();
      }));
      res.on('data', (chunk: string) => {
        buffered += chunk;
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        for (const p of parts) if (p) lines.push(JSON.parse(p));
        for (const w of waiters) w();
      });
      res.on('error', () => undefined);
      resolve({
        status: res.statusCode ?? 0, headers: res.headers, lines, ended, req,
        waitForLines: (n) => new Promise<void>((ok, fail) => {
          const check = () => {
            if (lines.length >= n) {
              waiters.delete(check);
              ok();
            } else if (done) {
              waiters.delete(check);
              fail(new Error(`the response ended after ${lines.length} of ${n} lines`));
            }
          };
          waiters.add(check);
          check();
        }),
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** Sends a request with a raw body and parses the JSON answer. */
export function rawRequest(address: string, path: string, body: string, method = 'POST'): Promise<{ status: number; json: any }> {
  const url = new URL(path, address);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method,
      headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A promise with its settle functions. */
export function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Wraps a service to record every call it receives and the AbortSignal each long poll got.
 * `describeWorkflowExecution` of a workflow id in `gates` answers with the gate's value when
 * the test opens it, so a test decides when that call finishes.
 */
export function recording(service: WorkflowService) {
  const calls: string[] = [];
  const signals: AbortSignal[] = [];
  const gates = new Map<string, Promise<unknown>>();
  const wrapped = new Proxy(service, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (req: any, opts?: CallOptions) => {
        calls.push(prop);
        if (opts?.signal) signals.push(opts.signal);
        const gate = prop === 'describeWorkflowExecution' ? gates.get(req?.workflowId) : undefined;
        return gate ?? (value as (r: unknown, o?: CallOptions) => Promise<unknown>).call(target, req, opts);
      };
    },
  });
  return { service: wrapped, calls, signals, gates };
}
