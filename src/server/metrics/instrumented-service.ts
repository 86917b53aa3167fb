import { performance } from 'node:perf_hooks';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { toWireError } from '../../protocol/wire-error.ts';
import { StoreConflictError } from '../../store/errors.ts';
import {
  WORKFLOW_SERVICE_METHODS, type ActivityTask, type RespondActivityTaskCompletedResponse, type RespondWorkflowTaskCompletedResponse, type WorkflowService,
  type WorkflowTask,
} from '../../protocol/index.ts';
import type { ServerMetrics } from './server-metrics.ts';
import { ValidationError } from '../../errors/index.ts';

const METHODS = new Set<string>(WORKFLOW_SERVICE_METHODS);
/** Long polls: a span for each would mostly record waiting, so they are counted but not traced. */
const UNTRACED = new Set<string>(['pollWorkflowTaskQueue', 'pollActivityTaskQueue', 'pollWorkflowExecutionUpdate', 'pollQueryTaskQueue']);

/**
 * A view of `service` whose every API call is counted and timed per method and status in
 * `metrics` (when given) and traced as a server span `steadfast.<method>` under the active
 * context (the HTTP server makes a request's `traceparent` the active context). The status is
 * the HTTP status the call's answer carries (200, or its error's). Tasks handed out by polls give
 * the schedule-to-start latency, whether a poll claimed them or was handed them at once.
 */
export function instrumentService<S extends WorkflowService>(service: S, metrics: ServerMetrics | undefined): S {
  const tracer = trace.getTracer('steadfast');
  const wrapped = new Map<string, unknown>();
  return new Proxy(service, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || typeof value !== 'function') return value;
      let fn = wrapped.get(key);
      if (fn) return fn;
      if (!METHODS.has(key)) {
        // Called on the service itself: an Engine's private fields are not reachable through a proxy.
        fn = (value as (...args: unknown[]) => unknown).bind(target);
        wrapped.set(key, fn);
        return fn;
      }
      const call = value as (...args: unknown[]) => Promise<unknown>;
      const traced = !UNTRACED.has(key);
      fn = async (...args: unknown[]): Promise<unknown> => {
        const begun = performance.now();
        if (metrics) beforeCall(metrics, key, args[0]);
        const span = traced ? tracer.startSpan(`steadfast.${key}`, { kind: SpanKind.SERVER, attributes: spanAttributes(args[0]) }) : undefined;
        try {
          const result = await call.apply(target, args);
          if (metrics) {
            metrics.request(key, 200, (performance.now() - begun) / 1000);
            if (result && key === 'pollWorkflowTaskQueue') workflowTasksStarted(metrics, result as WorkflowTask);
            else if (result && key === 'pollActivityTaskQueue') activityTasksStarted(metrics, result as ActivityTask);
            else if (result && key === 'respondWorkflowTaskCompleted') eagerActivitiesStarted(metrics, (result as RespondWorkflowTaskCompletedResponse).activityTasks);
            else if (result && key === 'respondActivityTaskCompleted') {
              eagerActivitiesStarted(metrics, (result as RespondActivityTaskCompletedResponse).workflowTask?.activityTasks);
            }
          }
          return result;
        } catch (err) {
          const status = err instanceof StoreConflictError ? 503 : toWireError(err).status;
          metrics?.request(key, status, (performance.now() - begun) / 1000);
          if (key === 'respondWorkflowTaskCompleted' && err instanceof ValidationError) metrics?.workflowTaskFailed('BadCommand');
          span?.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
          throw err;
        } finally {
          span?.end();
        }
      };
      wrapped.set(key, fn);
      return fn;
    },
  });
}

/** The ids a request names, as span attributes. */
function spanAttributes(req: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof req !== 'object' || req === null) return out;
  const r = req as Record<string, unknown>;
  for (const [field, attr] of [['namespace', 'steadfast.namespace'], ['workflowId', 'steadfast.workflow_id'],
    ['runId', 'steadfast.run_id'], ['workflowType', 'steadfast.workflow_type'], ['taskQueue', 'steadfast.task_queue']] as const) {
    if (typeof r[field] === 'string') out[attr] = r[field];
  }
  return out;
}

/** Schedule-to-start of each workflow task of a poll's answer: from its WorkflowTaskScheduled to its WorkflowTaskStarted. */
function workflowTasksStarted(metrics: ServerMetrics, task: WorkflowTask): void {
  for (const t of [task, ...(task.moreTasks ?? [])]) {
    const started = t.history.find((e) => e.eventId === t.startedEventId);
    if (started?.eventType !== 'WorkflowTaskStarted') continue;
    const scheduled = t.history.find((e) => e.eventId === started.attributes.scheduledEventId);
    if (!scheduled) continue;
    const seconds = (Date.parse(started.eventTime) - Date.parse(scheduled.eventTime)) / 1000;
    metrics.taskStarted(t.namespace, t.taskQueue, 'workflow', Math.max(0, seconds));
  }
}

/** Schedule-to-start of each activity task of a poll's answer: from its attempt's scheduled time to its start. */
function activityTasksStarted(metrics: ServerMetrics, task: ActivityTask): void {
  for (const t of [task, ...(task.moreTasks ?? [])]) {
    const seconds = (Date.parse(t.startedTime) - Date.parse(t.currentAttemptScheduledTime)) / 1000;
    metrics.taskStarted(t.namespace, t.taskQueue, 'activity', Math.max(0, seconds));
  }
}

/**
 * Schedule-to-start of the activities a completion started for its worker (eager activities): 0,
 * counted as tasks handed out. A continued workflow task is not counted: it was never scheduled
 * for a worker to take.
 */
function eagerActivitiesStarted(metrics: ServerMetrics, tasks: ActivityTask[] | undefined): void {
  for (const t of tasks ?? []) activityTasksStarted(metrics, t);
}

/** What a call tells before it runs: a worker polling a queue, a worker failing a workflow task. */
function beforeCall(metrics: ServerMetrics, key: string, req: unknown): void {
  if (typeof req !== 'object' || req === null) return;
  const r = req as Record<string, unknown>;
  if ((key === 'pollWorkflowTaskQueue' || key === 'pollActivityTaskQueue') && typeof r.taskQueue === 'string' && typeof r.identity === 'string') {
    metrics.polled(typeof r.namespace === 'string' ? r.namespace : 'default', r.taskQueue, key === 'pollWorkflowTaskQueue' ? 'workflow' : 'activity', r.identity);
  } else if (key === 'respondWorkflowTaskFailed' && typeof r.cause === 'string') {
    metrics.workflowTaskFailed(r.cause);
  }
}
