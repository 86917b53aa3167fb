import type { LocalActivityOptions } from './proxy-local-activities.ts';
import { headersFromWire, headersToWire, type Headers, type WireHeaders } from '../common/headers.ts';
import { composeInterceptors, type Next } from '../common/interceptors.ts';
import type { ChildStartAttributes } from '../history/child-types.ts';
import type { CommandAttributes } from '../history/commands.ts';
import type { ActivityOptions } from './proxy-activities.ts';

/*
 * Workflow interceptors, in the shape of Temporal's `@temporalio/workflow` ones: a module listed
 * in the worker's `interceptors.workflowModules` exports `interceptors`, a function called once
 * per run that returns `{ inbound, outbound }`. Inbound interceptors wrap what reaches the run
 * (its start, signals, queries, updates); outbound ones wrap what the run asks for (activities,
 * timers, children, signals to other workflows, continue-as-new). Each receives the call's input
 * and `next`; headers travel in the input.
 */

export type { Headers, Next };

/** Input of {@link WorkflowInboundCallsInterceptor.execute}. */
export interface WorkflowExecuteInput {
  readonly args: unknown[];
  readonly headers: Headers;
}

/** Input of {@link WorkflowInboundCallsInterceptor.handleSignal}. */
export interface SignalInput {
  readonly signalName: string;
  readonly args: unknown[];
  readonly headers: Headers;
}

/** Input of {@link WorkflowInboundCallsInterceptor.handleQuery}. */
export interface QueryInput {
  readonly queryId: string;
  readonly queryName: string;
  readonly args: unknown[];
  readonly headers: Headers;
}

/** Input of {@link WorkflowInboundCallsInterceptor.handleUpdate} and `validateUpdate`. */
export interface UpdateInput {
  readonly updateId: string;
  readonly name: string;
  readonly args: unknown[];
  readonly headers: Headers;
}

/**
 * Intercepts what reaches the run (Temporal's `WorkflowInboundCallsInterceptor`). A query
 * handler and an update validator must stay synchronous; their interceptors may be async.
 */
export interface WorkflowInboundCallsInterceptor {
  /** The workflow function's call; resolves with its result. */
  execute?: (input: WorkflowExecuteInput, next: (input: WorkflowExecuteInput) => Promise<unknown>) => Promise<unknown>;
  /** A signal's handler. */
  handleSignal?: (input: SignalInput, next: (input: SignalInput) => Promise<void>) => Promise<void>;
  /** A query's handler; resolves with its answer. */
  handleQuery?: (input: QueryInput, next: (input: QueryInput) => Promise<unknown>) => Promise<unknown>;
  /** An accepted update's handler; resolves with its result. */
  handleUpdate?: (input: UpdateInput, next: (input: UpdateInput) => Promise<unknown>) => Promise<unknown>;
  /** An update's validator: throws to reject the update. */
  validateUpdate?: (input: UpdateInput, next: (input: UpdateInput) => void) => void;
}

/** Input of {@link WorkflowOutboundCallsInterceptor.scheduleActivity}. */
export interface ActivityInput {
  readonly activityType: string;
  readonly args: unknown[];
  readonly options: ActivityOptions;
  readonly headers: Headers;
  readonly seq: number;
}

/** Input of {@link WorkflowOutboundCallsInterceptor.scheduleLocalActivity}. */
export interface LocalActivityInput {
  readonly activityType: string;
  readonly args: unknown[];
  readonly options: LocalActivityOptions;
  readonly headers: Headers;
}

/** Options of a durable timer (`sleep`, `condition` with a timeout), Temporal's `TimerOptions`. */
export interface TimerOptions {
  /** A one-line summary of the timer (at most 400 characters), recorded in its TimerStarted event. */
  readonly summary?: string;
}

/** Input of {@link WorkflowOutboundCallsInterceptor.startTimer}. */
export interface TimerInput {
  readonly durationMs: number;
  readonly seq: number;
  readonly options?: TimerOptions;
}

/** Input of {@link WorkflowOutboundCallsInterceptor.startChildWorkflowExecution}: `options` as the command carries them (durations in ms). */
export interface StartChildWorkflowExecutionInput {
  readonly workflowType: string;
  readonly options: Omit<ChildStartAttributes, 'workflowType' | 'header'>;
  readonly headers: Headers;
  readonly seq: number;
}

/** Input of {@link WorkflowOutboundCallsInterceptor.signalWorkflow}. */
export interface SignalWorkflowInput {
  readonly seq: number;
  readonly signalName: string;
  readonly args: unknown[];
  readonly headers: Headers;
  readonly target: { type: 'external'; workflowExecution: { workflowId: string; runId?: string } } | { type: 'child'; childWorkflowId: string };
}

/** Input of {@link WorkflowOutboundCallsInterceptor.continueAsNew}: `options` as the command carries them. */
export interface ContinueAsNewInput {
  readonly args: unknown[];
  readonly headers: Headers;
  readonly options: Omit<CommandAttributes['ContinueAsNewWorkflowExecution'], 'args' | 'header'>;
}

/** Input of {@link WorkflowOutboundCallsInterceptor.getLogAttributes}. */
export type GetLogAttributesInput = Record<string, unknown>;

/** Intercepts what the run asks for (Temporal's `WorkflowOutboundCallsInterceptor`). */
export interface WorkflowOutboundCallsInterceptor {
  /** Scheduling an activity; resolves with its result. */
  scheduleActivity?: (input: ActivityInput, next: (input: ActivityInput) => Promise<unknown>) => Promise<unknown>;
  /** Calling a local activity; resolves with its result (after every retry). */
  scheduleLocalActivity?: (input: LocalActivityInput, next: (input: LocalActivityInput) => Promise<unknown>) => Promise<unknown>;
  /** Starting a durable timer (sleep). */
  startTimer?: (input: TimerInput, next: (input: TimerInput) => Promise<void>) => Promise<void>;
  /** Starting a child workflow: resolves with [its start (the run id), its result]. */
  startChildWorkflowExecution?: (input: StartChildWorkflowExecutionInput,
    next: (input: StartChildWorkflowExecutionInput) => Promise<[Promise<string>, Promise<unknown>]>) => Promise<[Promise<string>, Promise<unknown>]>;
  /** Signalling another workflow. */
  signalWorkflow?: (input: SignalWorkflowInput, next: (input: SignalWorkflowInput) => Promise<void>) => Promise<void>;
  /** Continuing as new (never resolves; rejects with the ContinueAsNew that ends the run). */
  continueAsNew?: (input: ContinueAsNewInput, next: (input: ContinueAsNewInput) => Promise<never>) => Promise<never>;
  /** The attributes of the workflow's log lines. */
  getLogAttributes?: (input: GetLogAttributesInput, next: (input: GetLogAttributesInput) => Record<string, unknown>) => Record<string, unknown>;
}

/** What a workflow interceptors module's factory returns (Temporal's `WorkflowInterceptors`). */
export interface WorkflowInterceptors {
  inbound?: WorkflowInboundCallsInterceptor[];
  outbound?: WorkflowOutboundCallsInterceptor[];
}

/** The `interceptors` export of a module in `WorkerOptions.interceptors.workflowModules`: called once per run. */
export type WorkflowInterceptorsFactory = () => WorkflowInterceptors;

/** A run's interceptors, the modules' in the order listed, then the built-in ones. */
export interface RunInterceptors {
  inbound: WorkflowInboundCallsInterceptor[];
  outbound: WorkflowOutboundCallsInterceptor[];
}

/** The header the built-in tracing's context travels in (see client/tracing.ts). */
const TRACE_HEADER = '_tracer-data';

/**
 * The built-in outbound interceptor: the trace context the run was started under goes on to its
 * activities, children and continued run, so their spans join the start's trace.
 */
function traceOutbound(startHeaders: () => Headers): WorkflowOutboundCallsInterceptor {
  const withTrace = (headers: Headers): Headers => {
    const trace = startHeaders()[TRACE_HEADER];
    return trace && !headers[TRACE_HEADER] ? { ...headers, [TRACE_HEADER]: trace } : headers;
  };
  return {
    scheduleActivity: (input, next) => next({ ...input, headers: withTrace(input.headers) }),
    startChildWorkflowExecution: (input, next) => next({ ...input, headers: withTrace(input.headers) }),
    continueAsNew: (input, next) => next({ ...input, headers: withTrace(input.headers) }),
  };
}

/**
 * The interceptors of one run, from the `interceptors` exports of the interceptor modules
 * (each factory called once, now, inside the run).
 * @throws TypeError when an export is not a factory or returns something else than `{ inbound, outbound }`.
 */
export function runInterceptorsOf(modules: readonly unknown[], startHeaders: () => Headers): RunInterceptors {
  const out: RunInterceptors = { inbound: [], outbound: [] };
  modules.forEach((mod, i) => {
    const factory = (mod as { interceptors?: unknown } | null)?.interceptors;
    if (factory === undefined) return;
    if (typeof factory !== 'function') throw new TypeError(`interceptors.workflowModules[${i}] exports interceptors that is not a function () => ({ inbound, outbound })`);
    const made = (factory as WorkflowInterceptorsFactory)();
    if (typeof made !== 'object' || made === null) throw new TypeError(`the interceptors() of interceptors.workflowModules[${i}] must return { inbound?, outbound? }`);
    out.inbound.push(...(made.inbound ?? []));
    out.outbound.push(...(made.outbound ?? []));
  });
  out.outbound.push(traceOutbound(startHeaders));
  return out;
}

/** Runs `next` through the run's inbound interceptors for `method`. */
export function inbound<M extends keyof WorkflowInboundCallsInterceptor>(
  run: RunInterceptors, method: M, next: Next<WorkflowInboundCallsInterceptor, M>,
): Next<WorkflowInboundCallsInterceptor, M> {
  return composeInterceptors(run.inbound, method, next);
}

/** Runs `next` through the run's outbound interceptors for `method`. */
export function outbound<M extends keyof WorkflowOutboundCallsInterceptor>(
  run: RunInterceptors, method: M, next: Next<WorkflowOutboundCallsInterceptor, M>,
): Next<WorkflowOutboundCallsInterceptor, M> {
  return composeInterceptors(run.outbound, method, next);
}

/** Headers of a job or event, as interceptors see them. */
export function headersOf(wire: WireHeaders | undefined): Headers {
  return headersFromWire(wire);
}

/** Headers as a command carries them: `{ header }` or nothing. */
export function headerField(headers: Headers): { header?: WireHeaders } {
  const header = headersToWire(headers);
  return header ? { header } : {};
}

/** The attributes of a workflow log line after the run's `getLogAttributes` interceptors (for the workflow logger). */
export function logAttributes(run: RunInterceptors, input: GetLogAttributesInput): Record<string, unknown> {
  return outbound(run, 'getLogAttributes', (attributes) => attributes)(input);
}
