import { newUuid } from '../../common/ids.ts';
import type { EventType, HistoryEvent } from '../../history/events.ts';
import { mergeMemo } from '../../history/memo.ts';
import { mergeSearchAttributes } from '../../history/search-attribute-values.ts';
import { RESET_REAPPLY_EXCLUDE_TYPES, type ResetReapplyExcludeType, type ResetWorkflowRequest, type ResetWorkflowResponse } from '../../protocol/index.ts';
import { ValidationError } from '../../errors/index.ts';
import type { ExecutionRecord } from '../../store/types.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { resetWorkflowRequestSchema } from '../../protocol/schemas/executions.ts';
import { handOverChildren } from './reset-children.ts';
import { terminateRun } from '../core/runs.ts';
import type { FeatureRegistry } from '../core/feature.ts';
import { initialState, type RunConfig, coreStateOf } from '../core/state.ts';
import { TransitionBuilder } from '../core/transition.ts';
import { resolveRun } from '../core/resolve-run.ts';

/**
 * Events that came from outside the run and are re-applied to the new run when they happened
 * after the reset point (Temporal's default, ResetReapplyType ALL_ELIGIBLE: signals and
 * updates), each under the kind a reset may exclude (`resetReapplyExcludeTypes`). Every type
 * listed that a history holds is copied, so a new kind of external event is one entry. A
 * re-applied update runs its handler again in the new run (its validator accepted it once), as
 * Temporal's re-applied updates do; an update-with-start's admitted update is validated again by
 * the task that delivers it.
 */
export const REAPPLIED_EVENT_TYPES: Readonly<Record<string, ResetReapplyExcludeType>> = {
  WorkflowExecutionSignaled: 'Signal',
  WorkflowExecutionUpdateAccepted: 'Update',
  WorkflowExecutionUpdateAdmitted: 'Update',
};

function validate(input: ResetWorkflowRequest) {
  const { eventId, resetType, reason, identity, reapplySignals, resetReapplyExcludeTypes, ...ref } = parseRequest(resetWorkflowRequestSchema, input);
  if ((eventId === undefined) === (resetType === undefined)) {
    throw new ValidationError('eventId', 'or resetType (FirstWorkflowTask, LastWorkflowTask) must be given, and not both', { eventId, resetType });
  }
  // reapplySignals: false is Temporal's older ResetReapplyType NONE: both kinds left out.
  const excluded = new Set<ResetReapplyExcludeType>(reapplySignals ? resetReapplyExcludeTypes : RESET_REAPPLY_EXCLUDE_TYPES);
  return { ref, eventId, resetType, reason, identity, excluded };
}

/** The WorkflowTaskCompleted the reset goes back to. */
function resetPoint(events: HistoryEvent[], eventId: number | undefined, resetType: string | undefined): HistoryEvent<'WorkflowTaskCompleted'> {
  const completed = events.filter((e): e is HistoryEvent<'WorkflowTaskCompleted'> => e.eventType === 'WorkflowTaskCompleted');
  const found = eventId !== undefined ? completed.find((e) => e.eventId === eventId)
    : resetType === 'FirstWorkflowTask' ? completed[0] : completed.at(-1);
  if (!found) {
    throw new ValidationError(eventId !== undefined ? 'eventId' : 'resetType',
      `must name a WorkflowTaskCompleted event of the run (it has ${completed.map((e) => e.eventId).join(', ') || 'none'})`, eventId ?? resetType);
  }
  return found;
}

/**
 * The new run: the history up to the reset task's WorkflowTaskStarted, the task failed with
 * ResetWorkflow, re-applied events, a new task; its state rebuilt from those events by every
 * feature (Feature.rebuild, core/feature.ts).
 */
function buildResetRun(features: FeatureRegistry, base: ExecutionRecord, events: HistoryEvent[], point: HistoryEvent<'WorkflowTaskCompleted'>, now: number,
  o: { reason: string; identity?: string | undefined; excluded: ReadonlySet<ResetReapplyExcludeType> }): TransitionBuilder {
  const runId = newUuid();
  const copied = events.filter((e) => e.eventId <= point.attributes.startedEventId);
  const started = copied[0] as HistoryEvent<'WorkflowExecutionStarted'>;
  const a = started.attributes;
  const cfg: RunConfig = { args: a.args, workflowTaskTimeoutMs: a.workflowTaskTimeoutMs, chainStartTime: now };
  if (a.workflowRunTimeoutMs !== undefined) cfg.workflowRunTimeoutMs = a.workflowRunTimeoutMs;
  if (a.workflowExecutionTimeoutMs !== undefined) cfg.workflowExecutionTimeoutMs = a.workflowExecutionTimeoutMs;
  if (a.retryPolicy) cfg.retryPolicy = a.retryPolicy;
  // A reset run of a cron job stays one: it closes into the chain's next run.
  if (a.cronSchedule !== undefined) cfg.cronSchedule = a.cronSchedule;
  if (a.userMetadata) cfg.userMetadata = a.userMetadata;
  const state = initialState(cfg, features.slices);
  if (a.lastCompletionResult !== undefined) state.lastCompletionResult = a.lastCompletionResult;
  // A child's parent reference may have moved since its start (its parent was reset): the run's state is current.
  const parent = coreStateOf(base).parent ?? a.parent;
  if (parent) state.parent = parent;
  const record: ExecutionRecord = {
    namespace: base.namespace, workflowId: base.workflowId, runId, workflowType: base.workflowType, taskQueue: base.taskQueue,
    status: 'Running', startTime: now, executionTime: now, nextEventId: 1, attempt: base.attempt,
    // The seed's rule: a reset starts a new chain (first execution run id) but keeps the original run id.
    firstExecutionRunId: runId, originalExecutionRunId: base.originalExecutionRunId, version: 1, state,
  };
  // The memo as of the reset point: the start's, with the upserts the copied history made.
  let memo = a.memo;
  for (const e of copied) if (e.eventType === 'WorkflowPropertiesModified') memo = mergeMemo(memo, e.attributes.upsertedMemo);
  if (memo) record.memo = memo;
  // Search attributes likewise: the start's, with the copied history's upserts.
  let attributes = a.searchAttributes;
  for (const e of copied) if (e.eventType === 'UpsertWorkflowSearchAttributes') attributes = mergeSearchAttributes(attributes, e.attributes.searchAttributes);
  if (attributes) record.searchAttributes = attributes;
  const b = new TransitionBuilder(record, now, features, true);
  for (const e of copied) {
    const attrs = e.eventType === 'WorkflowExecutionStarted' ? { ...a, firstExecutionRunId: runId } : e.attributes;
    b.appendAt(e.eventType, e.eventTime, attrs as never);
  }
  b.append('WorkflowTaskFailed', {
    scheduledEventId: point.attributes.scheduledEventId, startedEventId: point.attributes.startedEventId, cause: 'ResetWorkflow',
    failure: { kind: 'Application', type: 'ResetWorkflow', message: `reset to event ${point.eventId} of run ${base.runId}${o.reason ? `: ${o.reason}` : ''}` },
    identity: o.identity ?? 'reset',
    baseRunId: base.runId, newRunId: runId,
  });
  for (const e of events) {
    const kind = REAPPLIED_EVENT_TYPES[e.eventType];
    if (e.eventId > point.eventId && kind !== undefined && !o.excluded.has(kind)) b.appendAt(e.eventType as EventType, e.eventTime, e.attributes as never);
  }
  // Every feature's state as the history the new run starts with implies it: the run is what a
  // run that had written these events would be (pending work re-armed, updates and signals known).
  for (const rebuild of features.rebuild) rebuild(b, b.events);
  const deadline = cfg.workflowRunTimeoutMs !== undefined ? now + cfg.workflowRunTimeoutMs : undefined;
  if (deadline !== undefined) b.addTimer('RunTimeout', deadline, {});
  b.scheduleWorkflowTask();
  return b;
}

/**
 * Resets a run to one of its WorkflowTaskCompleted events: the workflow's open run is
 * terminated and a new run replays the history up to that task and continues from there. The
 * reset run's open children move to the new run with it (reset-children.ts), in the same
 * transaction.
 */
export async function resetWorkflowExecution(core: EngineCore, input: ResetWorkflowRequest): Promise<ResetWorkflowResponse> {
  const v = validate(input);
  return core.transact(`resetting workflow ${v.ref.workflowId}`, async () => {
    const base = await resolveRun(core.store, v.ref);
    const events = await core.store.readHistory(base.runId, 1, 10_000_000);
    const point = resetPoint(events, v.eventId, v.resetType);
    const now = core.clock.now();
    const next = buildResetRun(core.features, base, events, point, now, v);
    const handOver = await handOverChildren(core, base, next);
    const current = await core.store.getLatestExecution(base.namespace, base.workflowId);
    let primary = next;
    if (current?.status === 'Running') {
      primary = core.edit(current, now);
      const moving = current.runId === base.runId ? primary.state.children : undefined;
      for (const key of handOver.movedKeys) delete moving?.[key];
      terminateRun(primary, `reset to event ${point.eventId} of run ${base.runId}${v.reason ? `: ${v.reason}` : ''}`, undefined,
        v.identity, next.record.runId);
      primary.others.push(next);
    }
    primary.others.push(...handOver.children);
    return { result: { runId: next.record.runId }, commit: primary };
  });
}
