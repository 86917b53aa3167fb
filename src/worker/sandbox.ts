import vm from 'node:vm';
import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  Activation, ActivationResult, MessageAnswer, MessageRequest, SandboxHost, SandboxInit, SandboxRuntime, WorkflowInfo,
} from '../workflow/activation.ts';
import type { WorkflowBundle } from './bundler.ts';

/** Where workflow `console.*` output goes. */
export type SandboxLog = (level: 'debug' | 'info' | 'warn' | 'error', message: string, info: WorkflowInfo) => void;

const byPromise = new WeakMap<object, WorkflowSandbox>();
let rejectionHookInstalled = false;

/**
 * The process's `unhandledRejection` listener: a rejection nobody handled inside a sandbox
 * fails that run's workflow task. Other rejections keep Node's default (crash) unless the
 * application listens for them itself.
 */
export function sandboxRejectionHook(reason: unknown, promise: Promise<unknown>): void {
  const sandbox = byPromise.get(promise.constructor);
  if (sandbox) {
    sandbox.runtime.rejectUnhandled(reason);
    return;
  }
  if (process.listenerCount('unhandledRejection') === 1) {
    process.nextTick(() => {
      throw reason;
    });
  }
}

function installRejectionHook(): void {
  if (rejectionHookInstalled) return;
  rejectionHookInstalled = true;
  process.on('unhandledRejection', sandboxRejectionHook);
}

const drain = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The one CancellationScope storage shared by every sandbox (see SandboxHost.scopeStorage). */
const scopeStorage = new AsyncLocalStorage<unknown>();

/**
 * Empty contexts made ahead of need. vm.createContext costs ~0.37 ms here; taking a ready one
 * moves that off a run's first workflow task. The bundle is still evaluated per run, after the
 * run's init is in place, so module top-level code sees workflow time and seeded randomness.
 */
const spareContexts: vm.Context[] = [];
const SPARE_CONTEXTS = 4;
/** Refills run a few ms after a take, so they land between tasks rather than inside one. */
const REFILL_DELAY_MS = 5;
let refill: NodeJS.Timeout | undefined;

function takeContext(): vm.Context {
  const context = spareContexts.pop() ?? vm.createContext({});
  if (!refill) {
    refill = setTimeout(() => {
      refill = undefined;
      while (spareContexts.length < SPARE_CONTEXTS) spareContexts.push(vm.createContext({}));
    }, REFILL_DELAY_MS);
    refill.unref();
  }
  return context;
}

/**
 * One run's isolated realm: a fresh `node:vm` context in which the compiled bundle is
 * evaluated. Creating one costs a context plus one evaluation of the precompiled script
 * (measured in bench/replay.bench.ts).
 */
export class WorkflowSandbox {
  readonly runtime: SandboxRuntime;

  private constructor(runtime: SandboxRuntime) {
    this.runtime = runtime;
  }

  /**
   * Evaluates the bundle in a new context for one run.
   * @throws whatever the workflows module throws at load time (e.g. invalid proxyActivities options).
   */
  static create(bundle: WorkflowBundle, init: SandboxInit, log: SandboxLog = () => undefined): WorkflowSandbox {
    installRejectionHook();
    const host: SandboxHost = { scopeStorage, log };
    const context = takeContext();
    Object.assign(context, { __steadfastInit: JSON.stringify(init), __steadfastHost: host });
    const sandbox = new WorkflowSandbox(undefined as unknown as SandboxRuntime);
    byPromise.set(vm.runInContext('Promise', context) as object, sandbox);
    bundle.script.runInContext(context);
    (sandbox as { runtime: SandboxRuntime }).runtime = (context as { __steadfastRuntime: SandboxRuntime }).__steadfastRuntime;
    return sandbox;
  }

  /**
   * Applies an activation and lets the workflow code run until it is blocked again: microtasks
   * drain (one macrotask turn), then `condition()` predicates are re-checked until none fires.
   * Workflow code has no timers or I/O, so a drained microtask queue means it is blocked.
   */
  async activate(activation: Activation): Promise<ActivationResult> {
    this.runtime.activate(JSON.stringify(activation));
    await drain();
    while (this.runtime.checkConditions()) await drain();
    return JSON.parse(this.runtime.conclude()) as ActivationResult;
  }

  /** Runs a query handler or an update validator read-only against the state reached so far. */
  answer(req: MessageRequest): MessageAnswer {
    return JSON.parse(this.runtime.answer(JSON.stringify(req))) as MessageAnswer;
  }
}
