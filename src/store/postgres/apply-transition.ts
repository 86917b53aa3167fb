import type pg from 'pg';
import { NamespaceNotFoundError } from '../../common/errors.ts';
import { StoreConflictError } from '../errors.ts';
import { eventValues, executionUpdateValues, executionValues, newTaskValues, newTimerValues } from '../rows.ts';
import type { Transition } from '../types.ts';
import { multiInsert, PQ } from './queries.ts';
import { HISTORY_EVENTS, NEW_TASKS, NEW_TIMERS } from '../columns.ts';
import { applySchedules } from './schedule-queries.ts';
import { postgresVisibilityStore as vis } from './visibility.ts';

/**
 * Writes one transition inside the caller's transaction: each run's row (inserted, or updated
 * under its expected version), visibility and events; schedules; the consumed timer; the tasks
 * and timers deleted and created. A version or id conflict throws StoreConflictError.
 */
export async function applyTransition(c: pg.PoolClient, t: Transition): Promise<void> {
  for (const w of t.executions) {
    const r = w.record;
    if (w.expectedVersion === undefined) {
      if (!(await c.query(PQ.namespaceRegistered, [r.namespace])).rowCount) throw new NamespaceNotFoundError(r.namespace);
      if (w.firstOfWorkflowId && (await c.query(PQ.anyRun, [r.namespace, r.workflowId])).rowCount) {
        throw new StoreConflictError('workflowIdUsed', `workflow ${r.workflowId} has a run already`);
      }
      await c.query(PQ.insertExecution, executionValues(r));
    } else {
      const res = await c.query(PQ.updateExecution, [...executionUpdateValues(r), r.runId, w.expectedVersion]);
      if (res.rowCount !== 1) throw new StoreConflictError('version', `run ${r.runId} changed since version ${w.expectedVersion}`);
    }
    await vis.write(c, r);
    if (w.events.length) {
      await c.query(multiInsert('history_events', HISTORY_EVENTS, w.events.length), w.events.flatMap((e) => eventValues(r.runId, e)));
    }
  }
  await applySchedules(c, t);
  if (t.consumeTimerId !== undefined && (await c.query(PQ.consumeTimer, [t.consumeTimerId])).rowCount !== 1) {
    throw new StoreConflictError('timerGone', `timer ${t.consumeTimerId} was already fired`);
  }
  if (t.purgeRunIds?.length) {
    await c.query(PQ.purgeRunTasks, [t.purgeRunIds]);
    await c.query(PQ.purgeRunTimers, [t.purgeRunIds]);
  }
  if (t.deleteTaskIds?.length) await c.query(PQ.deleteTasks, [t.deleteTaskIds]);
  if (t.deleteTimerIds?.length) await c.query(PQ.deleteTimers, [t.deleteTimerIds]);
  const tasks = t.createTasks ?? [];
  if (tasks.length) {
    await c.query(multiInsert('tasks', NEW_TASKS, tasks.length), tasks.flatMap((k) => newTaskValues(k)));
  }
  const timers = t.createTimers ?? [];
  if (timers.length) {
    await c.query(multiInsert('timers', NEW_TIMERS, timers.length), timers.flatMap((k) => newTimerValues(k)));
  }
}
