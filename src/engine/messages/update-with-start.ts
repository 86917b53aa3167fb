import { ServiceError } from '../../common/errors.ts';
import { faults } from '../../common/fault-points.ts';
import type { WireHeaders } from '../../common/headers.ts';
import { newUuid } from '../../common/ids.ts';
import { ValidationError } from '../../errors/index.ts';
import type { UpdateWithStartRequest, UpdateWithStartResponse } from '../../protocol/index.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { updateWithStartRequestSchema } from '../../protocol/schemas/messages.ts';
import type { ExecutionRecord } from '../../store/types.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { validStart } from '../core/requests.ts';
import { freshRun, startBeside } from '../core/start.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import { validateStartAttributes } from '../visibility/search-attributes.ts';
import type { MessageLimits } from './message-state.ts';
import type { UpdateService } from './updates.ts';

/** An update an update-with-start admits. */
interface AdmittedUpdate {
  updateId: string;
  updateName: string;
  args: unknown[];
  identity?: string;
  header?: WireHeaders;
}

/**
 * Admits an update to the run of `b` (WorkflowExecutionUpdateAdmitted, buffered while a workflow
 * task runs) and makes sure a workflow task delivers it; the worker validates it in that task.
 * @throws ServiceError ResourceExhausted past maxInFlightUpdatesPerRun.
 */
function admitUpdate(b: TransitionBuilder, limits: MessageLimits, u: AdmittedUpdate): void {
  const m = b.state.messages;
  const open = Object.values(m.updates).filter((x) => x.stage !== 'Completed').length;
  if (open >= limits.maxInFlightUpdatesPerRun) {
    throw new ServiceError('ResourceExhausted', `workflow ${b.record.workflowId} run ${b.record.runId} already has ${open} updates in flight, ` +
      `the limit per run (maxInFlightUpdatesPerRun ${limits.maxInFlightUpdatesPerRun})`);
  }
  m.updates[u.updateId] = { updateName: u.updateName, stage: 'Admitted', admittedFrom: b.record.nextEventId };
  b.addEvent('WorkflowExecutionUpdateAdmitted', {
    updateId: u.updateId, updateName: u.updateName, args: u.args,
    ...(u.identity !== undefined ? { identity: u.identity } : {}), ...(u.header ? { header: u.header } : {}),
  });
  b.ensureWorkflowTask();
}

/**
 * updateWithStartWorkflowExecution: in ONE transaction, the start (a new run under the id
 * conflict and reuse policies, terminating a running one for TerminateExisting) or the use of
 * the running run (UseExisting), and the update's admission to that run; a refusal of either
 * writes nothing. Then waits for the stage asked for. A validator's rejection completes the
 * update with its failure and leaves the run started, as in Temporal.
 * @throws WorkflowExecutionAlreadyStartedError when the policies refuse the start.
 */
export async function updateWithStart(core: EngineCore, limits: MessageLimits, updates: UpdateService,
  input: UpdateWithStartRequest): Promise<UpdateWithStartResponse> {
  const { updateName, updateArgs: args, updateId: givenUpdateId, updateHeader, waitForStage, timeoutMs, ...start } = parseRequest(updateWithStartRequestSchema, input);
  const given = start.searchAttributes;
  const s = validStart(start);
  if (s.workflowIdConflictPolicy === undefined) {
    throw new ValidationError('workflowIdConflictPolicy', 'is required for an update-with-start (UseExisting, Fail or TerminateExisting), as in Temporal', undefined);
  }
  if (s.cronSchedule !== undefined) throw new ValidationError('cronSchedule', 'cannot be given with an update-with-start, as in Temporal', start.cronSchedule);
  if (s.workflowStartDelayMs !== undefined) {
    throw new ValidationError('workflowStartDelayMs', 'cannot be given with an update-with-start (the update runs in the first workflow task), as in Temporal', s.workflowStartDelayMs);
  }
  const searchAttributes = await validateStartAttributes(core.store, s.namespace, given);
  if (searchAttributes) s.searchAttributes = searchAttributes;
  const requestId = s.requestId ?? newUuid();
  const updateId = givenUpdateId ?? newUuid();
  const update: AdmittedUpdate = {
    updateId, updateName, args, ...(s.identity !== undefined ? { identity: s.identity } : {}), ...(updateHeader ? { header: updateHeader } : {}),
  };
  const useExisting = async (latest: ExecutionRecord) => {
    const b = core.edit(latest);
    await faults.hit('engine.start.admit');
    admitUpdate(b, limits, update);
    return { result: { runId: latest.runId, started: false }, commit: b };
  };
  const done = await core.transact(`update-with-start of workflow ${s.workflowId}`, async () => {
    const latest = await core.store.getLatestExecution(s.namespace, s.workflowId);
    // The repeat of this request, or another with its update id, while the run that took the
    // update is open (or this request started it): that update's answer again. A closed run's
    // update id does not stop a new run from taking an update of the same id.
    if (latest && core.runState(latest).messages.updates[updateId] && (latest.status === 'Running' || latest.requestId === requestId)) {
      return { result: { runId: latest.runId, started: latest.requestId === requestId } };
    }
    if (latest?.status === 'Running' && s.workflowIdConflictPolicy === 'UseExisting') return useExisting(latest);
    const fresh = freshRun(core, { ...s, requestId });
    const attempt = startBeside(core, s, latest, fresh);
    if (!attempt.commit) return useExisting(latest!);
    await faults.hit('engine.start.admit');
    admitUpdate(fresh, limits, update);
    return attempt;
  });
  // Bounded like an update's validation: a caller past it polls (pollWorkflowExecutionUpdate) for the stage.
  const res = await updates.waitForStage(done.runId, updateId, s.workflowId, waitForStage, core.waitClock.now() + (timeoutMs ?? limits.queryTimeoutMs));
  return { runId: done.runId, started: done.started, update: res };
}
