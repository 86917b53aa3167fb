import { IllegalStateError } from '../common/errors.ts';
import type { Activator } from './activator.ts';

/**
 * The run whose code is executing now. A sandbox realm may host many runs; the realm sets this
 * on every call into it, before any workflow code (or microtask of it) runs, so every
 * steadfast/workflow function, `Date`, `Math.random` and `console` act for that run.
 */
let current: Activator | undefined;

/**
 * The realm's real clock, taken when the runtime loads, before the deterministic `Date` replaces
 * the global one: `workflowInfo().unsafe.now()`.
 */
export const systemNow: () => number = Date.now.bind(Date);

/** Makes `run` the current one (the realm's dispatcher, once per call into the realm). */
export function setCurrentActivator(run: Activator | undefined): void {
  current = run;
}

/** The current run's activator, or undefined outside any run. */
export function currentActivator(): Activator | undefined {
  return current;
}

/** The activator of the run this code belongs to. @throws IllegalStateError outside a workflow. */
export function activator(): Activator {
  if (!current) {
    throw new IllegalStateError('steadfast/workflow functions can only be called from workflow code running in a worker');
  }
  return current;
}

/** True inside a workflow sandbox. */
export function inWorkflowContext(): boolean {
  return current !== undefined;
}
