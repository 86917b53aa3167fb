import { IllegalStateError } from '../common/errors.ts';
import type { SandboxHost } from './activation.ts';
import { activator, currentActivator } from './current-run.ts';
import { workflowClearTimeout, workflowSetTimeout } from './timers.ts';

const REFUSED: Record<string, string> = {
  setInterval: 'loop over sleep() from steadfast/workflow',
  setImmediate: 'await a resolved promise, or sleep() from steadfast/workflow',
  clearInterval: 'cancel a sleep() through its CancellationScope',
  clearImmediate: 'cancel a sleep() through its CancellationScope',
};

function refuse(name: string): () => never {
  return () => {
    throw new IllegalStateError(`${name}() is not available in workflow code: it is not deterministic on replay; ${REFUSED[name]}`);
  };
}

function format(args: unknown[]): string {
  return args.map((a) => {
    if (typeof a === 'string') return a;
    if (a instanceof Error) return a.stack ?? a.message;
    try {
      return JSON.stringify(a) ?? String(a);
    } catch {
      return String(a);
    }
  }).join(' ');
}

/**
 * Makes the realm's globals deterministic, once per realm, for whichever run is current:
 * `Date.now()` / `new Date()` read the time of that run's workflow task, `Math.random()` draws
 * from its seeded generator, `setTimeout` / `clearTimeout` are durable timers (as in Temporal),
 * the other timers throw with a message pointing to sleep(), WeakRef and
 * FinalizationRegistry (observe garbage collection) are removed, and `console` goes to the
 * worker's logger, silent during replay.
 */
export function installGlobalOverrides(host: SandboxHost): void {
  const g = globalThis as Record<string, unknown>;
  const OriginalDate = Date;
  const originalNow = Date.now;
  const now = () => currentActivator()?.now ?? originalNow();
  function DeterministicDate(this: unknown, ...args: unknown[]): Date | string {
    if (!new.target) return new OriginalDate(now()).toString();
    if (args.length === 0) return new OriginalDate(now());
    return new (OriginalDate as unknown as new (...a: unknown[]) => Date)(...args);
  }
  DeterministicDate.prototype = OriginalDate.prototype;
  DeterministicDate.now = now;
  DeterministicDate.parse = OriginalDate.parse;
  DeterministicDate.UTC = OriginalDate.UTC;
  Object.defineProperty(OriginalDate.prototype, 'constructor', { value: DeterministicDate, writable: true, configurable: true });
  define(g, 'Date', DeterministicDate);
  Math.random = () => activator().random();
  for (const name of Object.keys(REFUSED)) define(g, name, refuse(name));
  define(g, 'setTimeout', workflowSetTimeout);
  define(g, 'clearTimeout', workflowClearTimeout);
  delete g.WeakRef;
  delete g.FinalizationRegistry;
  const log = (level: 'debug' | 'info' | 'warn' | 'error') => (...args: unknown[]) => {
    const run = currentActivator();
    if (run && !run.isReplaying) host.log(level, format(args), run.info);
  };
  define(g, 'console', { log: log('info'), info: log('info'), debug: log('debug'), warn: log('warn'), error: log('error') });
}

/** Globals the runtime installs are not enumerable, so a run's own globals are easy to tell apart. */
function define(g: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
}
