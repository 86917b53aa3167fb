/*
 * Bulk actions by query, run in the browser: page through the runs a visibility query selects
 * and call the per-workflow endpoint for each, a bounded number at a time, reporting progress.
 */
import type { WorkflowExecutionInfo } from '../protocol/index.ts';
import { api, ApiError, type ListRequest } from './api.ts';

/** What to do to every run the query selects. */
export type BulkAction =
  | { kind: 'cancel'; reason: string }
  | { kind: 'terminate'; reason: string }
  | { kind: 'signal'; signalName: string; args: unknown[] }
  | { kind: 'reset'; resetType: 'FirstWorkflowTask' | 'LastWorkflowTask'; reason: string };

/** Where a bulk action stands. `total` is the count taken before it started; runs may come and go meanwhile. */
export interface BulkProgress {
  total: number;
  /** Runs the action was applied to. */
  done: number;
  /** Runs it does not apply to: closed before their turn (cancel, terminate, signal), or a workflow already reset. */
  skipped: number;
  failed: number;
  /** The first failures, for display (at most {@link MAX_FAILURES_KEPT}). */
  failures: { workflowId: string; runId: string; message: string }[];
  finished: boolean;
  /** Stopped by the person before the end. */
  stopped: boolean;
  /** Why listing the runs failed, which ends the action early. */
  error?: string;
}

/** How many failures a progress keeps for display. */
const MAX_FAILURES_KEPT = 20;

/** The calls a bulk action makes; the HTTP API by default, replaceable in tests. */
export type BulkCalls = Pick<typeof api, 'list' | 'cancel' | 'terminate' | 'signal' | 'reset'>;

/** Options of {@link runBulk}. */
export interface BulkOptions {
  namespace: string;
  query: string;
  action: BulkAction;
  /** The count shown in the confirmation. */
  total: number;
  /** Calls in flight at once. @default 8 */
  concurrency?: number;
  /** Runs per list page. @default 100 */
  pageSize?: number;
  /** Stops taking new runs when aborted; calls in flight finish. */
  signal?: AbortSignal;
  onProgress: (p: BulkProgress) => void;
  calls?: BulkCalls;
}

// A run that closed between the list and its call answers one of these: nothing left to do.
const GONE = new Set(['FailedPrecondition', 'NotFound']);
/** Tries of one run's call while the server answers ResourceExhausted (its per-namespace rate limits). */
const MAX_THROTTLED_TRIES = 20;

/** Calls `fn`, waiting out `ResourceExhausted` answers for the time the server asks (1 s when it does not say). */
async function throttled<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'ResourceExhausted' || tries >= MAX_THROTTLED_TRIES || signal?.aborted) throw err;
      await new Promise((resolve) => setTimeout(resolve, err.retryAfterMs ?? 1000));
    }
  }
}

function apply(calls: BulkCalls, ns: string, r: WorkflowExecutionInfo, a: BulkAction): Promise<unknown> {
  switch (a.kind) {
    case 'cancel': return calls.cancel(ns, r.workflowId, r.runId, a.reason);
    case 'terminate': return calls.terminate(ns, r.workflowId, r.runId, a.reason);
    case 'signal': return calls.signal(ns, r.workflowId, r.runId, a.signalName, a.args);
    case 'reset': return calls.reset(ns, r.workflowId, r.runId, a.resetType, a.reason);
  }
}

/**
 * Applies `action` to every run `query` selects, paging the list by token (the next page is
 * fetched while the current one is worked on) with at most `concurrency` calls in flight.
 * Resolves with the final progress; never rejects for a run's failure, which is counted instead.
 */
export async function runBulk(o: BulkOptions): Promise<BulkProgress> {
  const calls = o.calls ?? api;
  const limit = Math.max(1, o.concurrency ?? 8);
  const p: BulkProgress = { total: o.total, done: 0, skipped: 0, failed: 0, failures: [], finished: false, stopped: false };
  const report = () => o.onProgress({ ...p, failures: [...p.failures] });
  // A reset starts a new run that the same query may select again (an ascending order lists it
  // later): each workflow is reset once, and the runs a reset made are left alone.
  const seenWorkflows = new Set<string>();
  const made = new Set<string>();
  const page = (token?: string) => {
    const req: ListRequest = { namespace: o.namespace, pageSize: o.pageSize ?? 100, ...(o.query ? { query: o.query } : {}), ...(token ? { nextPageToken: token } : {}) };
    return calls.list(req);
  };
  const one = async (r: WorkflowExecutionInfo) => {
    if (o.action.kind === 'reset' ? seenWorkflows.has(r.workflowId) || made.has(r.runId) : r.status !== 'Running') {
      p.skipped++;
      return;
    }
    seenWorkflows.add(r.workflowId);
    try {
      const answer = await throttled(() => apply(calls, o.namespace, r, o.action), o.signal);
      if (o.action.kind === 'reset') made.add((answer as { runId: string }).runId);
      p.done++;
    } catch (err) {
      if (err instanceof ApiError && GONE.has(err.code) && o.action.kind !== 'reset') {
        p.skipped++;
      } else {
        p.failed++;
        if (p.failures.length < MAX_FAILURES_KEPT) p.failures.push({ workflowId: r.workflowId, runId: r.runId, message: (err as Error).message });
      }
    }
    report();
  };
  report();
  let next: ReturnType<typeof page> | undefined = page();
  try {
    while (next && !o.signal?.aborted) {
      const res: Awaited<ReturnType<typeof page>> = await next;
      next = res.nextPageToken ? page(res.nextPageToken) : undefined;
      const queue = [...res.executions];
      const worker = async () => {
        for (let r = queue.shift(); r && !o.signal?.aborted; r = queue.shift()) await one(r);
      };
      await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker));
    }
  } catch (err) {
    p.error = `listing the runs failed: ${(err as Error).message}`;
  }
  // A page fetched ahead and not used must not surface as an unhandled rejection.
  next?.catch(() => undefined);
  p.stopped = !!o.signal?.aborted;
  p.finished = true;
  report();
  return p;
}
