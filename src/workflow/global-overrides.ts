import { IllegalStateError } from '../common/errors.ts';
import type { SandboxHost } from './activation.ts';
import type { Activator } from './activator.ts';

const REFUSED: Record<string, string> = {
  setTimeout: 'use sleep() from steadfast/workflow (a durable timer)',
  setInterval: 'loop over sleep() from steadfast/workflow',
  setImmediate: 'await a resolved promise, or sleep() from steadfast/workflow',
  clearTimeout: 'cancel a sleep() through its CancellationScope',
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
 * Makes the sandbox's globals deterministic: `Date.now()` / `new Date()` read the time of the
 * current workflow task, `Math.random()` draws from the run's seeded generator, real timers
 * throw with a message pointing to sleep(), WeakRef and FinalizationRegistry (observe garbage
 * collection) are removed, and `console` goes to the worker's logger, silent during replay.
 */
export function installGlobalOverrides(activator: Activator, host: SandboxHost): void {
  const g = globalThis as Record<string, unknown>;
  const OriginalDate = Date;
  function DeterministicDate(this: unknown, ...args: unknown[]): Date | string {
    if (!new.target) return new OriginalDate(activator.now).toString();
    if (args.length === 0) return new OriginalDate(activator.now);
    return new (OriginalDate as unknown as new (...a: unknown[]) => Date)(...args);
  }
  DeterministicDate.prototype = OriginalDate.prototype;
  DeterministicDate.now = () => activator.now;
  DeterministicDate.parse = OriginalDate.parse;
  DeterministicDate.UTC = OriginalDate.UTC;
  Object.defineProperty(OriginalDate.prototype, 'constructor', { value: DeterministicDate, writable: true, configurable: true });
  g.Date = DeterministicDate;
  Math.random = () => activator.random();
  for (const name of Object.keys(REFUSED)) g[name] = refuse(name);
  delete g.WeakRef;
  delete g.FinalizationRegistry;
  const log = (level: 'debug' | 'info' | 'warn' | 'error') => (...args: unknown[]) => {
    if (!activator.isReplaying) host.log(level, format(args), activator.info);
  };
  g.console = { log: log('info'), info: log('info'), debug: log('debug'), warn: log('warn'), error: log('error') };
}
