import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { ServiceError } from '../common/errors.ts';
import { errorAnswer, type ServerLogger } from './error-answer.ts';
import { ValidationError } from '../errors/index.ts';
import { LONG_POLL_METHODS, WORKFLOW_SERVICE_METHODS, type WorkflowService, type WorkflowServiceMethod } from '../protocol/index.ts';

/** The route of {@link runBatch}: `POST /api/v1/batch`. */
export const BATCH_ROUTE = 'batch';

/** Most calls one batch request may carry. */
const MAX_BATCH_CALLS = 1000;

/** One call of a batch request, as validated by {@link parseBatch}. */
export interface BatchCall {
  /** The caller's id for the call, echoed on its answer line. */
  id: number;
  /** Any string; one that names no service method is answered NotFound on its own line. */
  method: string;
  /** The request; a value that is not an object is answered InvalidArgument on its own line. */
  body: unknown;
}

const METHODS = new Set<string>(WORKFLOW_SERVICE_METHODS);
const LONG_POLLS = new Set<string>(LONG_POLL_METHODS);
/**
 * Task polls need a request of their own: the single route gives a task back when its
 * client left before the answer, which a batch whose other lines are still due cannot do.
 */
const TASK_POLLS = new Set<string>(['pollWorkflowTaskQueue', 'pollActivityTaskQueue']);

/**
 * Checks the shape of a batch request body: `{ calls: [{ id, method, body }, …] }` with 1 to
 * {@link MAX_BATCH_CALLS} calls, ids unique non-negative integers, methods strings. Throws a
 * ValidationError naming the field; a batch that fails here runs none of its calls.
 */
export function parseBatch(body: unknown): BatchCall[] {
  const calls = (body as { calls?: unknown } | null)?.calls;
  if (!Array.isArray(calls)) throw new ValidationError('calls', `must be an array of 1 to ${MAX_BATCH_CALLS} calls`, calls);
  if (calls.length === 0 || calls.length > MAX_BATCH_CALLS) {
    throw new ValidationError('calls', `must hold 1 to ${MAX_BATCH_CALLS} calls`, calls);
  }
  const ids = new Set<number>();
  return calls.map((call: unknown, i) => {
    if (typeof call !== 'object' || call === null || Array.isArray(call)) {
      throw new ValidationError(`calls[${i}]`, 'must be an object { id, method, body }', call);
    }
    const { id, method, body: request } = call as Record<string, unknown>;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0 || ids.has(id)) {
      throw new ValidationError(`calls[${i}].id`, 'must be a unique non-negative integer', id);
    }
    ids.add(id);
    if (typeof method !== 'string') throw new ValidationError(`calls[${i}].method`, 'must be a string naming a service method', method);
    return { id, method, body: request === undefined ? {} : request };
  });
}

/**
 * Runs a parsed batch's calls concurrently, started in the order given, and streams one
 * NDJSON line per call as it finishes: `{"id":n,"status":200,"result":…}` or
 * `{"id":n,"status":s,"error":{…}}` with the status and error a single route would give.
 * Lines finished in the same event-loop turn leave in one socket write. Long polls get
 * `signal`; a 500's detail goes to `logger` (see errorAnswer). Resolves once every call has answered and the response has ended (a response
 * whose client left gets no more lines, but its calls still run to the end).
 */
export function runBatch(
  service: WorkflowService, calls: readonly BatchCall[], res: ServerResponse, signal: AbortSignal,
  headers: () => OutgoingHttpHeaders, logger: ServerLogger,
): Promise<void> {
  let pending: string[] = [];
  let tick: NodeJS.Immediate | undefined;
  let remaining = calls.length;

  const take = (): string => {
    const text = pending.join('');
    pending = [];
    if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/x-ndjson', ...headers() });
    return text;
  };
  // One write per turn, not per line: each write is a syscall, and under load a turn
  // often finishes dozens of calls.
  const flush = () => {
    tick = undefined;
    if (pending.length > 0 && !res.destroyed) res.write(take());
  };

  return new Promise<void>((resolve) => {
    const answered = (line: string) => {
      pending.push(line);
      if (--remaining > 0) {
        tick ??= setImmediate(flush);
        return;
      }
      if (tick) clearImmediate(tick);
      tick = undefined;
      if (!res.destroyed) res.end(take());
      resolve();
    };
    calls.forEach((call, i) => void answer(service, call, i, signal, logger).then(answered));
  });
}

/** The answer line of one call; never rejects. */
async function answer(service: WorkflowService, call: BatchCall, index: number, signal: AbortSignal, logger: ServerLogger): Promise<string> {
  try {
    const result = await invoke(service, call, index, signal);
    return `${JSON.stringify({ id: call.id, status: 200, result: result ?? null })}\n`;
  } catch (err) {
    const { status, error } = errorAnswer(err, `batch ${call.method}`, logger);
    return `${JSON.stringify({ id: call.id, status, error })}\n`;
  }
}

function invoke(service: WorkflowService, call: BatchCall, index: number, signal: AbortSignal): Promise<unknown> {
  const { method, body } = call;
  if (!METHODS.has(method)) {
    throw new ServiceError('NotFound', `unknown API method "${method}"; known: ${WORKFLOW_SERVICE_METHODS.join(', ')}`);
  }
  if (TASK_POLLS.has(method)) {
    throw new ValidationError(`calls[${index}].method`, 'must not be a task poll: a task poll takes a request of its own', method);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError(`calls[${index}].body`, 'must be a JSON object', body);
  }
  const fn = service[method as WorkflowServiceMethod] as (req: unknown, opts?: unknown) => Promise<unknown>;
  return LONG_POLLS.has(method) ? fn.call(service, body, { signal }) : fn.call(service, body);
}
