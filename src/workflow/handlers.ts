import { ValidationError } from '../errors/index.ts';
import { IllegalStateError } from '../common/errors.ts';
import type { SandboxHost } from './activation.ts';
import { CancellationScope } from './cancellation-scope.ts';
import { activator } from './current-run.ts';
import { workflowLog } from './log.ts';

/**
 * What happens to a signal or update handler still running when the run completes or continues
 * as new (Temporal's HandlerUnfinishedPolicy).
 */
export enum HandlerUnfinishedPolicy {
  /** Log a warning through the workflow `log` (the default), then abandon the handler. */
  WARN_AND_ABANDON = 1,
  /** Abandon the handler without a warning. */
  ABANDON = 2,
}

/** Checks a handler's `unfinishedPolicy` option. */
export function unfinishedPolicyOf(field: string, value: unknown): HandlerUnfinishedPolicy {
  if (value === undefined) return HandlerUnfinishedPolicy.WARN_AND_ABANDON;
  if (value !== HandlerUnfinishedPolicy.WARN_AND_ABANDON && value !== HandlerUnfinishedPolicy.ABANDON) {
    throw new ValidationError(field, 'must be HandlerUnfinishedPolicy.WARN_AND_ABANDON or HandlerUnfinishedPolicy.ABANDON', value);
  }
  return value;
}

/** A signal or update handler running now. */
export interface RunningHandler {
  kind: 'signal' | 'update';
  name: string;
  /** The update's id (updates only). */
  id?: string;
  policy: HandlerUnfinishedPolicy;
}

/** The update whose handler is running (Temporal's UpdateInfo). */
export interface UpdateInfo {
  readonly id: string;
  readonly name: string;
}

/** Runs `fn` synchronously with `scope` current (an update handler, before its first await). */
export function runInScope<T>(scope: CancellationScope, fn: () => T): T {
  return scopeStorageOf().run(scope, fn);
}

function scopeStorageOf(): { run<R>(store: unknown, fn: () => R): R } {
  const host = (globalThis as { __steadfastHost?: SandboxHost }).__steadfastHost;
  if (!host) throw new IllegalStateError('update handlers run only inside a workflow');
  return host.scopeStorage;
}

/** The scope each update handler runs in, and that update. */
const updateScopes = new WeakMap<CancellationScope, UpdateInfo>();

/** A scope (a child of the current one) in which `info`'s handler runs, so {@link currentUpdateInfo} finds it. */
export function updateScope(info: UpdateInfo): CancellationScope {
  const scope = new CancellationScope({ cancellable: true });
  updateScopes.set(scope, Object.freeze({ ...info }));
  return scope;
}

/**
 * The id and name of the update whose handler (or code it called, across awaits) is running;
 * undefined outside an update handler.
 */
export function currentUpdateInfo(): UpdateInfo | undefined {
  for (let scope: CancellationScope | undefined = CancellationScope.current(); scope; scope = scope.parent) {
    const info = updateScopes.get(scope);
    if (info) return info;
  }
  return undefined;
}

/**
 * True when no signal or update handler is running: `await condition(allHandlersFinished)`
 * before returning lets every handler finish its work.
 */
export function allHandlersFinished(): boolean {
  return activator().messages.running.size === 0;
}

/**
 * Logs a warning for the handlers still running as the run completes or continues as new
 * (those with HandlerUnfinishedPolicy.WARN_AND_ABANDON), as Temporal does.
 */
export function warnUnfinishedHandlers(running: Iterable<RunningHandler>, how: 'completed' | 'continued as new'): void {
  const warned = [...running].filter((h) => h.policy === HandlerUnfinishedPolicy.WARN_AND_ABANDON);
  const updates = warned.filter((h) => h.kind === 'update').map((h) => ({ name: h.name, id: h.id! }));
  const signals = new Map<string, number>();
  for (const h of warned) if (h.kind === 'signal') signals.set(h.name, (signals.get(h.name) ?? 0) + 1);
  const advice = 'If the handler must finish, await condition(allHandlersFinished) before the workflow returns; if abandoning it is intended, '
    + 'give its setHandler the option unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON.';
  if (updates.length > 0) {
    workflowLog('warn', `[TMPRL1102] Workflow ${how} while update handlers were still running. ${advice}`, { updates });
  }
  if (signals.size > 0) {
    workflowLog('warn', `[TMPRL1102] Workflow ${how} while signal handlers were still running. ${advice}`,
      { signals: [...signals].map(([name, count]) => ({ name, count })) });
  }
}
