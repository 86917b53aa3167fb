import { afterImmediates } from '../common/immediates.ts';
import vm from 'node:vm';
import v8 from 'node:v8';
import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  Activation, ActivationResult, MessageAnswer, MessageRequest, RealmMailbox, RealmMethod, SandboxHost, SandboxInit,
  WorkflowInfo, WorkflowModuleFactory,
} from '../workflow/activation.ts';
import type { WorkflowBundle } from './bundler.ts';
import type { BundleStackMapper } from './source-map.ts';
import type { FailureInfo } from '../common/failure.ts';
import { STACK_TRACE_QUERY } from '../common/message-definitions.ts';

/** Where workflow `console.*` output goes. */
export type SandboxLog = (level: 'trace' | 'debug' | 'info' | 'warn' | 'error', message: string, info: WorkflowInfo, attrs?: Record<string, unknown>) => void;

/** The run that created each promise made inside a realm call: where an unhandled rejection belongs. */
const promiseOwners = new WeakMap<object, WorkflowSandbox>();
let rejectionHookInstalled = false;

/**
 * The process's `unhandledRejection` listener: a rejection nobody handled inside a sandbox
 * fails that run's workflow task. Other rejections keep Node's default (crash) unless the
 * application listens for them itself.
 */
export function sandboxRejectionHook(reason: unknown, promise: Promise<unknown>): void {
  const sandbox = promiseOwners.get(promise);
  if (sandbox) {
    sandbox.rejectUnhandled(reason);
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

const noop = () => undefined;

/** The one CancellationScope storage shared by every realm (see SandboxHost.scopeStorage). */
const scopeStorage = new AsyncLocalStorage<unknown>();
/** The store of a realm call's own code: no scope of a run (the code's run's root scope). */
const OUTSIDE_SCOPES = Symbol('outside cancellation scopes');
/** Whether a run has made a scope current yet: from then on each realm call turns the storage on, and off after. */
let scopesUsed = false;
/**
 * What realms get as the scope storage. The storage is on only while a realm call runs: an
 * AsyncLocalStorage that is on makes Node run its hooks for every promise the process creates
 * (the database driver's and the engine's as well as workflow code's), and workflow code runs
 * only inside realm calls, whose microtasks end before the call returns. The scopes carried by
 * promises made in earlier calls stay on those promises while the storage is off.
 */
const realmScopes: SandboxHost['scopeStorage'] = {
  run(store, fn) {
    scopesUsed = true;
    return scopeStorage.run(store, fn);
  },
  getStore: () => scopeStorage.getStore(),
};

/** Runs a realm call with the scope storage on (once a run has used it), and turns it off after. */
function withScopes<T>(call: () => T): T {
  if (!scopesUsed) return call();
  try {
    return scopeStorage.run(OUTSIDE_SCOPES, call);
  } finally {
    scopeStorage.disable();
  }
}

const DISPATCH = new vm.Script('__steadfastDispatch()', { filename: 'steadfast sandbox dispatch' });

/**
 * A `node:vm` context holding the workflow runtime and the workflows module of one bundle,
 * able to host many runs (Temporal's reuseV8Context): the context, the runtime and the
 * deterministic globals are made once, and a run costs one evaluation of the workflows
 * module's factory. Calls are synchronous and, with `microtaskMode: 'afterEvaluate'`, run the
 * realm's microtasks to the end before they return, so the code of two runs never interleaves;
 * the realm makes the called run current (its time, randomness, scopes and globals) first.
 */
class SandboxRealm {
  readonly #context: vm.Context;
  readonly #mailbox: RealmMailbox;
  /** Own properties of the context object once the realm loaded; more means a run set a global. */
  readonly #baseline: number;
  /** The sandbox being called, for `console` output and promise ownership. */
  #calling: WorkflowSandbox | undefined;
  readonly #dispatch = () => DISPATCH.runInContext(this.#context);
  readonly #track = (promise: Promise<unknown>) => {
    promiseOwners.set(promise, this.#calling!);
  };

  constructor(bundle: WorkflowBundle) {
    const host: SandboxHost = {
      scopeStorage: realmScopes,
      // The attributes are copied into this realm: objects made in the sandbox keep its prototypes.
      log: (level, message, info, attrs) => this.#calling?.log(level, message, info,
        attrs === undefined ? undefined : JSON.parse(JSON.stringify(attrs)) as Record<string, unknown>),
    };
    this.#mailbox = { run: undefined, method: 'create', arg: undefined, result: undefined, factory: undefined, extraGlobals: false, conditions: 0 };
    this.#context = vm.createContext({ __steadfastHost: host, __steadfastMailbox: this.#mailbox }, { microtaskMode: 'afterEvaluate' });
    bundle.runtimeScript.runInContext(this.#context);
    this.#mailbox.factory = bundle.script.runInContext(this.#context) as WorkflowModuleFactory;
    this.#baseline = Object.getOwnPropertyNames(this.#context).length;
  }

  /** The `condition()` predicates the last called run waits on (see RealmMailbox.conditions). */
  get waitingConditions(): number {
    return this.#mailbox.conditions;
  }

  /** Calls `method` of `sandbox`'s run (or creates it); returns what the realm answered. */
  call(sandbox: WorkflowSandbox, method: RealmMethod, arg?: unknown): unknown {
    const m = this.#mailbox;
    m.run = sandbox.run;
    m.method = method;
    m.arg = arg;
    // Globals set inside the context appear on the context object too: counting them is cheap.
    m.extraGlobals = Object.getOwnPropertyNames(this.#context).length > this.#baseline;
    this.#calling = sandbox;
    // Only calls that run workflow code can make promises that end up rejected and unhandled.
    const stopTracking = method === 'conclude' || method === 'rejectUnhandled' ? noop : v8.promiseHooks.onInit(this.#track);
    try {
      withScopes(this.#dispatch);
      return m.result;
    } finally {
      stopTracking();
      m.result = undefined;
      m.arg = undefined;
      this.#calling = undefined;
    }
  }
}

/** One shared realm per bundle, made on first use. */
const sharedRealms = new WeakMap<WorkflowBundle, SandboxRealm>();

/** Options of {@link WorkflowSandbox.create}. */
interface SandboxOptions {
  log?: SandboxLog;
  /**
   * Host the run in the bundle's shared realm (true) or in a realm of its own (false: a new
   * `vm` context, runtime and globals for this run alone, ~1 ms more per run).
   * @default true
   */
  reuseV8Context?: boolean;
}

/**
 * One run's runtime in a sandbox realm. Workflow code reaches nothing of the host: data crosses
 * as JSON text.
 */
export class WorkflowSandbox {
  readonly #realm: SandboxRealm;
  readonly #log: SandboxLog;
  readonly #stacks: BundleStackMapper;
  /** The realm's handle of this run. */
  run: unknown;

  private constructor(realm: SandboxRealm, log: SandboxLog, stacks: BundleStackMapper) {
    this.#realm = realm;
    this.#log = log;
    this.#stacks = stacks;
  }

  /**
   * Creates a run: evaluates the workflows module for it, after the run's init is in place.
   * @throws whatever the workflows module throws at load time (e.g. invalid proxyActivities options).
   */
  static create(bundle: WorkflowBundle, init: SandboxInit, options: SandboxOptions = {}): WorkflowSandbox {
    installRejectionHook();
    let realm: SandboxRealm;
    if (options.reuseV8Context === false) {
      realm = new SandboxRealm(bundle);
    } else {
      realm = sharedRealms.get(bundle) ?? new SandboxRealm(bundle);
      sharedRealms.set(bundle, realm);
    }
    const sandbox = new WorkflowSandbox(realm, options.log ?? (() => undefined), bundle.stacks);
    sandbox.run = realm.call(sandbox, 'create', JSON.stringify(init));
    return sandbox;
  }

  /** Workflow `console.*` output and `log` lines of this run. */
  log(level: 'trace' | 'debug' | 'info' | 'warn' | 'error', message: string, info: WorkflowInfo, attrs?: Record<string, unknown>): void {
    this.#log(level, message, info, attrs);
  }

  /** Records an unhandled rejection of this run's code: the current workflow task fails. */
  rejectUnhandled(reason: unknown): void {
    this.#realm.call(this, 'rejectUnhandled', reason);
  }

  /**
   * Applies an activation and lets the workflow code run until it is blocked again: each call
   * into the realm runs its microtasks to the end, then `condition()` predicates are re-checked
   * until none fires. One macrotask turn before concluding lets Node report unhandled
   * rejections of this activation. Workflow code has no timers or I/O, so it is then blocked.
   */
  async activate(activation: Activation): Promise<ActivationResult> {
    this.#realm.call(this, 'activate', JSON.stringify(activation));
    while (this.#realm.waitingConditions > 0 && this.#realm.call(this, 'checkConditions') === true);
    await afterImmediates();
    const result = JSON.parse(this.#realm.call(this, 'conclude') as string) as ActivationResult;
    // Failures leave the sandbox with stacks in the workflow files' lines.
    for (const c of result.commands) {
      const a = c.attributes as { failure?: FailureInfo; outcome?: { failure?: FailureInfo } };
      if (a.failure) a.failure = this.#stacks.mapFailure(a.failure);
      if (a.outcome?.failure) a.outcome.failure = this.#stacks.mapFailure(a.outcome.failure);
    }
    if (result.taskFailure) result.taskFailure = this.#stacks.mapFailure(result.taskFailure);
    return result;
  }

  /** Runs a query handler or an update validator read-only against the state reached so far. */
  answer(req: MessageRequest): MessageAnswer {
    const answer = JSON.parse(this.#realm.call(this, 'answer', JSON.stringify(req)) as string) as MessageAnswer;
    // An async query interceptor: the realm ran its microtasks when the call returned; read the settled answer.
    const settled = answer.pending ? JSON.parse(this.#realm.call(this, 'answerSettled', undefined) as string) as MessageAnswer : answer;
    if (settled.failure) settled.failure = this.#stacks.mapFailure(settled.failure);
    if (req.kind === 'query' && req.queryType === STACK_TRACE_QUERY && typeof settled.result === 'string') {
      settled.result = this.#stacks.mapStack(settled.result);
    }
    return settled;
  }
}
