import type { HistoryEvent } from '../../history/events.ts';
import { idReuseVerdict } from '../../history/id-reuse-policy.ts';
import type { ExecutionRecord, TimerRecord } from '../../store/types.ts';
import type { ChildClosedData, ParentCloseData, StartChildData } from './child-close.ts';
import { coreStateOf } from '../core/state.ts';
import type { Attempt, EngineCore } from '../core/engine-core.ts';
import { DEFAULT_WORKFLOW_TASK_TIMEOUT_MS } from '../core/requests.ts';
import { buildNewRun, terminateRun } from '../core/runs.ts';
import type { SearchAttributeValue } from '../../visibility/attributes.ts';
import { type TransitionBuilder } from '../core/transition.ts';

/** The attempt that only consumes the timer: its target is gone or has nothing to do. */
function consume(timer: TimerRecord): Attempt<void> {
  return { result: undefined, commit: { build: () => ({ executions: [], deleteTimerIds: [timer.id] }) } };
}

/** The first run of the child initiated by `parent` at `initiatedEventId`, from that event's attributes. */
async function newChildRun(core: EngineCore, parent: ExecutionRecord, initiatedEventId: number, now: number): Promise<TransitionBuilder> {
  const [initiated] = await core.store.readHistory(parent.runId, initiatedEventId, 1) as HistoryEvent<'StartChildWorkflowExecutionInitiated'>[];
  const a = initiated!.attributes;
  return buildNewRun(core.features, {
    namespace: a.namespace, workflowId: a.workflowId, workflowType: a.workflowType, taskQueue: a.taskQueue, args: a.args,
    workflowTaskTimeoutMs: a.workflowTaskTimeoutMs ?? DEFAULT_WORKFLOW_TASK_TIMEOUT_MS, attempt: 1, backoffMs: 0,
    parent: { namespace: parent.namespace, workflowId: parent.workflowId, runId: parent.runId, initiatedEventId },
    ...(a.memo ? { memo: a.memo } : {}), ...(a.searchAttributes ? { searchAttributes: a.searchAttributes as Record<string, SearchAttributeValue> } : {}),
    ...(a.retryPolicy ? { retryPolicy: a.retryPolicy } : {}),
    ...(a.workflowExecutionTimeoutMs !== undefined ? { workflowExecutionTimeoutMs: a.workflowExecutionTimeoutMs } : {}),
    ...(a.workflowRunTimeoutMs !== undefined ? { workflowRunTimeoutMs: a.workflowRunTimeoutMs } : {}),
    ...(a.cronSchedule !== undefined ? { cronSchedule: a.cronSchedule } : {}),
    ...(a.header ? { header: a.header } : {}),
    ...(a.userMetadata ? { userMetadata: a.userMetadata } : {}),
  }, now);
}

/**
 * The start of an Abandon child whose parent closed first (child-close.ts): the child runs on
 * its own. A running workflow with the same id leaves it unstarted, with no parent to tell.
 */
function startAbandonedChild(core: EngineCore, timer: TimerRecord, d: Required<StartChildData>): Promise<void> {
  return core.transact(`starting abandoned child ${d.initiatedEventId} of run ${d.parentRunId}`, async () => {
    const parent = await core.store.getExecution(d.parentRunId);
    const [initiated] = parent ? await core.store.readHistory(parent.runId, d.initiatedEventId, 1) : [];
    if (!parent || initiated?.eventType !== 'StartChildWorkflowExecutionInitiated') return consume(timer);
    const latest = await core.store.getLatestExecution(initiated.attributes.namespace, initiated.attributes.workflowId);
    if (latest?.status === 'Running') return consume(timer);
    const nb = await newChildRun(core, parent, d.initiatedEventId, core.clock.now());
    nb.consumeTimerId = timer.id;
    return { result: undefined, commit: nb };
  });
}

/** Starts the child initiated at `initiatedEventId`, or records StartChildWorkflowExecutionFailed when the id reuse policy refuses. */
function startChild(core: EngineCore, timer: TimerRecord): Promise<void> {
  const d = timer.data as StartChildData;
  if (d.parentRunId !== undefined) return startAbandonedChild(core, timer, { initiatedEventId: d.initiatedEventId, parentRunId: d.parentRunId });
  const { initiatedEventId } = d;
  const key = String(initiatedEventId);
  return core.transact(`starting child ${initiatedEventId} of run ${timer.runId}`, async () => {
    const parent = await core.store.getExecution(timer.runId);
    const info = parent && core.runState(parent).children[key];
    if (!parent || parent.status !== 'Running' || !info || info.runId !== undefined) return consume(timer);
    const latest = await core.store.getLatestExecution(info.namespace, info.workflowId);
    const now = core.clock.now();
    const pb = core.edit(parent, now);
    pb.consumeTimerId = timer.id;
    const children = pb.state.children;
    const child = children[key]!;
    // A child may not terminate its own parent, whatever its policy.
    const verdict = latest?.runId === parent.runId ? { kind: 'rejected' }
      : idReuseVerdict(child.workflowIdReusePolicy ?? 'AllowDuplicate', latest, child.workflowIdConflictPolicy);
    if (verdict.kind === 'rejected' || verdict.kind === 'useExisting') {
      delete children[key];
      pb.addEvent('StartChildWorkflowExecutionFailed', {
        namespace: child.namespace, workflowId: child.workflowId, workflowType: child.workflowType, cause: 'WorkflowAlreadyExists',
        initiatedEventId,
      });
    } else {
      if (verdict.kind === 'terminateAndStart') {
        const tb = core.edit(latest!, now);
        terminateRun(tb, `terminated by the start of a child of workflow ${parent.workflowId} with ${child.workflowIdConflictPolicy === 'TerminateExisting' ? 'workflowIdConflictPolicy TerminateExisting' : 'workflowIdReusePolicy TerminateIfRunning'}`);
        pb.others.push(tb);
      }
      const nb = await newChildRun(core, parent, initiatedEventId, now);
      child.runId = nb.record.runId;
      pb.addEvent('ChildWorkflowExecutionStarted', {
        namespace: child.namespace, workflowId: child.workflowId, runId: child.runId, workflowType: child.workflowType, initiatedEventId,
      });
      pb.others.push(nb);
    }
    pb.ensureWorkflowTask();
    return { result: undefined, commit: pb };
  }, timer.runId);
}

/** A child's chain closed: its outcome reaches the parent as a ChildWorkflowExecution* event. */
async function childClosed(core: EngineCore, timer: TimerRecord): Promise<void> {
  const d = timer.data as ChildClosedData;
  const key = String(d.initiatedEventId);
  if (!(await core.store.getExecution(timer.runId))) return core.transact('consuming a child close notice', () => consume(timer));
  await core.mutate(timer.runId, (b) => {
    b.consumeTimerId = timer.id;
    const children = b.state.children;
    const c = children[key];
    if (b.closed || !c) return;
    delete children[key];
    const ref = { namespace: c.namespace, workflowId: c.workflowId, runId: c.runId ?? d.childRunId, workflowType: c.workflowType, initiatedEventId: d.initiatedEventId };
    const a = d.attributes;
    switch (d.eventType) {
      case 'WorkflowExecutionCompleted':
        b.addEvent('ChildWorkflowExecutionCompleted', { ...ref, result: a.result ?? null });
        break;
      case 'WorkflowExecutionFailed':
        b.addEvent('ChildWorkflowExecutionFailed', { ...ref, failure: a.failure as never, retryState: a.retryState as never });
        break;
      case 'WorkflowExecutionCanceled':
        b.addEvent('ChildWorkflowExecutionCanceled', { ...ref, ...(a.details !== undefined ? { details: a.details } : {}) });
        break;
      case 'WorkflowExecutionTimedOut':
        b.addEvent('ChildWorkflowExecutionTimedOut', { ...ref, retryState: a.retryState as never });
        break;
      default:
        b.addEvent('ChildWorkflowExecutionTerminated', { ...ref, ...(typeof a.reason === 'string' ? { reason: a.reason } : {}) });
    }
    b.ensureWorkflowTask();
  });
}

/** The current run of a chain that is a child of the given parent run, if it is open. */
function isOpenChildOf(rec: ExecutionRecord | undefined, parentWorkflowId: string, parentRunId: string): rec is ExecutionRecord {
  const p = rec && coreStateOf(rec).parent;
  return rec?.status === 'Running' && p?.workflowId === parentWorkflowId && p.runId === parentRunId;
}

/** Adds the cancel request of a run (once). */
function requestCancel(b: TransitionBuilder, reason: string, identity: string): void {
  if (b.state.cancelRequested) return;
  b.state.cancelRequested = true;
  b.addEvent('WorkflowExecutionCancelRequested', { reason, identity });
  b.ensureWorkflowTask();
}

/** The parent closed: terminate or cancel the child's current run. */
function parentClosePolicy(core: EngineCore, timer: TimerRecord): Promise<void> {
  const d = timer.data as ParentCloseData;
  return core.transact(`applying parent close policy to child ${d.childWorkflowId}`, async () => {
    const latest = await core.store.getLatestExecution(d.namespace, d.childWorkflowId);
    if (!isOpenChildOf(latest, d.parentWorkflowId, d.parentRunId)) return consume(timer);
    const b = core.edit(latest);
    b.consumeTimerId = timer.id;
    const why = `parent workflow ${d.parentWorkflowId} (run ${d.parentRunId}) closed; parent close policy ${d.policy}`;
    if (d.policy === 'Terminate') terminateRun(b, why, undefined, `workflow ${d.parentWorkflowId}`);
    else requestCancel(b, why, `workflow ${d.parentWorkflowId}`);
    return { result: undefined, commit: b };
  });
}

/** Delivers a RequestCancelExternalWorkflowExecution to the target's current run. */
function cancelExternal(core: EngineCore, timer: TimerRecord): Promise<void> {
  const { initiatedEventId } = timer.data as { initiatedEventId: number };
  const key = String(initiatedEventId);
  return core.transact(`delivering cancel request ${initiatedEventId} of run ${timer.runId}`, async () => {
    const req = await core.store.getExecution(timer.runId);
    const r = req && core.runState(req).cancelRequests[key];
    if (!req || req.status !== 'Running' || !r) return consume(timer);
    const target = await core.store.getLatestExecution(r.namespace, r.workflowId);
    let ok = target?.status === 'Running' && target.runId !== req.runId;
    if (ok && r.runId !== undefined && target!.runId !== r.runId) {
      ok = (await core.store.getExecution(r.runId))?.firstExecutionRunId === target!.firstExecutionRunId;
    }
    if (ok && r.childWorkflowOnly) ok = isOpenChildOf(target, req.workflowId, req.runId);
    const now = core.clock.now();
    const rb = core.edit(req, now);
    rb.consumeTimerId = timer.id;
    delete rb.state.cancelRequests[key];
    const ref = { initiatedEventId, namespace: r.namespace, workflowId: r.workflowId };
    if (ok) {
      rb.addEvent('ExternalWorkflowExecutionCancelRequested', { ...ref, runId: target!.runId });
      const tb = core.edit(target!, now);
      requestCancel(tb, `cancel requested by workflow ${req.workflowId}`, `workflow ${req.workflowId}`);
      rb.others.push(tb);
    } else {
      rb.addEvent('RequestCancelExternalWorkflowExecutionFailed', {
        ...ref, cause: 'ExternalWorkflowExecutionNotFound', ...(r.runId !== undefined ? { runId: r.runId } : {}),
        ...(r.control !== undefined ? { control: r.control } : {}),
      });
    }
    rb.ensureWorkflowTask();
    return { result: undefined, commit: rb };
  }, timer.runId);
}

/** The deliveries between a parent and its children (child/index.ts). */
export const CHILD_DELIVERIES = { StartChild: startChild, ChildClosed: childClosed, ParentClosePolicy: parentClosePolicy };

/** The delivery of a workflow's cancel request to another workflow (cancel/index.ts). */
export const CANCEL_DELIVERIES = { CancelExternal: cancelExternal };
