import { ServiceError } from '../../common/errors.ts';
import { newUuid } from '../../common/ids.ts';
import { encodePayload } from '../../common/payload.ts';
import { requireInt, requireString } from '../../common/validate.ts';
import type { HistoryEvent } from '../../history/events.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import type { PollUpdateRequest, QueryTask, UpdateWorkflowRequest, UpdateWorkflowResponse } from '../../protocol/index.ts';
import type { UpdateOutcome } from '../../history/message-types.ts';
import type { CallOptions } from '../../protocol/index.ts';
import { ValidationError } from '../../errors/index.ts';
import type { ExecutionRecord } from '../../store/types.ts';
import type { CommandContext } from '../core/commands.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { updateStageOf, type MessageLimits, type UpdateRecord } from './message-state.ts';
import type { QueryRouter } from './queries.ts';
import { requireFailure, requireObject } from '../core/requests.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { pollUpdateRequestSchema, updateWorkflowRequestSchema } from '../../protocol/schemas/messages.ts';

import { resolveRun } from '../core/resolve-run.ts';

/*
 * An update's four phases. Admission: the run is open and holds fewer than
 * maxInFlightUpdatesPerRun updates being validated or awaiting completion. Validation: a worker
 * runs the validator read-only, like a query, so a rejection writes nothing at all. Acceptance:
 * WorkflowExecutionUpdateAccepted is written only if no event that could change the workflow's
 * state arrived since the state the validator saw (else the validation runs again). Completion:
 * the handler's CompleteWorkflowExecutionUpdate command writes WorkflowExecutionUpdateCompleted
 * with the outcome, which the run's state keeps, so a repeated update id gets the same answer.
 */

/** How often an update's validation is retried because newer events arrived meanwhile. */
const MAX_VALIDATION_ROUNDS = 10;
/** Events that record the workflow task itself or a command; they never change workflow state on their own. */
const NON_WAKING: ReadonlySet<string> = new Set([
  'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted', 'WorkflowTaskFailed', 'WorkflowTaskTimedOut', 'ActivityTaskStarted',
]);

function wakes(e: { eventType: string; attributes: unknown }): boolean {
  if (NON_WAKING.has(e.eventType)) return false;
  return (e.attributes as { workflowTaskCompletedEventId?: number }).workflowTaskCompletedEventId === undefined;
}

/** Admits, validates, accepts updates and waits for their completion. */
export class UpdateService {
  /** Validations running on this server, by run then update id (joined by a repeated update id). */
  readonly #validating = new Map<string, Map<string, Promise<UpdateWorkflowResponse>>>();

  constructor(private readonly core: EngineCore, private readonly limits: MessageLimits, private readonly queries: QueryRouter) {}

  async update(input: UpdateWorkflowRequest): Promise<UpdateWorkflowResponse> {
    const { updateName, args, identity, waitForStage, header, ...req } = parseRequest(updateWorkflowRequestSchema, input);
    const ref = req;
    const updateId = req.updateId ?? newUuid();
    const timeoutMs = req.timeoutMs ?? this.limits.queryTimeoutMs;
    const rec = await resolveRun(this.core.store, ref);
    let perRun = this.#validating.get(rec.runId);
    let accepted = perRun?.get(updateId);
    if (!accepted) {
      if (!perRun) this.#validating.set(rec.runId, (perRun = new Map()));
      accepted = this.#admitAndAccept(rec, { updateId, updateName, args, ...(header ? { header } : {}) }, identity, timeoutMs);
      perRun.set(updateId, accepted);
      const runMap = perRun;
      void accepted.catch(() => undefined).finally(() => {
        runMap.delete(updateId);
        if (runMap.size === 0) this.#validating.delete(rec.runId);
      });
    }
    const res = await accepted;
    if (res.stage === 'Rejected' || res.stage === 'Completed' || (res.stage === 'Accepted' && waitForStage === 'Accepted')) return res;
    return this.waitForStage(rec.runId, updateId, rec.workflowId, waitForStage, this.core.waitClock.now() + 600_000);
  }

  async #admitAndAccept(rec: ExecutionRecord, request: NonNullable<QueryTask['updateValidation']>, identity: string | undefined,
    timeoutMs: number): Promise<UpdateWorkflowResponse> {
    const { core } = this;
    const { updateId, updateName, args, header } = request;
    for (let round = 0; round < MAX_VALIDATION_ROUNDS; round++) {
      const current = (await core.store.getExecution(rec.runId))!;
      const state = core.runState(current);
      const known = state.messages.updates[updateId];
      if (known) return respond(updateId, current.runId, known, state.previousStartedEventId);
      if (current.status !== 'Running') {
        throw new ServiceError('FailedPrecondition', `cannot update workflow ${rec.workflowId} run ${rec.runId}: it is already ${current.status}`);
      }
      const open = Object.values(state.messages.updates).filter((u) => u.stage !== 'Completed').length;
      const validating = this.#validating.get(rec.runId)?.size ?? 1;
      if (open + validating > this.limits.maxInFlightUpdatesPerRun) {
        throw new ServiceError('ResourceExhausted', `workflow ${rec.workflowId} run ${rec.runId} already has ${open + validating - 1} updates in flight, ` +
          `the limit per run (maxInFlightUpdatesPerRun ${this.limits.maxInFlightUpdatesPerRun})`);
      }
      const answer = await this.queries.dispatch(current, { updateValidation: request }, timeoutMs, `update "${updateName}"`);
      if (answer.failure) return { updateId, runId: rec.runId, stage: 'Rejected', outcome: { failure: answer.failure } };
      const latest = (await core.store.getExecution(rec.runId))!;
      let since: HistoryEvent[] = [];
      if (latest.nextEventId - 1 > answer.lastEventId) {
        since = await core.store.readHistory(rec.runId, answer.lastEventId + 1, latest.nextEventId - 1 - answer.lastEventId);
      }
      if (since.some(wakes)) continue;
      const outcome = await core.mutate(rec.runId, (b) => {
        const m = b.state.messages;
        const again = m.updates[updateId];
        if (again) return { ...again, stage: updateStageOf(again, b.state.previousStartedEventId) };
        if (b.closed) return 'closed' as const;
        if (b.record.nextEventId !== latest.nextEventId || b.state.buffered.some(wakes)) return 'stale' as const;
        const u: UpdateRecord = { updateName, stage: 'Accepted' };
        m.updates[updateId] = u;
        b.addEvent('WorkflowExecutionUpdateAccepted', {
          updateId, updateName, args, ...(identity !== undefined ? { identity } : {}), ...(header ? { header } : {}),
        });
        b.ensureWorkflowTask();
        return u;
      });
      if (outcome === 'stale') continue;
      if (outcome === 'closed') {
        throw new ServiceError('FailedPrecondition', `cannot update workflow ${rec.workflowId} run ${rec.runId}: it closed during validation`);
      }
      return respond(updateId, rec.runId, outcome);
    }
    throw new ServiceError('Unavailable', `update "${updateName}" of workflow ${rec.workflowId}: new events kept arriving during ${MAX_VALIDATION_ROUNDS} validations`);
  }

  /** pollWorkflowExecutionUpdate: the update's stage once it reached `waitForStage` (completion by default), or the stage it is at when the wait ends first. */
  async poll(input: PollUpdateRequest, opts?: CallOptions): Promise<UpdateWorkflowResponse> {
    const { updateId, waitTimeoutMs: waitMs, waitForStage, ...ref } = parseRequest(pollUpdateRequestSchema, input);
    const rec = await resolveRun(this.core.store, ref);
    return this.waitForStage(rec.runId, updateId, rec.workflowId, waitForStage, this.core.waitClock.now() + waitMs, opts?.signal);
  }

  /** Waits until the update reaches `stage` (or completes), answering its stage when the wait ends first. */
  async waitForStage(runId: string, updateId: string, workflowId: string, stage: 'Accepted' | 'Completed', deadline: number,
    signal?: AbortSignal): Promise<UpdateWorkflowResponse> {
    // Completion is written by whichever server takes the workflow task, so this re-reads the
    // row: every 5 ms at first, backing off to 100 ms.
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      const rec = await this.core.store.getExecution(runId);
      const state = rec && this.core.runState(rec);
      const u = state?.messages.updates[updateId];
      if (!rec || !state || !u) throw new ServiceError('NotFound', `workflow ${workflowId} run ${runId} has no update with id ${updateId}`);
      const now = updateStageOf(u, state.previousStartedEventId);
      if (now === 'Completed' || (stage === 'Accepted' && now === 'Accepted')) return respond(updateId, runId, u, state.previousStartedEventId);
      if (rec.status !== 'Running') {
        throw new ServiceError('FailedPrecondition', `workflow ${workflowId} run ${runId} closed (${rec.status}) before update ${updateId} completed`);
      }
      if (this.core.waitClock.now() >= deadline || signal?.aborted || this.core.shutdown.signal.aborted) return respond(updateId, runId, u, state.previousStartedEventId);
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/** The answer about an update; `previousStartedEventId` (the run's) tells whether an admitted one was delivered. */
export function respond(updateId: string, runId: string, u: UpdateRecord, previousStartedEventId = 0): UpdateWorkflowResponse {
  return { updateId, runId, stage: updateStageOf(u, previousStartedEventId), ...(u.outcome ? { outcome: u.outcome } : {}) };
}

/** CompleteWorkflowExecutionUpdate: the accepted update's outcome, written once. */
export function applyCompleteUpdateCommand({ b, completedEventId, field }: CommandContext, a: Record<string, unknown>): void {
  const updateId = requireString(`${field}.updateId`, a.updateId, 200);
  const acceptedEventId = requireInt(`${field}.acceptedEventId`, a.acceptedEventId, 1);
  const o = requireObject(`${field}.outcome`, a.outcome);
  let outcome: UpdateOutcome;
  if (o.failure !== undefined) outcome = { failure: requireFailure(`${field}.outcome.failure`, o.failure) };
  else {
    encodePayload(`${field}.outcome.result`, o.result);
    outcome = { result: o.result === undefined ? null : o.result };
  }
  const u = b.state.messages.updates[updateId];
  if (!u || u.stage === 'Completed') {
    throw new ValidationError(`${field}.updateId`, u ? 'must name an update that has not completed' : 'must name an accepted or admitted update', updateId);
  }
  u.stage = 'Completed';
  u.outcome = outcome;
  delete u.admittedFrom;
  b.append('WorkflowExecutionUpdateCompleted', { updateId, acceptedEventId, outcome, workflowTaskCompletedEventId: completedEventId });
}

/**
 * The updates a history implies: each WorkflowExecutionUpdateAccepted is accepted (each
 * WorkflowExecutionUpdateAdmitted admitted), and completed
 * with its outcome once WorkflowExecutionUpdateCompleted follows. The handler of one accepted and
 * not completed runs when the workflow replays, and its CompleteWorkflowExecutionUpdate finds it.
 */
export function rebuildUpdates(b: TransitionBuilder, events: readonly HistoryEvent[]): void {
  const updates = b.state.messages.updates;
  for (const e of events) {
    if (e.eventType === 'WorkflowExecutionUpdateAccepted') updates[e.attributes.updateId] = { updateName: e.attributes.updateName, stage: 'Accepted' };
    else if (e.eventType === 'WorkflowExecutionUpdateAdmitted') {
      updates[e.attributes.updateId] = { updateName: e.attributes.updateName, stage: 'Admitted', admittedFrom: e.eventId };
    } else if (e.eventType === 'WorkflowExecutionUpdateCompleted') {
      const u = updates[e.attributes.updateId];
      if (!u) continue;
      u.stage = 'Completed';
      u.outcome = e.attributes.outcome;
    }
  }
}
