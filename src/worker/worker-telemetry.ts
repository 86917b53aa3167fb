import { performance } from 'node:perf_hooks';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { Command } from '../history/commands.ts';
import { defaultPayloadConverter, headersFromWire, type WireHeaders } from '../common/headers.ts';
import { TRACE_HEADER } from '../client/tracing.ts';
import type { ActivityTask, RespondWorkflowTaskCompletedRequest, WorkflowService, WorkflowTask } from '../protocol/index.ts';
import type { Logger } from './logger.ts';
import type { PollOutcome, WorkerMetrics } from './worker-metrics.ts';

/** How an activity attempt ended in this worker. */
type ActivityOutcome = 'completed' | 'failed' | 'canceled';

/** Runs whose start trace context is remembered for their later workflow tasks (sticky tasks carry only new events). */
const MAX_REMEMBERED_RUNS = 10_000;

/**
 * The worker's traces, metrics and failure log lines, called at one place per event: a poll
 * answered, a workflow task handled, an activity attempt run and ended, a workflow task's
 * commands sent. Spans go through `@opentelemetry/api` (no-ops unless the application
 * registered an SDK); each run's spans are children of the trace context its start recorded.
 */
export class WorkerTelemetry {
  readonly #tracer = trace.getTracer('steadfast');
  readonly #headers = new Map<string, WireHeaders>();

  constructor(readonly logger: Logger, readonly metrics: WorkerMetrics | undefined) {}

  /** A poll answered with `outcome`. */
  polled(kind: 'workflow' | 'activity', outcome: PollOutcome): void {
    this.metrics?.polled(kind, outcome);
  }

  /** Runs the handling of a workflow task inside its span, `RunWorkflow:<type>`. */
  workflowTask(task: WorkflowTask, handle: () => Promise<void>): Promise<void> {
    const first = task.history[0];
    if (first?.eventType === 'WorkflowExecutionStarted' && first.attributes.header) this.#remember(task.runId, first.attributes.header);
    const parent = this.#parentOf(this.#headers.get(task.runId));
    const span = this.#tracer.startSpan(`RunWorkflow:${task.workflowType}`, {
      kind: SpanKind.INTERNAL,
      attributes: { ...idsOf(task), 'steadfast.workflow_task.attempt': task.attempt, 'steadfast.workflow_task.started_event_id': task.startedEventId },
    }, parent);
    return context.with(trace.setSpan(parent, span), handle).then(
      () => span.end(),
      (err: unknown) => {
        endWithError(span, err);
        throw err;
      },
    );
  }

  /**
   * Runs a continued workflow task (the run's next task, run by this worker after it completed
   * `task`, continued-task.ts) inside its span, `RunWorkflow:<type>`, with the spans of the
   * commands it sends, as {@link workflowTask} and {@link observeService} record a polled one's.
   */
  async continuedWorkflowTask<T extends { task: { commands: Command[] } } | undefined>(
    task: ActivityTask, taskQueue: string, run: () => Promise<T>,
  ): Promise<T> {
    const parent = this.#parentOf(this.#headers.get(task.runId) ?? task.header);
    const span = this.#tracer.startSpan(`RunWorkflow:${task.workflowType}`, {
      kind: SpanKind.INTERNAL, attributes: { ...idsOf({ ...task, taskQueue }), 'steadfast.workflow_task.continued': true },
    }, parent);
    const inSpan = trace.setSpan(parent, span);
    try {
      const out = await context.with(inSpan, run);
      if (out) context.with(inSpan, () => out.task.commands.forEach((c) => this.#commandSpan(c)));
      span.end();
      return out;
    } catch (err) {
      endWithError(span, err);
      throw err;
    }
  }

  /**
   * Starts an activity attempt inside its span, `RunActivity:<type>`: `start` runs in the span's
   * context (the activity function's own spans nest under it). Returns what to call when it ends.
   */
  activity<T>(task: ActivityTask, start: (ended: (outcome: ActivityOutcome, err?: unknown) => void) => T): T {
    const parent = this.#parentOf(task.header);
    const span = this.#tracer.startSpan(`RunActivity:${task.activityType}`, {
      kind: SpanKind.INTERNAL,
      attributes: { ...idsOf(task), 'steadfast.activity_id': task.activityId, 'steadfast.activity.attempt': task.attempt },
    }, parent);
    const begun = performance.now();
    let done = false;
    const ended = (outcome: ActivityOutcome, err?: unknown) => {
      if (done) return;
      done = true;
      this.metrics?.activityEnded(task.activityType, outcome, (performance.now() - begun) / 1000);
      if (outcome === 'failed') {
        const error = err instanceof Error ? err : new Error(String(err));
        this.logger.warn(`activity ${task.activityType} attempt ${task.attempt} failed: ${error.message}`, {
          namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, activityId: task.activityId,
          activityType: task.activityType, attempt: task.attempt, errorType: (err as { type?: string })?.type ?? error.name,
        });
        endWithError(span, error);
      } else span.end();
    };
    return context.with(trace.setSpan(parent, span), () => start(ended));
  }

  /**
   * A view of `service` whose workflow task completions record a span per timer, activity and
   * child the workflow asked for, under the workflow task's span.
   */
  observeService<S extends WorkflowService>(service: S): S {
    const complete = service.respondWorkflowTaskCompleted.bind(service);
    const respondWorkflowTaskCompleted = (req: RespondWorkflowTaskCompletedRequest) => {
      for (const c of req.commands) this.#commandSpan(c);
      return complete(req);
    };
    const failed = service.respondWorkflowTaskFailed.bind(service);
    const metrics = this.metrics;
    const respondWorkflowTaskFailed = (req: Parameters<WorkflowService['respondWorkflowTaskFailed']>[0]) => {
      metrics?.workflowTaskFailed(req.cause);
      return failed(req);
    };
    const bound = new Map<PropertyKey, unknown>();
    return new Proxy(service, {
      get(target, key, receiver) {
        if (key === 'respondWorkflowTaskCompleted') return respondWorkflowTaskCompleted;
        if (key === 'respondWorkflowTaskFailed') return respondWorkflowTaskFailed;
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        let fn = bound.get(key);
        if (!fn) bound.set(key, fn = (value as (...a: unknown[]) => unknown).bind(target));
        return fn;
      },
    });
  }

  #commandSpan(c: Command): void {
    let name: string;
    let attributes: Record<string, string | number>;
    switch (c.commandType) {
      case 'StartTimer':
        name = `StartTimer:${c.attributes.timerId}`;
        attributes = { 'steadfast.timer_id': c.attributes.timerId, 'steadfast.timer.start_to_fire_ms': c.attributes.startToFireTimeoutMs };
        break;
      case 'ScheduleActivityTask':
        name = `StartActivity:${c.attributes.activityType}`;
        attributes = { 'steadfast.activity_id': c.attributes.activityId, 'steadfast.activity_type': c.attributes.activityType };
        break;
      case 'StartChildWorkflowExecution':
        name = `StartChildWorkflow:${c.attributes.workflowType}`;
        attributes = { 'steadfast.child.workflow_id': c.attributes.workflowId, 'steadfast.child.workflow_type': c.attributes.workflowType };
        break;
      default:
        return;
    }
    this.#tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }).end();
  }

  #remember(runId: string, header: WireHeaders): void {
    if (this.#headers.size >= MAX_REMEMBERED_RUNS) this.#headers.delete(this.#headers.keys().next().value!);
    this.#headers.set(runId, header);
  }

  #parentOf(header: WireHeaders | undefined): Context {
    const carrier = traceCarrierOf(header);
    return carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  }
}

/**
 * The trace context a call's headers carry: the `_tracer-data` header (the built-in tracing's,
 * as @temporalio/interceptors-opentelemetry writes it), or the plain W3C entries histories
 * written before headers carried payloads hold.
 */
export function traceCarrierOf(header: unknown): Record<string, string> | undefined {
  if (typeof header !== 'object' || header === null) return undefined;
  const legacy = (header as Record<string, unknown>).traceparent;
  if (typeof legacy === 'string') return header as Record<string, string>;
  const payload = headersFromWire(header)[TRACE_HEADER];
  if (!payload) return undefined;
  try {
    const carrier = defaultPayloadConverter.fromPayload<unknown>(payload);
    return typeof carrier === 'object' && carrier !== null ? carrier as Record<string, string> : undefined;
  } catch {
    return undefined;
  }
}

function idsOf(task: { namespace: string; workflowId: string; runId: string; workflowType: string; taskQueue: string }): Record<string, string> {
  return {
    'steadfast.namespace': task.namespace, 'steadfast.workflow_id': task.workflowId, 'steadfast.run_id': task.runId,
    'steadfast.workflow_type': task.workflowType, 'steadfast.task_queue': task.taskQueue,
  };
}

function endWithError(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  if (err instanceof Error) span.recordException(err);
  span.end();
}
