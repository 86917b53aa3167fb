import {
  messageNameOf, type QueryDefinition, type SignalDefinition, type UpdateDefinition,
} from '../common/message-definitions.ts';
import { ValidationError } from '../errors/index.ts';
import { activator } from './activator.ts';
import { unfinishedPolicyOf, type HandlerUnfinishedPolicy } from './handlers.ts';
import type { HandlerSettings } from './message-registry.ts';

/** Defines a signal; give the same object to `setHandler` in the workflow and to `handle.signal` in a client. */
export function defineSignal<Args extends unknown[] = [], Name extends string = string>(name: Name): SignalDefinition<Args, Name> {
  return { type: 'signal', name: messageNameOf('name', name, 'signal') as Name };
}

/** Defines a query; its handler must be synchronous and read-only. */
export function defineQuery<Ret, Args extends unknown[] = [], Name extends string = string>(name: Name): QueryDefinition<Ret, Args, Name> {
  return { type: 'query', name: messageNameOf('name', name, 'query') as Name };
}

/** Defines an update; its handler may change state, await activities and timers, and return a result. */
export function defineUpdate<Ret, Args extends unknown[] = [], Name extends string = string>(name: Name): UpdateDefinition<Ret, Args, Name> {
  return { type: 'update', name: messageNameOf('name', name, 'update') as Name };
}

/** Options of a signal handler (Temporal's SignalHandlerOptions). */
export interface SignalHandlerOptions {
  /** Shown to tools that list the workflow's handlers. */
  description?: string;
  /** What to do if the handler is still running when the run completes or continues as new. @default HandlerUnfinishedPolicy.WARN_AND_ABANDON */
  unfinishedPolicy?: HandlerUnfinishedPolicy;
}

/** Options of a query handler. */
export interface QueryHandlerOptions {
  description?: string;
}

/** Options of an update handler. */
export interface UpdateHandlerOptions<Args extends unknown[]> {
  /**
   * Runs before the update is accepted, read-only like a query: throwing rejects the update,
   * and a rejected update leaves no trace in history. Must be synchronous.
   */
  validator?: (...args: Args) => void;
  description?: string;
  /** What to do if the handler is still running when the run completes or continues as new. @default HandlerUnfinishedPolicy.WARN_AND_ABANDON */
  unfinishedPolicy?: HandlerUnfinishedPolicy;
}

/**
 * Sets (or, with `undefined`, removes) the handler of a signal, query or update. Signals and
 * updates that arrived before their handler was set are delivered at once, in arrival order.
 */
export function setHandler<Args extends unknown[]>(
  def: SignalDefinition<Args>, handler: ((...args: Args) => void | Promise<void>) | undefined, options?: SignalHandlerOptions): void;
export function setHandler<Ret, Args extends unknown[]>(
  def: QueryDefinition<Ret, Args>, handler: ((...args: Args) => Ret) | undefined, options?: QueryHandlerOptions): void;
export function setHandler<Ret, Args extends unknown[]>(
  def: UpdateDefinition<Ret, Args>, handler: ((...args: Args) => Ret | Promise<Ret>) | undefined, options?: UpdateHandlerOptions<Args>): void;
export function setHandler(
  def: SignalDefinition<unknown[]> | QueryDefinition<unknown, unknown[]> | UpdateDefinition<unknown, unknown[]>,
  handler: ((...args: unknown[]) => unknown) | undefined,
  options?: UpdateHandlerOptions<unknown[]>,
): void {
  const kind = (def as { type?: unknown })?.type;
  if (kind !== 'signal' && kind !== 'query' && kind !== 'update') {
    throw new ValidationError('def', 'must come from defineSignal, defineQuery or defineUpdate', def);
  }
  const name = messageNameOf('def.name', def, kind);
  if (handler !== undefined && typeof handler !== 'function') throw new ValidationError('handler', 'must be a function or undefined', handler);
  activator().messages.set(kind, name, handler, settingsOf(kind, options));
}

function settingsOf(kind: 'signal' | 'query' | 'update', options: UpdateHandlerOptions<unknown[]> | undefined): HandlerSettings {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be an object', options);
  const validator = options.validator;
  if (validator !== undefined && (kind !== 'update' || typeof validator !== 'function')) {
    throw new ValidationError('options.validator', kind === 'update' ? 'must be a function' : `is not an option of a ${kind} handler`, validator);
  }
  if (options.description !== undefined && typeof options.description !== 'string') {
    throw new ValidationError('options.description', 'must be a string', options.description);
  }
  if (kind === 'query') {
    if (options.unfinishedPolicy !== undefined) throw new ValidationError('options.unfinishedPolicy', 'is not an option of a query handler', options.unfinishedPolicy);
    return {};
  }
  return { validator, policy: unfinishedPolicyOf('options.unfinishedPolicy', options.unfinishedPolicy) };
}

/** Handles every signal whose name has no handler of its own: called with the signal's name, then its args. */
export function setDefaultSignalHandler(
  handler: ((signalName: string, ...args: any[]) => void | Promise<void>) | undefined, options?: SignalHandlerOptions,
): void {
  if (handler !== undefined && typeof handler !== 'function') throw new ValidationError('handler', 'must be a function or undefined', handler);
  activator().messages.setDefault('signal', handler as ((...args: unknown[]) => unknown) | undefined, settingsOf('signal', options));
}

/** Answers every query whose name has no handler of its own: called with the query's name, then its args. */
export function setDefaultQueryHandler(handler: ((queryName: string, ...args: any[]) => unknown) | undefined): void {
  if (handler !== undefined && typeof handler !== 'function') throw new ValidationError('handler', 'must be a function or undefined', handler);
  activator().messages.setDefault('query', handler as ((...args: unknown[]) => unknown) | undefined);
}

/**
 * Handles every update whose name has no handler of its own: called with the update's name,
 * then its args (its `validator` too).
 */
export function setDefaultUpdateHandler(
  handler: ((updateName: string, ...args: any[]) => unknown) | undefined, options?: UpdateHandlerOptions<[string, ...any[]]>,
): void {
  if (handler !== undefined && typeof handler !== 'function') throw new ValidationError('handler', 'must be a function or undefined', handler);
  activator().messages.setDefault('update', handler as ((...args: unknown[]) => unknown) | undefined,
    settingsOf('update', options as UpdateHandlerOptions<unknown[]> | undefined));
}

/** A handle to another workflow, for signalling or cancelling it from workflow code. */
export interface ExternalWorkflowHandle {
  readonly workflowId: string;
  readonly runId?: string;
  /**
   * Signals the workflow (SignalExternalWorkflowExecution); resolves once the signal is
   * recorded in its history, rejects when no open run with this id exists.
   */
  signal<Args extends unknown[]>(def: SignalDefinition<Args> | string, ...args: Args): Promise<void>;
  /**
   * Asks the workflow to cancel (RequestCancelExternalWorkflowExecution); resolves once the
   * request is recorded in its history (it reaches its code as a cancellation of its root
   * scope), rejects with an ApplicationFailure of type ExternalWorkflowExecutionNotFound when no
   * open run with this id (and run id) exists.
   */
  cancel(): Promise<void>;
}

/** A handle to another workflow by id (its latest run unless `runId` is given). */
export function getExternalWorkflowHandle(workflowId: string, runId?: string): ExternalWorkflowHandle {
  if (typeof workflowId !== 'string' || workflowId.length === 0) throw new ValidationError('workflowId', 'must be a non-empty string', workflowId);
  if (runId !== undefined && (typeof runId !== 'string' || runId.length === 0)) throw new ValidationError('runId', 'must be a non-empty string', runId);
  const target = { workflowId, ...(runId !== undefined ? { runId } : {}) };
  return {
    ...target,
    signal(def, ...args) {
      return activator().messages.signalExternal(target, messageNameOf('def', def, 'signal'), args);
    },
    cancel() {
      return activator().messages.cancelExternal(target);
    },
  };
}
