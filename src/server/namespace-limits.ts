import { performance } from 'node:perf_hooks';
import { ServiceError } from '../common/errors.ts';
import { ValidationError } from '../errors/index.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import {
  LONG_POLL_METHODS, methodsWhere, WORKFLOW_SERVICE_METHODS, type RateBucket, type WorkflowService, type WorkflowServiceMethod,
} from '../protocol/index.ts';

/**
 * Per-namespace limits of the HTTP API. Each is per server process; 0 turns a limit off.
 * The defaults are Temporal's frontend defaults (`frontend.namespaceRPS`, `frontend.namespaceCount`).
 */
export interface NamespaceLimitOptions {
  /** Workflow starts (start and signal-with-start) per second per namespace, with a one-second burst. @default 2400 */
  startsPerSecond?: number;
  /** Signals (signal and signal-with-start) per second per namespace, with a one-second burst. @default 2400 */
  signalsPerSecond?: number;
  /** Long polls (task polls, result waits, update polls) open at once per namespace. @default 1200 */
  maxLongPolls?: number;
}

/** The defaults of {@link NamespaceLimitOptions}. */
export const DEFAULT_NAMESPACE_LIMITS: Required<NamespaceLimitOptions> = { startsPerSecond: 2400, signalsPerSecond: 2400, maxLongPolls: 1200 };

const KEYS = optionKeys<NamespaceLimitOptions>({ startsPerSecond: true, signalsPerSecond: true, maxLongPolls: true }) as (keyof NamespaceLimitOptions)[];
/** Calls that draw from each per-namespace rate; taken from METHODS. */
export const RATE_BUCKET_METHODS: { readonly [B in RateBucket]: ReadonlySet<WorkflowServiceMethod> } = {
  starts: new Set(methodsWhere((f) => f.rateBuckets.includes('starts'))),
  signals: new Set(methodsWhere((f) => f.rateBuckets.includes('signals'))),
};
const LONG_POLLS = new Set<WorkflowServiceMethod>(LONG_POLL_METHODS);
/** Past this many namespaces seen, idle buckets are dropped (a full bucket holds no state worth keeping). */
const MAX_TRACKED_NAMESPACES = 10_000;

/**
 * Validates limit options, filling defaults.
 * @throws ValidationError naming the option: `limits.startsPerSecond must be a number >= 0, got -1`.
 */
export function resolveNamespaceLimits(options: NamespaceLimitOptions | undefined, field = 'limits'): Required<NamespaceLimitOptions> {
  const o = options ?? {};
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new ValidationError(field, 'must be an object of limits', options);
  refuseUnknownKeys('namespace limit', o, KEYS, { field, noun: 'limit' });
  const out = { ...DEFAULT_NAMESPACE_LIMITS };
  for (const key of KEYS) {
    const v = o[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new ValidationError(`${field}.${key}`, 'must be a number >= 0', v);
    if (key === 'maxLongPolls' && !Number.isInteger(v)) throw new ValidationError(`${field}.${key}`, 'must be an integer', v);
    out[key] = v;
  }
  return out;
}

/** A token bucket holding up to one second of its rate; refilled continuously. */
class Bucket {
  #tokens: number;
  #at: number;
  constructor(private readonly rate: number, now: number) {
    this.#tokens = rate;
    this.#at = now;
  }

  /** Takes a token, or answers how many ms until one is there. */
  take(now: number): number {
    this.#tokens = Math.min(this.rate, this.#tokens + ((now - this.#at) * this.rate) / 1000);
    this.#at = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.#tokens) * 1000) / this.rate);
  }

  full(now: number): boolean {
    return this.#tokens + ((now - this.#at) * this.rate) / 1000 >= this.rate;
  }
}

/** Per-namespace buckets of one kind of call. */
class Buckets {
  readonly #byNamespace = new Map<string, Bucket>();
  constructor(private readonly rate: number) {}

  take(namespace: string, now: number): number {
    if (this.rate === 0) return 0;
    let b = this.#byNamespace.get(namespace);
    if (!b) {
      if (this.#byNamespace.size >= MAX_TRACKED_NAMESPACES) {
        for (const [ns, old] of this.#byNamespace) if (old.full(now)) this.#byNamespace.delete(ns);
      }
      b = new Bucket(this.rate, now);
      this.#byNamespace.set(namespace, b);
    }
    return b.take(now);
  }
}

function exhausted(message: string, retryAfterMs: number): ServiceError {
  return new ServiceError('ResourceExhausted', message, { retryAfterMs });
}

/**
 * A view of `service` that enforces `limits` per namespace: a start or signal over its rate,
 * or a long poll over the cap, is refused with a retryable ResourceExhausted carrying
 * `retryAfterMs` (the HTTP API sends it as `Retry-After` too). Calls that act through a task
 * token (task completions, heartbeats) are never limited: refusing them would only make
 * finished work time out and be redone.
 * @param now monotonic ms; tests move it.
 */
export function limitService(service: WorkflowService, options: NamespaceLimitOptions | undefined, now: () => number = () => performance.now()): WorkflowService {
  const limits = resolveNamespaceLimits(options);
  const starts = new Buckets(limits.startsPerSecond);
  const signals = new Buckets(limits.signalsPerSecond);
  const openPolls = new Map<string, number>();
  const limited: Partial<Record<WorkflowServiceMethod, unknown>> = {};
  for (const method of WORKFLOW_SERVICE_METHODS) {
    const isStart = RATE_BUCKET_METHODS.starts.has(method) && limits.startsPerSecond > 0;
    const isSignal = RATE_BUCKET_METHODS.signals.has(method) && limits.signalsPerSecond > 0;
    const isPoll = LONG_POLLS.has(method) && limits.maxLongPolls > 0;
    if (!isStart && !isSignal && !isPoll) continue;
    // Looked up at call time, as the service itself would be.
    const forward = (body: unknown, opts: unknown) => (service[method] as (req: unknown, opts?: unknown) => Promise<unknown>).call(service, body, opts);
    limited[method] = async (body: unknown, opts?: unknown) => {
      const ns = typeof (body as { namespace?: unknown } | null)?.namespace === 'string' ? (body as { namespace: string }).namespace : 'default';
      const t = now();
      const startWait = isStart ? starts.take(ns, t) : 0;
      if (startWait > 0) throw exhausted(`namespace "${ns}" is over its limit of ${limits.startsPerSecond} workflow starts per second; retry in ${startWait} ms`, startWait);
      const signalWait = isSignal ? signals.take(ns, t) : 0;
      if (signalWait > 0) throw exhausted(`namespace "${ns}" is over its limit of ${limits.signalsPerSecond} signals per second; retry in ${signalWait} ms`, signalWait);
      if (!isPoll) return forward(body, opts);
      const open = openPolls.get(ns) ?? 0;
      if (open >= limits.maxLongPolls) {
        throw exhausted(`namespace "${ns}" already has ${open} long polls open on this server, its limit; retry in 1000 ms`, 1000);
      }
      openPolls.set(ns, open + 1);
      try {
        return await forward(body, opts);
      } finally {
        const left = openPolls.get(ns)! - 1;
        if (left === 0) openPolls.delete(ns);
        else openPolls.set(ns, left);
      }
    };
  }
  // Every other method (unlimited calls, an Engine's own such as returnUndeliveredTask) passes through.
  // Bound once per function: every API call reads its method through this view.
  const bound = new WeakMap<object, unknown>();
  return new Proxy(service, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key in limited) return limited[key as WorkflowServiceMethod];
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      let fn = bound.get(value);
      if (!fn) bound.set(value, (fn = (value as (...a: unknown[]) => unknown).bind(target)));
      return fn;
    },
  });
}
