import type { ScheduleOverlapPolicy } from '../../protocol/index.ts';
import type { SearchAttributeValue } from '../../visibility/attributes.ts';
import { DEFAULT_WORKFLOW_TASK_TIMEOUT_MS } from '../core/requests.ts';
import { buildNewRun, terminateRun } from '../core/runs.ts';

import {
  actionWorkflowId, MAX_BUFFERED_ACTIONS, recordIncident, RECENT_ACTIONS, rfc3339, type ScheduleState,
} from './schedule-state.ts';
import type { ScheduleTx } from './schedule-tx.ts';

/** What became of an action: a workflow started, it waits in the buffer, or it was not taken. */
export type ActionOutcome = 'started' | 'buffered' | 'dropped';

/**
 * Takes the action at `nominal` under an overlap policy (the seed's wording): with a started
 * workflow still running, Skip drops it, BufferOne keeps one waiting (a second is an overrun),
 * BufferAll keeps up to {@link MAX_BUFFERED_ACTIONS}, CancelOther asks the running ones to
 * cancel and waits for them, TerminateOther terminates them and starts at once, AllowAll starts.
 */
export async function takeAction(tx: ScheduleTx, nominal: number, overlap: ScheduleOverlapPolicy, manual: boolean): Promise<ActionOutcome> {
  const s = tx.state;
  if (s.running.length === 0 || overlap === 'AllowAll') return startAction(tx, nominal);
  switch (overlap) {
    case 'Skip':
      recordIncident(s, 'Skipped', nominal, tx.now, `overlap policy Skip: ${s.running.map((r) => r.workflowId).join(', ')} still running`);
      return 'dropped';
    case 'BufferOne':
      if (s.buffer.length >= 1) {
        recordIncident(s, 'BufferOverrun', nominal, tx.now, `overlap policy BufferOne: ${rfc3339(s.buffer[0]!.nominal)} already buffered`);
        return 'dropped';
      }
      s.buffer.push({ nominal, manual });
      return 'buffered';
    case 'BufferAll':
      if (s.buffer.length >= MAX_BUFFERED_ACTIONS) {
        recordIncident(s, 'BufferOverrun', nominal, tx.now, `overlap policy BufferAll: the buffer holds its maximum of ${MAX_BUFFERED_ACTIONS}`);
        return 'dropped';
      }
      s.buffer.push({ nominal, manual });
      return 'buffered';
    case 'CancelOther':
      await endRunning(tx, 'cancel');
      for (const old of s.buffer.splice(0)) {
        recordIncident(s, 'BufferOverrun', old.nominal, tx.now, `overlap policy CancelOther: replaced by ${rfc3339(nominal)}`);
      }
      s.buffer.push({ nominal, manual });
      return 'buffered';
    case 'TerminateOther':
      await endRunning(tx, 'terminate');
      return startAction(tx, nominal);
  }
}

/** Cancels or terminates every running workflow of the schedule, in the same transaction. */
async function endRunning(tx: ScheduleTx, how: 'cancel' | 'terminate'): Promise<void> {
  const s = tx.state;
  for (const r of [...s.running]) {
    const rec = await tx.core.store.getLatestExecution(tx.namespace, r.workflowId);
    if (rec?.status !== 'Running') continue;
    const b = tx.runs.find((x) => x.record.runId === rec.runId) ?? tx.core.edit(rec, tx.now);
    if (!tx.runs.includes(b)) tx.runs.push(b);
    if (b.closed) continue;
    if (how === 'terminate') {
      terminateRun(b, `terminated by schedule ${tx.scheduleId} (overlap policy TerminateOther)`);
      s.running = s.running.filter((x) => x !== r);
    } else if (!b.state.cancelRequested) {
      b.state.cancelRequested = true;
      b.addEvent('WorkflowExecutionCancelRequested', { reason: `canceled by schedule ${tx.scheduleId} (overlap policy CancelOther)` });
      b.ensureWorkflowTask();
    }
  }
}

/** Starts the action's workflow, carrying the schedule's last completion result and last failure. */
export async function startAction(tx: ScheduleTx, nominal: number): Promise<ActionOutcome> {
  const s: ScheduleState = tx.state;
  const a = s.action;
  const workflowId = actionWorkflowId(s, nominal);
  const latest = tx.startedIds.has(workflowId) || tx.assumeFirstStarts ? undefined : await tx.core.store.getLatestExecution(tx.namespace, workflowId);
  if (tx.startedIds.has(workflowId) || latest?.status === 'Running') {
    recordIncident(s, 'Skipped', nominal, tx.now, `workflow ${workflowId} is already running`);
    return 'dropped';
  }
  const b = buildNewRun(tx.core.features, {
    namespace: tx.namespace, workflowId, workflowType: a.workflowType, taskQueue: a.taskQueue, args: a.args ?? [],
    workflowTaskTimeoutMs: a.workflowTaskTimeoutMs ?? DEFAULT_WORKFLOW_TASK_TIMEOUT_MS, attempt: 1, backoffMs: 0,
    ...(a.memo ? { memo: a.memo } : {}),
    ...(a.searchAttributes ? { searchAttributes: a.searchAttributes as Record<string, SearchAttributeValue> } : {}),
    ...(a.retryPolicy ? { retryPolicy: a.retryPolicy } : {}),
    ...(a.workflowExecutionTimeoutMs !== undefined ? { workflowExecutionTimeoutMs: a.workflowExecutionTimeoutMs } : {}),
    ...(a.workflowRunTimeoutMs !== undefined ? { workflowRunTimeoutMs: a.workflowRunTimeoutMs } : {}),
    ...(a.userMetadata ? { userMetadata: a.userMetadata } : {}),
    ...(s.lastCompletionResult !== undefined ? { lastCompletionResult: s.lastCompletionResult } : {}),
    ...(s.lastFailure ? { continuedFailure: s.lastFailure } : {}),
    identity: `schedule ${tx.scheduleId}`,
    scheduledById: tx.scheduleId, scheduledStartTime: nominal,
  }, tx.now);
  b.state.scheduledBy = { namespace: tx.namespace, scheduleId: tx.scheduleId, scheduledStartTime: nominal };
  if (tx.assumeFirstStarts) b.firstOfWorkflowId = true;
  tx.runs.push(b);
  tx.startedIds.add(workflowId);
  const runId = b.record.runId;
  s.running.push({ workflowId, runId, nominal });
  s.recent.push({ nominal, takenAt: tx.now, workflowId, runId, status: 'Running' });
  if (s.recent.length > RECENT_ACTIONS) s.recent.splice(0, s.recent.length - RECENT_ACTIONS);
  s.counters.actions++;
  return 'started';
}

/** Starts buffered actions, one at a time, while nothing the schedule started runs. */
export async function drainBuffer(tx: ScheduleTx): Promise<void> {
  const s = tx.state;
  while (s.running.length === 0 && s.buffer.length > 0) {
    await startAction(tx, s.buffer.shift()!.nominal);
  }
}
