import { CancellationScope } from './cancellation-scope.ts';

/**
 * A PromiseLike whose `resolve` and `reject` workflow code calls (Temporal's Trigger): await it,
 * or use it in `condition`-style waits and `Promise.race`. It belongs to the CancellationScope
 * current when it is made: when that scope is cancelled, the trigger rejects with the
 * cancellation.
 */
export class Trigger<T> implements PromiseLike<T> {
  readonly #promise: Promise<T>;
  // Set in the constructor: the Promise executor runs synchronously.
  resolve!: (value: T | PromiseLike<T>) => void;
  reject!: (reason?: unknown) => void;

  constructor() {
    this.#promise = new Promise<T>((resolve, reject) => {
      const scope = CancellationScope.current();
      if (scope.cancellable) scope.cancelRequested.catch(reject);
      this.resolve = resolve;
      this.reject = reject;
    });
    // A trigger nobody awaits must not fail the workflow task when its scope is cancelled.
    this.#promise.catch(() => undefined);
  }

  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null, onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): PromiseLike<R1 | R2> {
    return this.#promise.then(onfulfilled, onrejected);
  }
}
