import type { ActivityContext } from '../activity/context.ts';
import { headersFromWire, type Headers, type WireHeaders } from '../common/headers.ts';
import { composeInterceptors, type Next } from '../common/interceptors.ts';
import { ValidationError } from '../errors/index.ts';

/*
 * The worker's interceptors, in the shape of Temporal's `@temporalio/worker` ones: workflow
 * interceptor modules (bundled with the workflows) and activity interceptor factories.
 */

export type { Headers, Next };

/** Input of {@link ActivityInboundCallsInterceptor.execute}. */
export interface ActivityExecuteInput {
  readonly args: unknown[];
  readonly headers: Headers;
}

/** Intercepts an activity attempt (Temporal's `ActivityInboundCallsInterceptor`). */
export interface ActivityInboundCallsInterceptor {
  /** The activity function's call; resolves with its result. */
  execute?: (input: ActivityExecuteInput, next: (input: ActivityExecuteInput) => Promise<unknown>) => Promise<unknown>;
}

/** Intercepts what an activity asks of the worker (Temporal's `ActivityOutboundCallsInterceptor`). */
export interface ActivityOutboundCallsInterceptor {
  /** The attributes of the activity's log lines. */
  getLogAttributes?: (input: Record<string, unknown>, next: (input: Record<string, unknown>) => Record<string, unknown>) => Record<string, unknown>;
}

/** Made once per activity attempt from its context (Temporal's `ActivityInterceptorsFactory`). */
export type ActivityInterceptorsFactory = (ctx: ActivityContext) => {
  inbound?: ActivityInboundCallsInterceptor;
  outbound?: ActivityOutboundCallsInterceptor;
};

/** `WorkerOptions.interceptors` (Temporal's `WorkerInterceptors`). */
export interface WorkerInterceptors {
  /**
   * Modules bundled with the workflows, each exporting `interceptors: WorkflowInterceptorsFactory`
   * (`() => ({ inbound: [...], outbound: [...] })`), called once per run. Paths to the files.
   */
  workflowModules?: string[];
  /** Activity interceptor factories, called once per attempt; the first of the list runs first. */
  activity?: ActivityInterceptorsFactory[];
}

/** {@link WorkerInterceptors} checked. */
export interface ResolvedWorkerInterceptors {
  workflowModules: string[];
  activity: ActivityInterceptorsFactory[];
}

/**
 * Checks `WorkerOptions.interceptors`.
 * @throws ValidationError naming the entry.
 */
export function resolveWorkerInterceptors(value: unknown): ResolvedWorkerInterceptors {
  if (value === undefined) return { workflowModules: [], activity: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError('interceptors', 'must be { workflowModules?: string[], activity?: ActivityInterceptorsFactory[] }', value);
  }
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v)) {
    if (k !== 'workflowModules' && k !== 'activity') {
      throw new ValidationError(`interceptors.${k}`, 'is not an interceptor kind of the worker (known: workflowModules, activity)', v[k]);
    }
  }
  const modules = v.workflowModules ?? [];
  if (!Array.isArray(modules)) throw new ValidationError('interceptors.workflowModules', 'must be an array of module paths', modules);
  modules.forEach((m, i) => {
    if (typeof m !== 'string' || m.length === 0) throw new ValidationError(`interceptors.workflowModules[${i}]`, 'must be a non-empty module path', m);
  });
  const activity = v.activity ?? [];
  if (!Array.isArray(activity)) throw new ValidationError('interceptors.activity', 'must be an array of ActivityInterceptorsFactory', activity);
  activity.forEach((f, i) => {
    if (typeof f !== 'function') throw new ValidationError(`interceptors.activity[${i}]`, 'must be a function (ctx) => ({ inbound?, outbound? })', f);
  });
  return { workflowModules: [...(modules as string[])], activity: [...(activity as ActivityInterceptorsFactory[])] };
}

/** The outbound interceptors each attempt's factories made, by the attempt's context. */
const outbounds = new WeakMap<ActivityContext, ActivityOutboundCallsInterceptor[]>();

/** The attributes of an activity log line after the attempt's `getLogAttributes` interceptors (for the activity logger). */
export function activityLogAttributes(ctx: ActivityContext, input: Record<string, unknown>): Record<string, unknown> {
  return composeInterceptors(outbounds.get(ctx) ?? [], 'getLogAttributes', (attributes) => attributes)(input);
}

/** Runs `fn` through the inbound interceptors the factories make for this attempt. */
export function executeActivity(
  factories: readonly ActivityInterceptorsFactory[], ctx: ActivityContext, header: WireHeaders | undefined, args: unknown[],
  fn: (...args: unknown[]) => unknown,
): Promise<unknown> {
  if (factories.length === 0) return Promise.resolve(fn(...args));
  const made = factories.map((f) => f(ctx));
  const outbound = made.map((m) => m?.outbound).filter((o): o is ActivityOutboundCallsInterceptor => o !== undefined);
  if (outbound.length) outbounds.set(ctx, outbound);
  const inbound = made.map((m) => m?.inbound).filter((i): i is ActivityInboundCallsInterceptor => i !== undefined);
  const execute = composeInterceptors(inbound, 'execute', async (input) => fn(...input.args));
  return execute({ args, headers: headersFromWire(header) });
}
