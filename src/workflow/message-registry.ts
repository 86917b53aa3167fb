import { IllegalStateError } from '../common/errors.ts';
import { Failure, fromFailureInfo, toFailureInfo, type FailureInfo } from '../common/failure.ts';
import { STACK_TRACE_QUERY } from '../common/message-definitions.ts';
import { checkQueryResult } from './command-payloads.ts';
import type { ActivationJob, MessageAnswer, MessageRequest } from './activation.ts';
import type { Activator } from './activator.ts';
import { headerField, headersOf, inbound, outbound, type QueryInput } from './interceptors.ts';
import { WORKFLOW_METADATA_QUERY, workflowMetadata } from './metadata-query.ts';
import { HandlerUnfinishedPolicy, runInScope, updateScope, type RunningHandler } from './handlers.ts';

type AnyHandler = (...args: unknown[]) => unknown;
type Job<K extends ActivationJob['type']> = Extract<ActivationJob, { type: K }>;

/** An update handler with its optional validator. */
interface UpdateHandlerEntry {
  handler: AnyHandler;
  validator?: AnyHandler;
  policy?: HandlerUnfinishedPolicy;
}

/** Options of a signal or update handler as the registry keeps them. */
export interface HandlerSettings {
  validator?: AnyHandler | undefined;
  policy?: HandlerUnfinishedPolicy;
}

/**
 * The run's signal, query and update handlers, the messages waiting for a handler, the
 * signals it sent to other workflows, and the stacks of its pending awaits. Signals and
 * updates that arrive before `setHandler` wait, in arrival order, and are delivered when their
 * handler is set; they are never dropped.
 */
export class MessageRegistry {
  readonly signals = new Map<string, AnyHandler>();
  readonly queries = new Map<string, AnyHandler>();
  readonly updates = new Map<string, UpdateHandlerEntry>();
  readonly #signalPolicies = new Map<string, HandlerUnfinishedPolicy>();
  /** The handlers for names without one of their own (setDefaultSignalHandler, …): called with the name, then the args. */
  #defaultSignal: { handler: AnyHandler; policy: HandlerUnfinishedPolicy } | undefined;
  #defaultQuery: AnyHandler | undefined;
  #defaultUpdate: UpdateHandlerEntry | undefined;
  /** Signal and update handlers running now, for allHandlersFinished() and the unfinished-handler warning. */
  readonly running = new Map<number, RunningHandler>();
  #runningSeq = 0;
  readonly #bufferedSignals: Job<'signalWorkflow'>[] = [];
  readonly #bufferedUpdates: Job<'doUpdate'>[] = [];
  readonly #external = new Map<string, { resolve(): void; reject(e: unknown): void }>();
  #externalSeq = 0;
  readonly #cancels = new Map<string, { resolve(): void; reject(e: unknown): void }>();
  #cancelSeq = 0;
  #querySeq = 0;
  /** The answer of a query an async interceptor answered (see answer()). */
  #settled: MessageAnswer | undefined;
  /** Where each pending await was created, by a key naming it; only when capturing is on. */
  readonly #stacks = new Map<string, string>();
  /** Set while a query handler or an update validator runs: commands are refused then. */
  readOnly: string | undefined;
  readOnlyViolation: string | undefined;

  constructor(private readonly activator: Activator, private readonly captureStacks: boolean) {}

  onSignal(job: Job<'signalWorkflow'>): void {
    const handler = this.signals.get(job.signalName);
    if (handler) this.#runSignal(handler, job, this.#signalPolicies.get(job.signalName));
    else if (this.#defaultSignal) this.#runDefaultSignal(job);
    else this.#bufferedSignals.push(job);
  }

  onUpdate(job: Job<'doUpdate'>): void {
    const entry = this.updates.get(job.updateName);
    if (entry) this.#runUpdate(entry, job);
    else if (this.#defaultUpdate) this.#runUpdate(this.#defaultUpdate, job, true);
    else this.#bufferedUpdates.push(job);
  }

  onSignalExternalResolved(job: Job<'resolveSignalExternal'>): void {
    const c = this.#external.get(job.signalId);
    if (!c) return;
    this.#external.delete(job.signalId);
    this.untrack(`signal-external:${job.signalId}`);
    if (job.failure) c.reject(fromFailureInfo(job.failure));
    else c.resolve();
  }

  onCancelExternalResolved(job: Job<'resolveRequestCancelExternal'>): void {
    const c = this.#cancels.get(job.seq);
    if (!c) return;
    this.#cancels.delete(job.seq);
    this.untrack(`cancel-external:${job.seq}`);
    if (job.failure) c.reject(fromFailureInfo(job.failure));
    else c.resolve();
  }

  /** Sets or removes a handler; buffered signals and updates of that name are delivered now, in order. */
  set(kind: 'signal' | 'query' | 'update', name: string, handler: AnyHandler | undefined, settings: HandlerSettings = {}): void {
    const { validator, policy } = settings;
    if (kind === 'query') {
      if (handler) this.queries.set(name, handler);
      else this.queries.delete(name);
      return;
    }
    if (kind === 'signal') {
      if (!handler) {
        this.signals.delete(name);
        return;
      }
      this.signals.set(name, handler);
      if (policy !== undefined) this.#signalPolicies.set(name, policy);
      else this.#signalPolicies.delete(name);
      for (const job of this.#takeBuffered(this.#bufferedSignals, (j) => j.signalName === name)) this.#runSignal(handler, job, policy);
      return;
    }
    if (!handler) {
      this.updates.delete(name);
      return;
    }
    const entry: UpdateHandlerEntry = { handler, ...(validator ? { validator } : {}), ...(policy !== undefined ? { policy } : {}) };
    this.updates.set(name, entry);
    for (const job of this.#takeBuffered(this.#bufferedUpdates, (j) => j.updateName === name)) this.#runUpdate(entry, job);
  }

  /** Sets or removes the handler for names without their own; buffered messages go to it now, in order. */
  setDefault(kind: 'signal' | 'query' | 'update', handler: AnyHandler | undefined, settings: HandlerSettings = {}): void {
    if (kind === 'query') {
      this.#defaultQuery = handler;
      return;
    }
    if (kind === 'signal') {
      this.#defaultSignal = handler && { handler, policy: settings.policy ?? HandlerUnfinishedPolicy.WARN_AND_ABANDON };
      if (handler) for (const job of this.#takeBuffered(this.#bufferedSignals, () => true)) this.#runDefaultSignal(job);
      return;
    }
    const entry = handler && { handler, ...(settings.validator ? { validator: settings.validator } : {}), ...(settings.policy !== undefined ? { policy: settings.policy } : {}) };
    this.#defaultUpdate = entry;
    if (entry) for (const job of this.#takeBuffered(this.#bufferedUpdates, () => true)) this.#runUpdate(entry, job, true);
  }

  /** Records a handler as running until the returned function is called. */
  #started(h: RunningHandler): () => void {
    const seq = ++this.#runningSeq;
    this.running.set(seq, h);
    return () => this.running.delete(seq);
  }

  #takeBuffered<T>(list: T[], match: (j: T) => boolean): T[] {
    const taken = list.filter(match);
    for (const j of taken) list.splice(list.indexOf(j), 1);
    return taken;
  }

  #runDefaultSignal(job: Job<'signalWorkflow'>): void {
    const d = this.#defaultSignal!;
    this.#runSignal((...args: unknown[]) => d.handler(job.signalName, ...args), job, d.policy);
  }

  #runSignal(handler: AnyHandler, job: Job<'signalWorkflow'>, policy = HandlerUnfinishedPolicy.WARN_AND_ABANDON): void {
    const finished = this.#started({ kind: 'signal', name: job.signalName, policy });
    const handle = inbound(this.activator.interceptors, 'handleSignal', async (input) => {
      await handler(...input.args);
    });
    try {
      handle({ signalName: job.signalName, args: job.args, headers: headersOf(job.header) }).then(finished, (err: unknown) => {
        finished();
        this.activator.handlerThrew(err);
      });
    } catch (err) {
      finished();
      this.activator.handlerThrew(err);
    }
  }

  #runUpdate(entry: UpdateHandlerEntry, job: Job<'doUpdate'>, byDefault = false): void {
    if (job.validate) {
      const verdict = this.answer({ kind: 'validateUpdate', updateName: job.updateName, updateId: job.updateId, args: job.args, ...(job.header ? { header: job.header } : {}) });
      if (verdict.failure) {
        this.#reject(job, verdict.failure);
        return;
      }
    }
    const finished = this.#started({
      kind: 'update', name: job.updateName, id: job.updateId, policy: entry.policy ?? HandlerUnfinishedPolicy.WARN_AND_ABANDON,
    });
    const complete = (outcome: { result: unknown } | { failure: FailureInfo }) => {
      finished();
      this.activator.pushOrFailTask({
        commandType: 'CompleteWorkflowExecutionUpdate', attributes: { updateId: job.updateId, acceptedEventId: job.acceptedEventId, outcome },
      });
    };
    // Temporal's rule, as for the workflow function: a failure class fails the update; any other
    // error fails the workflow task, so a fixed deployment can complete the update.
    const threw = (err: unknown) => {
      finished();
      if (err instanceof Failure) complete({ failure: toFailureInfo(err) });
      else this.activator.failTask(err);
    };
    const handle = inbound(this.activator.interceptors, 'handleUpdate', async (input) => {
      const args = byDefault ? [input.name, ...input.args] : input.args;
      return runInScope(updateScope({ id: input.updateId, name: input.name }), () => entry.handler(...args));
    });
    try {
      handle({ updateId: job.updateId, name: job.updateName, args: job.args, headers: headersOf(job.header) })
        .then((result) => complete({ result: result ?? null }), threw);
    } catch (err) {
      threw(err);
    }
  }

  /** Ends an admitted update its validator refused: its outcome is the validator's failure. */
  #reject(job: Job<'doUpdate'>, failure: FailureInfo): void {
    this.activator.pushOrFailTask({
      commandType: 'CompleteWorkflowExecutionUpdate', attributes: { updateId: job.updateId, acceptedEventId: job.acceptedEventId, outcome: { failure } },
    });
  }

  /**
   * At the end of an activation, rejects the admitted updates still waiting for a handler, as
   * Temporal rejects an update no handler took in the activation that delivered it: an admitted
   * update is accepted or rejected by the workflow task that delivers it.
   */
  rejectUnhandledAdmitted(): void {
    for (const job of this.#takeBuffered(this.#bufferedUpdates, (j) => j.validate === true)) {
      this.#reject(job, unknown('update', job.updateName, [...this.updates.keys()]));
    }
  }

  /** Sends a signal to another workflow (SignalExternalWorkflowExecution); resolves once delivered. */
  signalExternal(target: { workflowId: string; runId?: string }, signalName: string, args: unknown[], child = false): Promise<void> {
    const send = outbound(this.activator.interceptors, 'signalWorkflow', (input) => {
      const signalId = String(++this.#externalSeq);
      const to = input.target.type === 'child' ? { workflowId: input.target.childWorkflowId } : input.target.workflowExecution;
      return new Promise<void>((resolve, reject) => {
        this.activator.pushCommand({
          commandType: 'SignalExternalWorkflowExecution',
          attributes: {
            signalId, workflowId: to.workflowId, ...(to.runId ? { runId: to.runId } : {}), signalName: input.signalName, args: input.args,
            ...headerField(input.headers),
          },
        });
        this.#external.set(signalId, { resolve, reject });
        this.track(`signal-external:${signalId}`, `signal "${input.signalName}" to workflow ${to.workflowId}`);
      });
    });
    return send({
      seq: this.#externalSeq + 1, signalName, args, headers: {},
      target: child ? { type: 'child', childWorkflowId: target.workflowId } : { type: 'external', workflowExecution: target },
    });
  }

  /**
   * Asks another workflow to cancel (RequestCancelExternalWorkflowExecution, `control` the
   * request's sequence number); resolves once the request is recorded in the target's history.
   * `childWorkflowOnly` limits it to a child of this run.
   */
  cancelExternal(target: { workflowId: string; runId?: string }, childWorkflowOnly = false): Promise<void> {
    const control = String(++this.#cancelSeq);
    return new Promise<void>((resolve, reject) => {
      this.activator.pushCommand({
        commandType: 'RequestCancelExternalWorkflowExecution',
        attributes: { workflowId: target.workflowId, ...(target.runId ? { runId: target.runId } : {}), childWorkflowOnly, control },
      });
      this.#cancels.set(control, { resolve, reject });
      this.track(`cancel-external:${control}`, `cancel request to workflow ${target.workflowId}`);
    });
  }

  /** Records where an awaitable was created (only in sandboxes made to answer queries). */
  track(key: string, what: string): void {
    if (!this.captureStacks) return;
    const stack = (new Error().stack ?? '').split('\n').slice(3).join('\n');
    this.#stacks.set(key, `${what}\n${stack}`);
  }

  untrack(key: string): void {
    if (this.captureStacks) this.#stacks.delete(key);
  }

  /** Answers a query or validates an update without letting the handler emit commands. */
  answer(req: MessageRequest): MessageAnswer {
    if (req.kind === 'query' && req.queryType === STACK_TRACE_QUERY) return { result: [...this.#stacks.values()].join('\n\n') };
    if (req.kind === 'query' && req.queryType === WORKFLOW_METADATA_QUERY) {
      const builtIn = [STACK_TRACE_QUERY, WORKFLOW_METADATA_QUERY];
      return { result: workflowMetadata(this.activator.info.workflowType, { signals: this.signals.keys(), queries: this.queries.keys(), updates: this.updates.keys() }, builtIn, this.activator.currentDetails) };
    }
    const name = req.kind === 'query' ? req.queryType : req.updateName;
    const what = req.kind === 'query' ? `query handler "${name}"` : `validator of update "${name}"`;
    let fn: AnyHandler | undefined;
    if (req.kind === 'query') {
      fn = this.queries.get(name);
      const byDefault = this.#defaultQuery;
      if (!fn && byDefault) fn = (...args: unknown[]) => byDefault(name, ...args);
      if (!fn) return { failure: unknown('query', name, [STACK_TRACE_QUERY, ...this.queries.keys()]) };
    } else {
      const own = this.updates.get(name);
      const entry = own ?? this.#defaultUpdate;
      if (!entry) return { failure: unknown('update', name, [...this.updates.keys()]) };
      const validator = entry.validator;
      fn = own || !validator ? validator : (...args: unknown[]) => validator(name, ...args);
      if (!fn) return {};
    }
    this.readOnly = what;
    this.readOnlyViolation = undefined;
    const handler = fn;
    const call = (args: unknown[]) => {
      const r = handler(...args);
      if (isThenable(r)) {
        r.then(undefined, () => undefined);
        throw new IllegalStateError(`${what} returned a promise; it must be synchronous and read-only`);
      }
      return r;
    };
    const headers = headersOf(req.header);
    let pending = false;
    try {
      let result: unknown;
      if (req.kind === 'query') {
        const handle = inbound(this.activator.interceptors, 'handleQuery', ((input) => call(input.args)) as (input: QueryInput) => Promise<unknown>);
        result = handle({ queryId: String(++this.#querySeq), queryName: name, args: req.args, headers });
      } else {
        inbound(this.activator.interceptors, 'validateUpdate', (input) => {
          call(input.args);
        })({ updateId: req.updateId ?? '', name, args: req.args, headers });
      }
      if (isThenable(result)) {
        // An async interceptor: the answer is read once the realm's microtasks ran (settledAnswer).
        pending = true;
        this.#settled = undefined;
        result.then((value) => {
          this.#settled = this.#queryAnswer(value);
        }, (err: unknown) => {
          this.#settled = { failure: toFailureInfo(this.readOnlyViolation ? new IllegalStateError(this.readOnlyViolation) : err) };
        });
        return { pending: true };
      }
      return req.kind === 'query' ? this.#queryAnswer(result) : this.#violation() ?? {};
    } catch (err) {
      return { failure: toFailureInfo(this.readOnlyViolation ? new IllegalStateError(this.readOnlyViolation) : err) };
    } finally {
      if (!pending) this.readOnly = undefined;
    }
  }

  /** The answer of a query whose interceptors answered asynchronously, after the realm's microtasks ran. */
  settledAnswer(): MessageAnswer {
    this.readOnly = undefined;
    return this.#settled ?? { failure: toFailureInfo(new IllegalStateError('a query interceptor did not settle within the query (it must not wait on workflow operations)')) };
  }

  #violation(): MessageAnswer | undefined {
    return this.readOnlyViolation ? { failure: toFailureInfo(new IllegalStateError(this.readOnlyViolation)) } : undefined;
  }

  #queryAnswer(result: unknown): MessageAnswer {
    const violation = this.#violation();
    if (violation) return violation;
    try {
      checkQueryResult(result);
    } catch (err) {
      return { failure: toFailureInfo(err) };
    }
    return { result: result ?? null };
  }
}

function unknown(kind: string, name: string, known: string[]): FailureInfo {
  return {
    kind: 'Application', type: kind === 'query' ? 'QueryNotRegistered' : 'UpdateNotRegistered', nonRetryable: true,
    message: `the workflow has no ${kind} handler named "${name}"; registered: ${known.join(', ') || '(none)'}`,
  };
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}
