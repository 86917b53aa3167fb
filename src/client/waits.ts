import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from '../common/logger.ts';
import type { WorkflowExecutionDescription, WorkflowService } from '../protocol/index.ts';

/** Where a client says why a call keeps waiting (any {@link Logger} fits). */
export type WaitLogger = Pick<Logger, 'warn'>;

/** Writes to stderr, one line each: the client's default {@link WaitLogger}. */
export const stderrWaitLogger: WaitLogger = {
  warn: (message) => console.warn(`[steadfast client] ${message}`),
};

/**
 * Real ms a call waits on a run before the client first looks at why (one describe of the run),
 * then twice as long each time up to {@link MAX_CHECK_MS}. A call that ends sooner costs nothing.
 */
export const FIRST_CHECK_MS = 1000;
/** Longest gap between two looks at a run a call waits on, real ms. */
export const MAX_CHECK_MS = 30_000;

/** The run a wait is about. */
export interface WaitRef {
  namespace: string;
  workflowId: string;
  runId?: string | undefined;
}

/**
 * Why a run does not move while its workflow task keeps failing, from its description, or
 * undefined when its task is not failing: `the run's workflow task is failing: attempt 5,
 * BadCommand: …; see describe`.
 */
export function workflowTaskFailing(
  d: Pick<WorkflowExecutionDescription, 'pendingWorkflowTask' | 'execution' | 'taskQueueUnpolled'>,
): string | undefined {
  const f = d.pendingWorkflowTask?.lastFailure;
  // Nothing fails, but no worker polls the run's queue: `no worker has polled task queue "x" for 2 min`.
  if (!f) return d.taskQueueUnpolled?.message;
  const message = f.message.split('\n')[0];
  return `the run's workflow task is failing: attempt ${f.attempt}, ${f.cause}${f.type !== undefined ? ` (${f.type})` : ''}: ${message}; ` +
    `see describe (\`steadfast workflow describe ${d.execution.workflowId}\`: pendingWorkflowTask.lastFailure)`;
}

/**
 * Looks at a run while a call waits on it, and says why when its workflow task keeps failing:
 * once when it first sees the failure, and again when the failure's cause or message changes.
 * The run keeps its failing task (as in Temporal: a fix of the code or a reset moves it on), so
 * the call goes on waiting; this only tells why.
 */
export class RunWatch {
  #timer: NodeJS.Timeout | undefined;
  #delay = FIRST_CHECK_MS;
  #said: string | undefined;
  #stopped = false;

  constructor(
    private readonly service: WorkflowService,
    private readonly ref: () => WaitRef,
    private readonly what: string,
    private readonly logger: WaitLogger | undefined,
  ) {
    this.#schedule();
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.#check(), this.#delay);
    this.#timer.unref();
    this.#delay = Math.min(this.#delay * 2, MAX_CHECK_MS);
  }

  async #check(): Promise<void> {
    const d = await this.service.describeWorkflowExecution(this.ref()).catch(() => undefined);
    const f = d?.pendingWorkflowTask?.lastFailure;
    const key = f ? `${f.cause}\u0000${f.type ?? ''}\u0000${f.message}` : d?.taskQueueUnpolled ? 'unpolled' : undefined;
    if (!this.#stopped && d && key !== undefined && key !== this.#said) {
      this.#said = key;
      this.logger?.warn(`${this.what} is still waiting: ${workflowTaskFailing(d)}`, { workflowId: d.execution.workflowId, runId: d.execution.runId });
    }
    this.#schedule();
  }

  /** Why the run does not move, if its workflow task is failing now (one describe; undefined when it cannot tell). */
  async why(): Promise<string | undefined> {
    const d = await this.service.describeWorkflowExecution(this.ref()).catch(() => undefined);
    return d && workflowTaskFailing(d);
  }

  /** The call stopped waiting. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }
}

/**
 * What the waiting calls of one client share: the deadline or abort signal that
 * `client.withDeadline` / `client.withAbortSignal` put around them, and where to say why a wait
 * goes on.
 */
export class Waits {
  readonly #scope = new AsyncLocalStorage<AbortSignal>();

  constructor(private readonly service: WorkflowService, private readonly logger: WaitLogger | undefined) {}

  /** Runs `fn` with `signal` ending its waits (and the waits of any scope around it). */
  within<R>(signal: AbortSignal, fn: () => Promise<R>): Promise<R> {
    const outer = this.#scope.getStore();
    return this.#scope.run(outer ? AbortSignal.any([outer, signal]) : signal, fn);
  }

  /** The signal that ends the waits of the current call, if it runs in a scope. */
  get signal(): AbortSignal | undefined {
    return this.#scope.getStore();
  }

  /** Starts looking at `ref`'s run while `what` waits on it; stop it when the wait ends. */
  watch(ref: () => WaitRef, what: string): RunWatch {
    return new RunWatch(this.service, ref, what, this.logger);
  }
}
