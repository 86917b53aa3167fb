import { toMs, type Duration } from '../retry/duration.ts';
import { CancelledFailure } from '../common/failure.ts';
import { IllegalStateError } from '../common/errors.ts';
import type { SandboxHost } from './activation.ts';
import { sleep } from './timers.ts';
import { activator } from './current-run.ts';

interface ScopeStorage {
  run<R>(store: CancellationScope, fn: () => R): R;
  getStore(): CancellationScope | undefined;
}

let storage: ScopeStorage | undefined;

function scopeStorage(): ScopeStorage {
  if (!storage) {
    const host = (globalThis as { __steadfastHost?: SandboxHost }).__steadfastHost;
    if (!host) throw new IllegalStateError('CancellationScope can only be used inside a workflow');
    storage = host.scopeStorage as ScopeStorage;
  }
  return storage;
}

/** Options of a {@link CancellationScope}. */
export interface CancellationScopeOptions {
  /** When false, cancelling the parent does not cancel this scope. @default true */
  cancellable?: boolean;
  /** @default the current scope */
  parent?: CancellationScope;
  /** Cancels the scope after this long (a durable timer). */
  timeout?: Duration;
}

/**
 * A tree of cancellation, as in Temporal: every timer and activity belongs to the scope that
 * was current when it started. Cancelling a scope cancels its timers (CancelTimer), its
 * activities (RequestCancelActivityTask; the activity's promise rejects at once with an
 * ActivityFailure caused by a CancelledFailure) and its cancellable child scopes. The root
 * scope is cancelled when the workflow execution is asked to cancel.
 */
export class CancellationScope {
  /** False for scopes made by {@link CancellationScope.nonCancellable}: parents cannot cancel them. */
  readonly cancellable: boolean;
  readonly parent: CancellationScope | undefined;
  /** Milliseconds after which the scope cancels itself, if any. */
  readonly timeout: number | undefined;
  /** Rejects with a CancelledFailure when the scope is cancelled; never resolves. */
  readonly cancelRequested: Promise<never>;
  #cancelRequested = false;
  #reject!: (reason: CancelledFailure) => void;
  /** The run this scope belongs to: the host's one scope storage is shared by every run it hosts. */
  readonly #run: object;

  constructor(options: CancellationScopeOptions & { root?: boolean } = {}) {
    this.#run = activator();
    this.cancellable = options.cancellable ?? true;
    this.timeout = options.timeout === undefined ? undefined : toMs(options.timeout, 'CancellationScope timeout');
    this.cancelRequested = new Promise<never>((_, reject) => {
      this.#reject = (reason) => {
        this.#cancelRequested = true;
        reject(reason);
      };
    });
    this.cancelRequested.catch(() => undefined);
    this.parent = options.root ? undefined : (options.parent ?? CancellationScope.current());
    if (this.parent && this.cancellable) {
      this.parent.cancelRequested.catch((reason: CancelledFailure) => this.#reject(reason));
    }
  }

  /** True once the scope was cancelled and it is cancellable: new operations in it fail at once. */
  get consideredCancelled(): boolean {
    return this.#cancelRequested && this.cancellable;
  }

  /** Cancels the scope and, through them, its operations and cancellable children. */
  cancel(reason = 'Cancellation scope cancelled'): void {
    if (!this.#cancelRequested) this.#reject(new CancelledFailure(reason));
  }

  /** Runs `fn` with this scope as the current one; honours the scope's timeout. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return scopeStorage().run(this, () => this.#runInScope(fn));
  }

  async #runInScope<T>(fn: () => Promise<T>): Promise<T> {
    if (this.timeout === undefined) return await fn();
    const timerScope = new CancellationScope({ parent: this });
    timerScope.run(() => sleep(this.timeout!)).then(() => this.cancel('Cancellation scope timed out'), () => undefined);
    try {
      return await fn();
    } finally {
      timerScope.cancel();
    }
  }

  /** The scope of the code running now (the root scope outside any other). */
  static current(): CancellationScope {
    const scope = scopeStorage().getStore();
    return scope instanceof CancellationScope && scope.#run === activator() ? scope : rootScope();
  }

  /** Runs `fn` in a new cancellable scope. */
  static cancellable<T>(fn: () => Promise<T>): Promise<T> {
    return new CancellationScope({ cancellable: true }).run(fn);
  }

  /** Runs `fn` in a new scope that the parent's cancellation does not reach (cleanup code). */
  static nonCancellable<T>(fn: () => Promise<T>): Promise<T> {
    return new CancellationScope({ cancellable: false }).run(fn);
  }

  /** Runs `fn` in a new cancellable scope that cancels itself after `timeout`. */
  static withTimeout<T>(timeout: Duration, fn: () => Promise<T>): Promise<T> {
    return new CancellationScope({ cancellable: true, timeout }).run(fn);
  }
}

/** The scope the workflow function runs in; cancelled when the execution is asked to cancel. */
export function rootScope(): CancellationScope {
  const run = activator();
  run.rootScope ??= new CancellationScope({ root: true });
  return run.rootScope;
}
