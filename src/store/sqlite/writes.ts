/* Everything the SQLite store writes, as functions of its connection's prepared statements. */
import type BetterSqlite3 from 'better-sqlite3';
import { NamespaceNotFoundError } from '../../common/errors.ts';
import { StoreConflictError, SQLITE_ERROR_CODES } from '../errors.ts';
import { eventValues, executionUpdateValues, executionValues, newTaskValues, newTimerValues, toTimer } from '../rows.ts';
import { checkEventIds } from '../transition-checks.ts';
import type { ClaimTimersRequest, ExecutionRecord, TimerRecord, Transition } from '../types.ts';

type Row = Record<string, unknown>;

/** The statements the writes use (the store's own, prepared once). */
type WriteStatements = Record<
  'insertExecution' | 'updateExecution' | 'versionOf' | 'anyRun' | 'namespaceRegistered' | 'openRun' | 'timerExists' | 'insertEvent' | 'insertTask' | 'deleteTask'
  | 'insertTimer' | 'deleteTimer' | 'claimTimers' | 'purgeRunTasks' | 'purgeRunTimers',
  BetterSqlite3.Statement
>;

/** The conflicts a transition would hit, found by reads alone (so a batch needs no savepoint). */
export function checkTransition(q: WriteStatements, t: Transition): Error | undefined {
  for (const w of t.executions) {
    try {
      checkEventIds(w);
    } catch (err) {
      return err as Error;
    }
    const r = w.record;
    if (w.expectedVersion !== undefined) {
      const row = q.versionOf.get({ runId: r.runId }) as { version: number } | undefined;
      if (row?.version !== w.expectedVersion) return new StoreConflictError('version', `run ${r.runId} changed since version ${w.expectedVersion}`);
      continue;
    }
    if (!q.namespaceRegistered.get({ namespace: r.namespace })) return new NamespaceNotFoundError(r.namespace);
    if (q.versionOf.get({ runId: r.runId })) return new StoreConflictError('duplicateRun', `run ${r.runId} exists`);
    if (w.firstOfWorkflowId && q.anyRun.get({ namespace: r.namespace, workflowId: r.workflowId })) return workflowIdUsed(r);
    const open = q.openRun.get({ namespace: r.namespace, workflowId: r.workflowId }) as { run_id: string } | undefined;
    const closedHere = open && t.executions.some((x) => x.record.runId === open.run_id && x.record.status !== 'Running');
    if (open && !closedHere) return new StoreConflictError('alreadyOpen', `workflow ${r.workflowId} has an open run`);
  }
  if (t.consumeTimerId !== undefined && !q.timerExists.get({ id: t.consumeTimerId })) {
    return new StoreConflictError('timerGone', `timer ${t.consumeTimerId} was already fired`);
  }
  return undefined;
}

/**
 * Writes a transition that {@link checkTransition} passed in the same transaction (the store's
 * writes run it first); returns the seq of each execution it inserted (undefined for updates).
 * `writeVisibility` writes the visibility row of each execution written, in the same transaction.
 */
export function applyTransition(q: WriteStatements, t: Transition, writeVisibility: (rec: ExecutionRecord, inserted: boolean) => void): (number | undefined)[] {
  const seqs: (number | undefined)[] = [];
  for (const w of t.executions) {
    checkEventIds(w);
    if (w.expectedVersion === undefined) {
      try {
        seqs.push(Number(q.insertExecution.run(...executionValues(w.record)).lastInsertRowid));
      } catch (err) {
        throw mapInsertError(err, w.record);
      }
    } else {
      seqs.push(undefined);
      const r = w.record;
      const res = q.updateExecution.run(...executionUpdateValues(r), r.runId, w.expectedVersion);
      if (res.changes !== 1) {
        throw new StoreConflictError('version', `run ${r.runId} changed since version ${w.expectedVersion}`);
      }
    }
    writeVisibility(w.record, w.expectedVersion === undefined);
    for (const e of w.events) {
      q.insertEvent.run(...eventValues(w.record.runId, e));
    }
  }
  if (t.consumeTimerId !== undefined && q.deleteTimer.run(t.consumeTimerId).changes !== 1) {
    throw new StoreConflictError('timerGone', `timer ${t.consumeTimerId} was already fired`);
  }
  for (const runId of t.purgeRunIds ?? []) {
    q.purgeRunTasks.run(runId);
    q.purgeRunTimers.run(runId);
  }
  for (const id of t.deleteTaskIds ?? []) q.deleteTask.run(id);
  for (const id of t.deleteTimerIds ?? []) q.deleteTimer.run(id);
  for (const k of t.createTasks ?? []) {
    q.insertTask.run(...newTaskValues(k));
  }
  for (const k of t.createTimers ?? []) {
    q.insertTimer.run(...newTimerValues(k));
  }
  return seqs;
}

/** Leases due timers (a write: the lease is stored, so another server process skips them). */
export function claimTimers(q: WriteStatements, req: ClaimTimersRequest): TimerRecord[] {
  return (q.claimTimers.all({ now: req.now, limit: req.limit, leaseUntil: req.now + req.leaseMs, owner: req.owner }) as Row[]).map(toTimer);
}

function workflowIdUsed(rec: ExecutionRecord): StoreConflictError {
  return new StoreConflictError('workflowIdUsed', `workflow ${rec.workflowId} has a run already`);
}

function mapInsertError(err: unknown, rec: ExecutionRecord): unknown {
  const code = (err as { code?: string }).code;
  const message = String((err as Error).message);
  if (code === SQLITE_ERROR_CODES.uniqueViolation || code === SQLITE_ERROR_CODES.primaryKeyViolation) {
    if (message.includes('executions.workflow_id')) {
      return new StoreConflictError('alreadyOpen', `workflow ${rec.workflowId} has an open run`);
    }
    if (message.includes('executions.run_id')) return new StoreConflictError('duplicateRun', `run ${rec.runId} exists`);
  }
  return err;
}
