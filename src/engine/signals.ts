import { ServiceError, WorkflowExecutionAlreadyStartedError } from '../common/errors.ts';
import { newUuid } from '../common/ids.ts';
import { encodePayload } from '../common/payload.ts';
import { optionalArray, optionalString, requireString } from '../common/validate.ts';
import type { SignalExternalFailedCause } from '../history/message-types.ts';
import type { SignalWithStartRequest, SignalWorkflowRequest } from '../protocol/index.ts';
import type { StartWorkflowExecutionResponse } from '../protocol/index.ts';
import { StoreConflictError } from '../store/errors.ts';
import type { TimerRecord } from '../store/types.ts';
import type { CommandContext } from './commands.ts';
import type { EngineCore } from './core.ts';
import { checkPending } from './limits.ts';
import { messageState, peekMessageState, SIGNAL_DEDUP_WINDOW, type MessageLimits, type PendingExternalSignal } from './message-state.ts';
import { validStart } from './requests.ts';
import { parseRequest } from '../protocol/parse.ts';
import { signalWithStartRequestSchema, signalWorkflowRequestSchema } from '../protocol/schemas/messages.ts';
import { validateStartAttributes } from './search-attributes.ts';
import { buildNewRun } from './runs.ts';
import type { TransitionBuilder } from './transition.ts';
import { resolveRun } from './visibility.ts';

/** Timer kind that delivers a SignalExternalWorkflowExecution to its target (a transactional outbox entry). */
export const SIGNAL_EXTERNAL_TIMER = 'SignalExternal';

/** A signal to add to a run. */
export interface SignalInput {
  signalName: string;
  args: unknown[];
  identity?: string;
  requestId?: string;
  externalWorkflowExecution?: { namespace: string; workflowId: string; runId: string };
}

/** The run has received as many signals as its limit allows. */
export class SignalLimitError extends ServiceError {
  constructor(message: string) {
    super('ResourceExhausted', message);
  }
}

/**
 * Adds WorkflowExecutionSignaled to the run (buffered while a workflow task runs) and makes sure
 * a workflow task will deliver it. Returns false for a request id seen before (nothing added).
 * @throws SignalLimitError past `maxSignalsPerRun`.
 */
export function addSignal(b: TransitionBuilder, limits: MessageLimits, s: SignalInput): boolean {
  const m = messageState(b.state);
  if (s.requestId !== undefined && m.signalRequestIds.includes(s.requestId)) return false;
  if (m.signalCount >= limits.maxSignalsPerRun) {
    throw new SignalLimitError(`workflow ${b.record.workflowId} run ${b.record.runId} has received ${m.signalCount} signals, ` +
      `the limit per run (maxSignalsPerRun ${limits.maxSignalsPerRun}); continue-as-new starts a new count`);
  }
  m.signalCount++;
  if (s.requestId !== undefined) {
    m.signalRequestIds.push(s.requestId);
    if (m.signalRequestIds.length > SIGNAL_DEDUP_WINDOW) m.signalRequestIds.splice(0, m.signalRequestIds.length - SIGNAL_DEDUP_WINDOW);
  }
  b.addEvent('WorkflowExecutionSignaled', {
    signalName: s.signalName, args: s.args,
    ...(s.identity !== undefined ? { identity: s.identity } : {}),
    ...(s.requestId !== undefined ? { requestId: s.requestId } : {}),
    ...(s.externalWorkflowExecution ? { externalWorkflowExecution: s.externalWorkflowExecution } : {}),
  });
  b.ensureWorkflowTask();
  return true;
}


/** signalWorkflowExecution: persisted before it returns; a repeated request id is a no-op. */
export async function signalWorkflow(core: EngineCore, limits: MessageLimits, input: SignalWorkflowRequest): Promise<void> {
  const { signalName, args, identity, requestId: given, ...ref } = parseRequest(signalWorkflowRequestSchema, input);
  const requestId = given ?? newUuid();
  const rec = await resolveRun(core.store, ref);
  await core.mutate(rec.runId, (b) => {
    if (b.closed) {
      // The repeat of a signal that reached the run before it closed.
      if (peekMessageState(b.state)?.signalRequestIds.includes(requestId)) return;
      throw new ServiceError('FailedPrecondition', `cannot signal workflow ${rec.workflowId} run ${rec.runId}: it is already ${b.record.status}`);
    }
    addSignal(b, limits, { signalName, args, requestId, ...(identity !== undefined ? { identity } : {}) });
  });
}

/**
 * signalWithStartWorkflowExecution: signals the open run of the workflow id, or starts a new run
 * (under the id reuse policy) whose history holds the signal before its first workflow task runs.
 */
export async function signalWithStart(core: EngineCore, limits: MessageLimits, input: SignalWithStartRequest): Promise<StartWorkflowExecutionResponse> {
  const { signalName, signalArgs: args, ...start } = parseRequest(signalWithStartRequestSchema, input);
  const given = start.searchAttributes;
  const s = validStart(start);
  const searchAttributes = await validateStartAttributes(core.store, s.namespace, given);
  if (searchAttributes) s.searchAttributes = searchAttributes;
  const requestId = s.requestId ?? newUuid();
  const signal: SignalInput = { signalName, args, requestId, ...(s.identity !== undefined ? { identity: s.identity } : {}) };
  const { store, clock } = core;
  return core.tracked(async () => {
    for (let i = 0; i < 20; i++) {
      const latest = await store.getLatestExecution(s.namespace, s.workflowId);
      if (latest?.status === 'Running') {
        const signalled = await core.mutate(latest.runId, (b) => (b.closed ? false : (addSignal(b, limits, signal), true)));
        if (signalled) return { runId: latest.runId, started: false };
        continue;
      }
      // The repeat of a request that started this run, or that signalled it before it closed.
      if (latest && (latest.requestId === requestId || peekMessageState(latest.state)?.signalRequestIds.includes(requestId))) {
        return { runId: latest.runId, started: false };
      }
      const rejected = (why: string) => new WorkflowExecutionAlreadyStartedError(
        `workflow ${s.workflowId} ${why}`, s.workflowId, s.workflowType, latest?.runId);
      if (latest && s.workflowIdReusePolicy === 'RejectDuplicate') {
        throw rejected(`already ran (run ${latest.runId}, ${latest.status}) and workflowIdReusePolicy is RejectDuplicate`);
      }
      if (latest?.status === 'Completed' && s.workflowIdReusePolicy === 'AllowDuplicateFailedOnly') {
        throw rejected(`already completed (run ${latest.runId}) and workflowIdReusePolicy is AllowDuplicateFailedOnly`);
      }
      const fresh = buildNewRun({ ...s, requestId, attempt: 1, backoffMs: 0 }, clock.now());
      addSignal(fresh, limits, signal);
      try {
        await store.commit(fresh.build());
        return { runId: fresh.record.runId, started: true };
      } catch (err) {
        if (err instanceof StoreConflictError && (err.reason === 'alreadyOpen' || err.reason === 'version')) continue;
        throw err;
      }
    }
    throw new ServiceError('Unavailable', `signal-with-start of workflow ${s.workflowId} kept losing races with concurrent starts`);
  });
}

/**
 * SignalExternalWorkflowExecution: records the Initiated event and an outbox timer due now; the
 * timer loop delivers the signal ({@link deliverExternalSignal}) in separate transactions.
 */
export function applySignalExternalCommand(ctx: CommandContext, a: Record<string, unknown>): void {
  const { b, completedEventId, field } = ctx;
  const signalId = requireString(`${field}.signalId`, a.signalId, 200);
  const namespace = optionalString(`${field}.namespace`, a.namespace, 200) ?? b.record.namespace;
  const workflowId = requireString(`${field}.workflowId`, a.workflowId);
  const runId = optionalString(`${field}.runId`, a.runId, 200);
  const signalName = requireString(`${field}.signalName`, a.signalName, 500);
  const args = optionalArray(`${field}.args`, a.args);
  encodePayload(`${field}.args`, args);
  const m = messageState(b.state);
  checkPending(field, Object.keys(m.externalSignals).length, ctx.limits, 'maxPendingSignals');
  const ev = b.append('SignalExternalWorkflowExecutionInitiated', {
    signalId, namespace, workflowId, ...(runId !== undefined ? { runId } : {}), signalName, args, workflowTaskCompletedEventId: completedEventId,
  });
  const p: PendingExternalSignal = { initiatedEventId: ev.eventId, signalId, namespace, workflowId, signalName, args, ...(runId !== undefined ? { runId } : {}) };
  m.externalSignals[String(ev.eventId)] = p;
  b.createTimers.push({
    id: newUuid(), namespace: b.record.namespace, runId: b.record.runId, kind: SIGNAL_EXTERNAL_TIMER, dueAt: b.now,
    data: { initiatedEventId: ev.eventId },
  });
}

/**
 * Delivers one external signal: first to the target (deduplicated by a request id made of the
 * sender's run and event, so a delivery retried after a crash adds nothing), then records the
 * result on the sender while consuming the timer, so the result is written exactly once.
 */
export async function deliverExternalSignal(core: EngineCore, limits: MessageLimits, timer: TimerRecord): Promise<void> {
  const { initiatedEventId } = timer.data as { initiatedEventId: number };
  const source = await core.store.getExecution(timer.runId);
  const pending = source ? messageState(structuredClone(source.state) as never).externalSignals[String(initiatedEventId)] : undefined;
  if (!source || !pending) {
    await core.store.commit({ executions: [], deleteTimerIds: [timer.id] });
    return;
  }
  let failure: { cause: SignalExternalFailedCause; message: string } | undefined;
  let targetRunId: string | undefined;
  const target = pending.runId !== undefined
    ? await core.store.getExecution(pending.runId)
    : await core.store.getLatestExecution(pending.namespace, pending.workflowId);
  if (!target || target.workflowId !== pending.workflowId || target.namespace !== pending.namespace || target.status !== 'Running') {
    failure = {
      cause: 'ExternalWorkflowExecutionNotFound',
      message: `no open run of workflow ${pending.workflowId}${pending.runId ? ` with run id ${pending.runId}` : ''} in namespace ${pending.namespace}`,
    };
  } else {
    try {
      const ok = await core.mutate(target.runId, (b) => {
        if (b.closed) return false;
        addSignal(b, limits, {
          signalName: pending.signalName, args: pending.args, requestId: `external:${source.runId}:${initiatedEventId}`,
          externalWorkflowExecution: { namespace: source.namespace, workflowId: source.workflowId, runId: source.runId },
        });
        return true;
      });
      if (ok) targetRunId = target.runId;
      else failure = { cause: 'ExternalWorkflowExecutionNotFound', message: `workflow ${pending.workflowId} closed before the signal reached it` };
    } catch (err) {
      if (!(err instanceof SignalLimitError)) throw err;
      failure = { cause: 'SignalCountLimitExceeded', message: err.message };
    }
  }
  try {
    await core.mutate(source.runId, (b) => {
      b.consumeTimerId = timer.id;
      const m = messageState(b.state);
      const p = m.externalSignals[String(initiatedEventId)];
      if (b.closed || !p) return;
      delete m.externalSignals[String(initiatedEventId)];
      const common = { initiatedEventId, signalId: p.signalId, namespace: p.namespace, workflowId: p.workflowId };
      if (failure) {
        b.addEvent('SignalExternalWorkflowExecutionFailed', { ...common, ...(p.runId !== undefined ? { runId: p.runId } : {}), ...failure });
      } else {
        b.addEvent('ExternalWorkflowExecutionSignaled', { ...common, runId: targetRunId! });
      }
      b.ensureWorkflowTask();
    });
  } catch (err) {
    if (err instanceof StoreConflictError && err.reason === 'timerGone') return;
    throw err;
  }
}

