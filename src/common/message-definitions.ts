import { ValidationError } from '../errors/index.ts';

/**
 * Definitions of signals, queries and updates: plain named objects made by `defineSignal`,
 * `defineQuery` and `defineUpdate` in workflow code and passed to the client's handle, whose
 * type parameters carry the argument and result types from one side to the other.
 */

/** A signal: fire-and-forget input to a running workflow. */
export interface SignalDefinition<Args extends unknown[] = [], Name extends string = string> {
  type: 'signal';
  name: Name;
  /** Type-only: never set. */
  readonly __args?: Args;
}

/** A query: a read-only question to a workflow's state. */
export interface QueryDefinition<Ret = unknown, Args extends unknown[] = [], Name extends string = string> {
  type: 'query';
  name: Name;
  readonly __args?: Args;
  readonly __ret?: Ret;
}

/** An update: a validated, recorded request that changes the workflow's state and returns a result. */
export interface UpdateDefinition<Ret = unknown, Args extends unknown[] = [], Name extends string = string> {
  type: 'update';
  name: Name;
  readonly __args?: Args;
  readonly __ret?: Ret;
}

/** The query every workflow answers without a handler: where each pending await of the run stands. */
export const STACK_TRACE_QUERY = '__stack_trace';

/** The name of a definition, or the string given; errors name the field. */
export function messageNameOf(field: string, def: { name: string } | string, kind: 'signal' | 'query' | 'update'): string {
  const name = typeof def === 'string' ? def : (def as { name?: unknown })?.name;
  if (typeof name !== 'string' || name.length === 0) {
    throw new ValidationError(field, `must be a ${kind} definition (define${kind[0]!.toUpperCase()}${kind.slice(1)}) or a non-empty name`, def);
  }
  return name;
}
