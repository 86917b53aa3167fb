/**
 * The workflow runtime's entry in a sandbox realm, evaluated once per realm (the bundler builds
 * it apart from the user's workflows module). It installs the deterministic globals and a
 * dispatcher: for each call from the host it makes the called run current, swaps in that run's
 * own globals, and runs the method. A run is created by evaluating the workflows module anew
 * (its module factory), so each run has its own module state, and module top-level code sees
 * the run's time and seeded randomness.
 */
import { IllegalStateError } from '../common/errors.ts';
import type { RealmMailbox, SandboxHost, SandboxInit } from './activation.ts';
import { Activator } from './activator.ts';
import { setCurrentActivator } from './current-run.ts';
import { installGlobalOverrides } from './global-overrides.ts';
import { runInterceptorsOf } from './interceptors.ts';
import { INTERCEPTOR_MODULES } from './activation.ts';
import { setLogHost } from './log.ts';
import * as workflowApi from './index.ts';
import * as rootApi from '../index.ts';
import * as retryApi from '../retry/index.ts';

const g = globalThis as { __steadfastHost?: SandboxHost; __steadfastMailbox?: RealmMailbox };
const host = g.__steadfastHost;
const mailbox = g.__steadfastMailbox;
if (!host || !mailbox) {
  throw new IllegalStateError('the workflow runtime must be evaluated by a steadfast worker sandbox');
}
installGlobalOverrides(host);
setLogHost(host);
// Only the called run's code runs during a call, so the count it reports is the called run's.
Activator.onConditionCount = (n) => {
  mailbox.conditions = n;
};

/** The entry points workflow code may import, all one copy per realm. */
const MODULES: Record<string, unknown> = { 'steadfast/workflow': workflowApi, steadfast: rootApi, 'steadfast/retry': retryApi };

function requireModule(name: string): unknown {
  const found = MODULES[name];
  if (!found) throw new IllegalStateError(`workflow code may not import '${name}' in the sandbox`);
  return found;
}

/** Own globals after the runtime loaded; anything else was set by a run. */
const baseline = new Set<PropertyKey>(Object.getOwnPropertyNames(globalThis));
let last: Activator | undefined;

/** Parks the last run's own globals and restores `run`'s, so runs never see each other's. */
function switchTo(run: Activator): void {
  run.reportConditions();
  if (run === last) return;
  const self = globalThis as Record<PropertyKey, unknown>;
  if (last && mailbox!.extraGlobals) {
    last.globals.clear();
    for (const key of Object.getOwnPropertyNames(self)) {
      if (baseline.has(key)) continue;
      last.globals.set(key, Object.getOwnPropertyDescriptor(self, key)!);
      delete self[key];
    }
  }
  for (const [key, descriptor] of run.globals) Object.defineProperty(self, key, descriptor);
  last = run;
  setCurrentActivator(run);
}

function dispatch(): void {
  const m = mailbox!;
  if (m.method === 'create') {
    const run = new Activator(JSON.parse(m.arg as string) as SandboxInit);
    switchTo(run);
    if (!m.factory) throw new IllegalStateError('the realm has no workflows module');
    const module = { exports: {} as Record<string, unknown> };
    m.factory(requireModule, module, module.exports);
    // A bundle with interceptor modules holds them beside the workflows (an array, never a workflow type).
    const interceptorModules = module.exports[INTERCEPTOR_MODULES];
    run.workflows = module.exports;
    run.interceptors = runInterceptorsOf((interceptorModules as unknown[] | undefined) ?? [], () => run.startHeaders);
    m.result = run;
    return;
  }
  const run = m.run as Activator;
  switchTo(run);
  switch (m.method) {
    case 'activate':
      run.activate(m.arg as string);
      m.result = undefined;
      return;
    case 'checkConditions':
      m.result = run.checkConditions();
      return;
    case 'conclude':
      m.result = run.conclude();
      return;
    case 'answer':
      m.result = run.answer(m.arg as string);
      return;
    case 'answerSettled':
      m.result = run.answerSettled();
      return;
    case 'rejectUnhandled':
      run.rejectUnhandled(m.arg);
      m.result = undefined;
      return;
  }
}

Object.defineProperty(globalThis, '__steadfastDispatch', { value: dispatch, enumerable: false });
