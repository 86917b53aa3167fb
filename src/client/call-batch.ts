import type { Connection } from './connection.ts';
import { ServiceError } from '../common/errors.ts';
import { fromWireError, type WireError } from '../protocol/wire-error.ts';
import type { WorkflowServiceMethod } from '../protocol/index.ts';

/** A call waiting for its answer from a batch request. */
export interface QueuedCall {
  readonly method: WorkflowServiceMethod;
  /** The request body, already JSON. */
  readonly payload: string;
  /** Long polls are exempt from the per-call timeout. */
  readonly longPoll: boolean;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** Where and how a batch request is sent. */
export interface BatchTarget {
  url: URL;
  /** The origin, for error messages. */
  address: string;
  /** The agent, request function and headers of every call. */
  connection: Connection;
  /** Per-call timeout of calls that are not long polls, ms. */
  timeoutMs: number;
}

/** Most calls per batch request; the server accepts up to 1,000. */
const MAX_CALLS = 1000;
/**
 * Most payload characters per batch request. A character is at most 3 bytes of UTF-8, so a
 * full batch stays under the server's default 8 MiB body limit; a larger payload goes alone.
 */
const MAX_CHARS = 1024 * 1024;

/** Splits calls into groups a batch request can carry, in order. A group of one goes on the plain route. */
export function groupCalls(calls: readonly QueuedCall[]): QueuedCall[][] {
  const groups: QueuedCall[][] = [];
  let group: QueuedCall[] = [];
  let chars = 0;
  for (const call of calls) {
    if (group.length > 0 && (group.length === MAX_CALLS || chars + call.payload.length > MAX_CHARS)) {
      groups.push(group);
      group = [];
      chars = 0;
    }
    group.push(call);
    chars += call.payload.length;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** The error of a call that could not reach the server (or got no answer in time). */
export function unavailable(method: string, address: string, err: Error): ServiceError {
  return new ServiceError('Unavailable', `${method}: cannot reach the steadfast server at ${address} (${err.message})`, { cause: err });
}

/**
 * Sends calls as one `POST /api/v1/batch` and settles each from its NDJSON answer line as the
 * line arrives. A connection failure rejects every call still unanswered with Unavailable.
 *
 * Timeouts: one deadline for the whole request, `timeoutMs` after it is sent; at the deadline
 * each unanswered call that is not a long poll fails with Unavailable on its own, while long
 * polls in the same batch keep waiting on the still-open response (the request is cut only
 * when no call is left waiting).
 *
 * `unsupported` receives the calls when the server has no batch route (it answered 404
 * before running any of them), so they can be sent one by one.
 */
export function sendBatch(target: BatchTarget, calls: readonly QueuedCall[], unsupported: (calls: readonly QueuedCall[]) => void): void {
  const open: (QueuedCall | undefined)[] = [...calls];
  let remaining = calls.length;
  let timer: NodeJS.Timeout | undefined;

  const settle = (id: number): QueuedCall | undefined => {
    const call = open[id];
    if (!call) return undefined;
    open[id] = undefined;
    if (--remaining === 0 && timer) clearTimeout(timer);
    return call;
  };
  const failAll = (error: (call: QueuedCall) => Error) => {
    open.forEach((_, id) => {
      const call = settle(id);
      call?.reject(error(call));
    });
  };

  const body = `{"calls":[${calls.map((c, id) => `{"id":${id},"method":"${c.method}","body":${c.payload}}`).join(',')}]}`;
  const req = target.connection.request(
    {
      host: target.url.hostname,
      port: target.url.port || target.connection.defaultPort,
      path: '/api/v1/batch',
      method: 'POST',
      agent: target.connection.agent,
      headers: { ...target.connection.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    },
    (res) => {
      res.setEncoding('utf8');
      res.on('error', (err) => failAll((c) => unavailable(c.method, target.address, err)));
      res.on('close', () => {
        if (!res.complete) failAll((c) => unavailable(c.method, target.address, new Error('the connection closed before the call was answered')));
      });
      if (res.statusCode !== 200) {
        let text = '';
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (res.statusCode === 404) {
            const waiting = open.filter((c): c is QueuedCall => c !== undefined);
            open.fill(undefined);
            remaining = 0;
            if (timer) clearTimeout(timer);
            unsupported(waiting);
            return;
          }
          let wire: WireError | undefined;
          try {
            wire = (JSON.parse(text) as { error?: WireError } | null)?.error;
          } catch {
            wire = undefined;
          }
          failAll((c) => (wire ? fromWireError(wire) : new ServiceError('Internal', `${c.method}: HTTP ${res.statusCode}`)));
        });
        return;
      }
      let buffered = '';
      const onLine = (line: string) => {
        let answer: { id?: unknown; status?: unknown; result?: unknown; error?: WireError };
        try {
          answer = JSON.parse(line) as typeof answer;
        } catch {
          failAll((c) => new ServiceError('Internal', `${c.method}: the server answered the batch with a line that is not JSON`));
          req.destroy();
          return;
        }
        const call = typeof answer.id === 'number' ? settle(answer.id) : undefined;
        if (!call) return;
        if (answer.status === 200) call.resolve(answer.result ?? null);
        else call.reject(answer.error ? fromWireError(answer.error) : new ServiceError('Internal', `${call.method}: HTTP ${String(answer.status)}`));
      };
      // Lines may span chunks: only text up to the last newline is parsed, the rest waits.
      res.on('data', (chunk: string) => {
        buffered += chunk;
        let start = 0;
        for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n', start)) {
          if (nl > start) onLine(buffered.slice(start, nl));
          start = nl + 1;
        }
        buffered = buffered.slice(start);
      });
      res.on('end', () => {
        if (buffered.trim().length > 0) onLine(buffered);
        failAll((c) => new ServiceError('Internal', `${c.method}: the server ended the batch without answering the call`));
      });
    },
  );
  req.on('error', (err) => failAll((c) => unavailable(c.method, target.address, err)));
  if (calls.some((c) => !c.longPoll)) {
    timer = setTimeout(() => {
      timer = undefined;
      const late = new Error(`no answer within ${target.timeoutMs} ms`);
      open.forEach((call, id) => {
        if (call && !call.longPoll) settle(id)?.reject(unavailable(call.method, target.address, late));
      });
      if (remaining === 0) req.destroy();
    }, target.timeoutMs);
  }
  req.end(body);
}
