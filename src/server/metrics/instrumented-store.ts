import { performance } from 'node:perf_hooks';
import type { Store, Transition } from '../../store/types.ts';
import type { ScheduleCounters } from '../../protocol/schedules.ts';
import { historySizeOf } from '../../engine/index.ts';
import { isClosingStatus, type ServerMetrics } from './server-metrics.ts';

/**
 * A view of `store` that reports to `metrics`: every asynchronous operation's time and errors,
 * and from what commits carry, the runs started and closed, state transitions and history sizes
 * at close, and the runs the retention sweep deleted. Behaviour is the store's own: every call
 * goes through unchanged, and the backlog is
 * read from the store at scrape time.
 */
export function instrumentStore<S extends Store>(store: S, metrics: ServerMetrics): S {
  metrics.watchBacklog(store);
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      let fn = wrapped.get(key);
      if (fn === undefined) {
        fn = timed(key, value as (...args: unknown[]) => unknown, target, metrics);
        wrapped.set(key, fn);
      }
      return fn;
    },
  });
}

function timed(operation: string, fn: (...args: unknown[]) => unknown, target: Store, metrics: ServerMetrics) {
  const isCommit = operation === 'commit';
  return (...args: unknown[]): unknown => {
    const begun = performance.now();
    let result: unknown;
    try {
      result = fn.apply(target, args);
    } catch (err) {
      metrics.storeOperation(operation, (performance.now() - begun) / 1000, err ?? 'thrown');
      throw err;
    }
    if (!(result instanceof Promise)) return result;
    return result.then(
      (value) => {
        metrics.storeOperation(operation, (performance.now() - begun) / 1000);
        if (isCommit) committed(metrics, args[0] as Transition);
        else if (operation === 'deleteClosedRuns') metrics.runsDeleted(args[0] as string, (value as string[]).length);
        return value;
      },
      (err: unknown) => {
        metrics.storeOperation(operation, (performance.now() - begun) / 1000, err ?? 'rejected');
        throw err;
      },
    );
  };
}

/** What a committed transition tells: a state transition per run row written, the runs it created and closed. */
function committed(m: ServerMetrics, t: Transition): void {
  for (const w of t.schedules ?? []) {
    const { namespace, scheduleId } = w.record;
    if (w.delete) m.scheduleDeleted(namespace, scheduleId);
    else m.scheduleWritten(namespace, scheduleId, (w.record.state as { counters?: ScheduleCounters } | null)?.counters);
  }
  for (const w of t.executions) {
    const r = w.record;
    m.transition(r.namespace);
    if (w.expectedVersion === undefined) m.workflowStarted(r.namespace, r.workflowType);
    // Counted once: by the transition that appended the close event, not by later writes of the closed row.
    if (isClosingStatus(r.status) && w.events.some((e) => e.eventId === r.nextEventId - 1 && CLOSE_EVENTS.has(e.eventType))) {
      const bytes = historySizeOf(r);
      m.workflowClosed(r.namespace, r.workflowType, r.status, r.nextEventId - 1, bytes);
    }
  }
}

/** The events a run's history ends with when it closes. */
const CLOSE_EVENTS = new Set<string>([
  'WorkflowExecutionCompleted', 'WorkflowExecutionFailed', 'WorkflowExecutionTimedOut', 'WorkflowExecutionCanceled',
  'WorkflowExecutionTerminated', 'WorkflowExecutionContinuedAsNew',
]);
