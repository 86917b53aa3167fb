import type { WireHeaders } from '../../common/headers.ts';
import { ServiceError } from '../../common/errors.ts';
import { ValidationError } from '../../errors/index.ts';
import { newUuid } from '../../common/ids.ts';
import { encodePayload } from '../../common/payload.ts';
import { optionalArray, optionalString, requireString } from '../../common/validate.ts';
import type { HistoryEvent } from '../../history/events.ts';
import type { SignalExternalFailedCause } from '../../history/message-types.ts';
import type { SignalWithStartRequest, StartWorkflowExecutionResponse } from '../../protocol/index.ts';
import type { Timer } from '../core/timer-data.ts';
import type { CommandContext } from '../core/commands.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { checkPending } from '../core/limits.ts';

import { SIGNAL_DEDUP_WINDOW, type MessageLimits, type PendingExternalSignal } from './message-state.ts';
import { optionalHeader, validStart } from '../core/requests.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { signalWithStartRequestSchema } from '../../protocol/schemas/messages.ts';
import { validateStartAttributes } from '../visibility/search-attributes.ts';
import { endStartDelay, freshRun, startBeside } from '../core/start.ts';
import type { TransitionBuilder } from '../core/transition.ts';

/** A signal to add to a run. */
export interface SignalInput {
  signalName: string;
  args: unknown[];
  identity?: string;
  requestId?: string;
  externalWorkflowExecution?: { namespace: string; workflowId: string; runId: string };
  header?: WireHeaders;
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
export function addSignal(b: TransitionBuilder, limits: MessageLimits, s: SignalInput, endsStartDelay = true): boolean {
  const m = b.state.messages;
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
    ...(s.header ? { header: s.header } : {}),
  });
  if (endsStartDelay) endStartDelay(b);
  b.ensureWorkflowTask();
  return true;
}

/**
 * signalWithStartWorkflowExecution: signals the open run of the workflow id, or starts a new run
 * (under the id reuse policy) whose history holds the signal before its first workflow task runs.
 */
export async function signalWithStart(core: EngineCore, limits: MessageLimits, input: SignalWithStartRequest): Promise<StartWorkflowExecutionResponse> {
  const { signalName, signalArgs: args, ...start } = parseRequest(signalWithStartRequestSchema, input);
  const given = start.searchAttributes;
  const s = validStart(start);
  if (s.workflowIdConflictPolicy === 'Fail') {
    throw new ValidationError('workflowIdConflictPolicy', 'cannot be Fail for a signal-with-start, which signals a running run (use UseExisting or TerminateExisting)', 'Fail');
  }
  const searchAttributes = await validateStartAttributes(core.store, s.namespace, given);
  if (searchAttributes) s.searchAttributes = searchAttributes;
  const requestId = s.requestId ?? newUuid();
  const signal: SignalInput = {
    signalName, args, requestId, ...(s.identity !== undefined ? { identity: s.identity } : {}), ...(s.header ? { header: s.header } : {}),
  };
  return core.transact(`signal-with-start of workflow ${s.workflowId}`, async () => {
    const latest = await core.store.getLatestExecution(s.namespace, s.workflowId);
    if (latest?.status === 'Running' && s.workflowIdConflictPolicy !== 'TerminateExisting') {
      const b = core.edit(latest);
      addSignal(b, limits, signal);
      return { result: { runId: latest.runId, started: false }, commit: b };
    }
    // The repeat of a request that started this run, or that signalled it before it closed.
    if (latest && (latest.requestId === requestId || core.runState(latest).messages.signalRequestIds.includes(requestId))) {
      return { result: { runId: latest.runId, started: false } };
    }
    const fresh = freshRun(core, { ...s, requestId });
    // The signal a signal-with-start starts its run with leaves a start delay in place, as in Temporal.
    addSignal(fresh, limits, signal, false);
    return startBeside(core, s, latest, fresh);
  });
}

/**
 * SignalExternalWorkflowExecution: records the Initiated event and a SignalExternal delivery
 * (outbox entry, due now); the timer loop delivers the signal ({@link deliverExternalSignal}) in separate transactions.
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
  const header = optionalHeader(`${field}.header`, a.header);
  const m = b.state.messages;
  checkPending(field, Object.keys(m.externalSignals).length, ctx.limits, 'maxPendingSignals');
  const ev = b.append('SignalExternalWorkflowExecutionInitiated', {
    signalId, namespace, workflowId, ...(runId !== undefined ? { runId } : {}), signalName, args, workflowTaskCompletedEventId: completedEventId,
    ...(header ? { header } : {}),
  });
  const p: PendingExternalSignal = {
    initiatedEventId: ev.eventId, signalId, namespace, workflowId, signalName, args, ...(runId !== undefined ? { runId } : {}), ...(header ? { header } : {}),
  };
  m.externalSignals[String(ev.eventId)] = p;
  b.addDelivery('SignalExternal', { initiatedEventId: ev.eventId });
}

/**
 * Delivers one external signal: first to the target (deduplicated by a request id made of the
 * sender's run and event, so a delivery retried after a crash adds nothing), then records the
 * result on the sender while consuming the timer, so the result is written exactly once.
 */
export async function deliverExternalSignal(core: EngineCore, limits: MessageLimits, timer: Timer<'SignalExternal'>): Promise<void> {
  const { initiatedEventId } = timer.data;
  const source = await core.store.getExecution(timer.runId);
  const pending = source ? core.runState(source).messages.externalSignals[String(initiatedEventId)] : undefined;
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
          ...(pending.header ? { header: pending.header } : {}),
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
  await core.mutate(source.runId, (b) => {
    b.consumeTimerId = timer.id;
    const m = b.state.messages;
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
}

/**
 * The signal state a history implies: every WorkflowExecutionSignaled counts toward
 * maxSignalsPerRun and its request id (the latest {@link SIGNAL_DEDUP_WINDOW}) keeps a repeat a
 * no-op; a signal to another workflow initiated and not answered is pending again, and its
 * SignalExternal delivery is sent again from the new run.
 */
export function rebuildSignals(b: TransitionBuilder, events: readonly HistoryEvent[]): void {
  const m = b.state.messages;
  const external = new Map<number, PendingExternalSignal>();
  for (const e of events) {
    if (e.eventType === 'WorkflowExecutionSignaled') {
      m.signalCount++;
      if (e.attributes.requestId !== undefined) m.signalRequestIds.push(e.attributes.requestId);
    } else if (e.eventType === 'SignalExternalWorkflowExecutionInitiated') {
      const { workflowTaskCompletedEventId: _, ...a } = e.attributes;
      external.set(e.eventId, { ...a, initiatedEventId: e.eventId });
    } else if (e.eventType === 'ExternalWorkflowExecutionSignaled' || e.eventType === 'SignalExternalWorkflowExecutionFailed') {
      external.delete(e.attributes.initiatedEventId);
    }
  }
  m.signalRequestIds.splice(0, Math.max(0, m.signalRequestIds.length - SIGNAL_DEDUP_WINDOW));
  for (const [id, p] of external) {
    m.externalSignals[String(id)] = p;
    b.addDelivery('SignalExternal', { initiatedEventId: id });
  }
}
