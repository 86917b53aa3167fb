/*
 * The interceptor chain shared by the client, the worker and workflow code, in the shape of
 * Temporal's `@temporalio/common` interceptors: an interceptor is an object of optional methods,
 * each taking the call's input and `next`, the rest of the chain. This module runs inside the
 * workflow sandbox too.
 */

/** The type of the `next` an interceptor method `FN` of interface `IF` receives: the method without its `next` parameter. */
export type Next<IF, FN extends keyof IF> = Required<IF>[FN] extends (input: infer I, next: any) => infer R ? (input: I) => R : never;

/**
 * Composes `interceptors` around `next` for `method`: the first interceptor of the list runs
 * first, and each one's `next` is the one after it, the last one's the given `next`. An
 * interceptor without the method is passed over.
 */
export function composeInterceptors<I, M extends keyof I>(interceptors: readonly I[], method: M, next: Next<I, M>): Next<I, M> {
  let out = next;
  for (let i = interceptors.length - 1; i >= 0; i--) {
    const interceptor = interceptors[i]!;
    const fn = interceptor[method] as unknown;
    if (typeof fn !== 'function') continue;
    const inner = out;
    out = ((input: unknown) => (fn as (input: unknown, next: unknown) => unknown).call(interceptor, input, inner)) as unknown as Next<I, M>;
  }
  return out;
}
