/**
 * The first module evaluated in every workflow sandbox (the bundler puts it ahead of the
 * user's workflows module): it reads the run's init data, installs the activator and the
 * deterministic globals, so even module top-level code of the workflows file sees workflow
 * time and seeded randomness.
 */
import { IllegalStateError } from '../common/errors.ts';
import type { SandboxHost, SandboxInit } from './activation.ts';
import { Activator, installActivator } from './activator.ts';
import { installGlobalOverrides } from './global-overrides.ts';

const g = globalThis as { __steadfastInit?: string; __steadfastHost?: SandboxHost; __steadfastRuntime?: Activator };
if (typeof g.__steadfastInit !== 'string' || !g.__steadfastHost) {
  throw new IllegalStateError('the workflow bundle must be evaluated by a steadfast worker sandbox');
}
const runtime = new Activator(JSON.parse(g.__steadfastInit) as SandboxInit);
installActivator(runtime);
installGlobalOverrides(runtime, g.__steadfastHost);
g.__steadfastRuntime = runtime;

/** Hands the evaluated workflows module to the runtime. */
export function registerWorkflows(workflows: Record<string, unknown>): void {
  runtime.workflows = workflows;
}
