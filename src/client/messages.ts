import { composeInterceptors } from '../common/interceptors.ts';
import { headersToWire, type Headers } from '../common/headers.ts';
import type { WorkflowClientInterceptor, WorkflowExecution } from './interceptors.ts';
import { newUuid } from '../common/ids.ts';
import { MAX_ID_LENGTH, MAX_QUERY_TIMEOUT_MS } from '../protocol/limits.ts';
import {
  messageNameOf, type QueryDefinition, type SignalDefinition, type UpdateDefinition,
} from '../common/message-definitions.ts';
import { optionalPositiveDuration, optionalString } from '../common/validate.ts';
import {
  QUERY_REJECT_CONDITIONS, type QueryRejectCondition as WireRejectCondition, type QueryWorkflowResponse, type UpdateWorkflowResponse,
} from '../protocol/index.ts';
import type { WorkflowService } from '../protocol/index.ts';
import type { Duration } from '../retry/duration.ts';
import { ValidationError } from '../errors/index.ts';
import { QueryFailedError, QueryRejectedError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from './message-errors.ts';
import { payloadOf } from './request-limits.ts';
import type { Waits } from './waits.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { resolveSpelling, temporalSpellings } from '../common/temporal-names.ts';

/** Which execution a message goes to. */
export interface MessageTarget {
  service: WorkflowService;
  namespace: string;
  workflowId: string;
  runId?: string;
  identity: string;
  /** The client's deadline scope and where it says why a wait goes on. */
  waits: Waits;
  /** The client's workflow interceptors. */
  interceptors?: readonly WorkflowClientInterceptor[];
  /** The run a `start()` made. */
  firstExecutionRunId?: string;
}

function executionOf(t: MessageTarget): WorkflowExecution {
  return { workflowId: t.workflowId, ...(t.runId ? { runId: t.runId } : {}) };
}

function wireRef(t: MessageTarget, e: WorkflowExecution, headers: Headers) {
  const header = headersToWire(headers);
  return { namespace: t.namespace, workflowId: e.workflowId, ...(e.runId ? { runId: e.runId } : {}), ...(header ? { header } : {}) };
}

/** Longest query timeout, ms: the protocol's bound, checked here under the option's name. */
export { MAX_QUERY_TIMEOUT_MS };

/** Options of `handle.query`. */
export interface QueryOptions {
  /** How long to wait for a worker's answer. @default 10s (the server's queryTimeoutMs) */
  timeout?: Duration;
  /**
   * Refuse the query, with a QueryRejectedError, when the run is closed (`NotOpen`) or closed
   * otherwise than Completed (`NotCompletedCleanly`); Temporal's `QUERY_REJECT_CONDITION_…`
   * spellings and the {@link QueryRejectCondition} object are accepted too. @default "None"
   */
  queryRejectCondition?: QueryRejectConditionOption;
}

const QUERY_OPTION_KEYS = optionKeys<QueryOptions>({ timeout: true, queryRejectCondition: true });

const UPDATE_OPTION_KEYS = optionKeys<UpdateOptions<unknown[]> & { args?: unknown[] }>({ args: true, updateId: true });

/** Temporal's spellings of the query reject conditions, each mapped to steadfast's name. */
export const QueryRejectCondition = Object.freeze({
  NONE: 'None',
  NOT_OPEN: 'NotOpen',
  NOT_COMPLETED_CLEANLY: 'NotCompletedCleanly',
  QUERY_REJECT_CONDITION_NONE: 'None',
  QUERY_REJECT_CONDITION_NOT_OPEN: 'NotOpen',
  QUERY_REJECT_CONDITION_NOT_COMPLETED_CLEANLY: 'NotCompletedCleanly',
} as const satisfies Record<string, WireRejectCondition>);

/** A query reject condition in either spelling. */
export type QueryRejectConditionOption = WireRejectCondition | keyof typeof QueryRejectCondition;

function rejectConditionOf(value: unknown): WireRejectCondition | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    if ((QUERY_REJECT_CONDITIONS as readonly string[]).includes(value)) return value as WireRejectCondition;
    const mapped = (QueryRejectCondition as Record<string, WireRejectCondition>)[value];
    if (mapped !== undefined) return mapped;
  }
  throw new ValidationError('queryRejectCondition',
    `must be one of ${QUERY_REJECT_CONDITIONS.join(', ')} (or Temporal's QUERY_REJECT_CONDITION_… spellings)`, value);
}

/** Options of `handle.executeUpdate` / `handle.startUpdate`; `args` is typed by the update. */
export type UpdateOptions<Args extends unknown[]> = {
  /** Repeating an update id returns the first update's outcome. @default a random UUID */
  updateId?: string;
} & ([] extends Args ? { args?: Args } : { args: Args });

/**
 * The stages of an update a caller may name, in Temporal's spellings, each mapped to steadfast's
 * name: `WorkflowUpdateStage.ACCEPTED` is `"Accepted"`. `ADMITTED` exists as in Temporal, where
 * no call may wait for it either.
 */
export const WorkflowUpdateStage = temporalSpellings('UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_', {
  ADMITTED: 'Admitted',
  ACCEPTED: 'Accepted',
  COMPLETED: 'Completed',
});

/** One of {@link WorkflowUpdateStage}'s values. */
export type WorkflowUpdateStage = (typeof WorkflowUpdateStage)[keyof typeof WorkflowUpdateStage];

/** steadfast's names of the stages, taken from {@link WorkflowUpdateStage}. */
const WORKFLOW_UPDATE_STAGES: readonly WorkflowUpdateStage[] = [...new Set(Object.values(WorkflowUpdateStage))];

/** The stage `startUpdate` waits for, in any spelling: Temporal's required `waitForStage: WorkflowUpdateStage.ACCEPTED`. */
export type StartUpdateStage = 'Accepted' | 'ACCEPTED' | 'UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED';

/** Options of `handle.startUpdate`: {@link UpdateOptions} and the stage to wait for. */
export type StartUpdateOptions<Args extends unknown[]> = UpdateOptions<Args> & {
  /**
   * The stage the call returns at; only acceptance, as in Temporal (Temporal requires the
   * option; here it may be left out). @default "Accepted"
   */
  waitForStage?: StartUpdateStage;
};

const START_UPDATE_OPTION_KEYS = optionKeys<StartUpdateOptions<[]>>({ args: true, updateId: true, waitForStage: true });

/** An accepted update: its id, and its result once the handler finished. */
export interface WorkflowUpdateHandle<Ret> {
  readonly updateId: string;
  readonly workflowId: string;
  /** Run id of the run that accepted the update. */
  readonly runId: string;
  /** The same as {@link runId}, under Temporal's name. */
  readonly workflowRunId: string;
  /** Waits for the handler's result; throws WorkflowUpdateFailedError when it failed. */
  result(): Promise<Ret>;
}

function argsOf(field: string, args: unknown): unknown[] {
  if (args === undefined) return [];
  if (!Array.isArray(args)) throw new ValidationError(field, 'must be an array', args);
  return payloadOf(field, args);
}

/** Sends a signal; resolves once the server has persisted it (the request id lets the server drop a repeated delivery). */
export async function sendSignal(t: MessageTarget, def: SignalDefinition<unknown[]> | string, args: unknown[]): Promise<void> {
  const signalName = messageNameOf('signal', def, 'signal');
  const signal = composeInterceptors(t.interceptors ?? [], 'signal', async (input) => {
    await t.service.signalWorkflowExecution({
      ...wireRef(t, input.workflowExecution, input.headers), signalName: input.signalName, args: input.args, identity: t.identity, requestId: newUuid(),
    });
  });
  await signal({ signalName, args: payloadOf('args', args), workflowExecution: executionOf(t), headers: {} });
}

/** Queries the workflow; resolves with the handler's result. */
export async function sendQuery(t: MessageTarget, def: QueryDefinition<unknown, unknown[]> | string, args: unknown[], options?: QueryOptions): Promise<unknown> {
  const queryType = messageNameOf('query', def, 'query');
  const sent = payloadOf('args', args);
  if (options !== undefined) {
    if (typeof options !== 'object' || options === null) throw new ValidationError('query options', 'must be an object', options);
    refuseUnknownKeys('query', options, QUERY_OPTION_KEYS);
  }
  const timeoutMs = optionalPositiveDuration('timeout', options?.timeout);
  if (timeoutMs !== undefined && timeoutMs > MAX_QUERY_TIMEOUT_MS) {
    throw new ValidationError('timeout', `must be at most ${MAX_QUERY_TIMEOUT_MS / 60_000} minutes`, options?.timeout);
  }
  const queryRejectCondition = rejectConditionOf(options?.queryRejectCondition);
  const query = composeInterceptors(t.interceptors ?? [], 'query', async (input) => {
    const res = await t.service.queryWorkflow({
      ...wireRef(t, input.workflowExecution, input.headers), queryType: input.queryType, args: input.args, ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(input.queryRejectCondition !== undefined ? { queryRejectCondition: input.queryRejectCondition } : {}),
    });
    return answerOf(t, res, input.queryType, input.queryRejectCondition);
  });
  return query({
    queryType, args: sent, workflowExecution: executionOf(t), headers: {}, ...(queryRejectCondition !== undefined ? { queryRejectCondition } : {}),
  });
}

/** A query's answer as its result, or the error it is. */
function answerOf(t: MessageTarget, res: QueryWorkflowResponse, queryType: string, queryRejectCondition: WireRejectCondition | undefined): unknown {
  if (res.queryRejected) {
    const { status } = res.queryRejected;
    throw new QueryRejectedError(`query "${queryType}" of workflow ${t.workflowId} was rejected: the run is ${status} (queryRejectCondition ${queryRejectCondition})`,
      t.workflowId, queryType, status);
  }
  if (res.failure) {
    throw new QueryFailedError(`query "${queryType}" of workflow ${t.workflowId} failed: ${res.failure.message}`, t.workflowId, queryType, res.failure);
  }
  return res.result;
}

function outcomeOf(t: MessageTarget, res: UpdateWorkflowResponse, updateName: string): unknown {
  const failure = res.outcome?.failure;
  if (failure) {
    const what = res.stage === 'Rejected' ? 'was rejected by its validator' : 'failed';
    throw new WorkflowUpdateFailedError(`update "${updateName}" (${res.updateId}) of workflow ${t.workflowId} ${what}: ${failure.message}`,
      t.workflowId, res.updateId, res.stage === 'Rejected' ? 'Rejected' : 'Completed', failure);
  }
  return res.outcome?.result;
}

/**
 * Admits and validates an update and waits until it is accepted (WorkflowExecutionUpdateAccepted).
 * The handle's `result()` waits for the outcome; while the run's workflow task keeps failing it
 * says why through the client's logger, and it ends at the deadline (or abort) of a
 * `client.withDeadline` / `client.withAbortSignal` around the call. `startUpdate` options may
 * name the stage (only acceptance); `executeUpdate`'s may not.
 * @throws WorkflowUpdateFailedError when the validator rejects it; nothing is written to history then.
 */
export async function startUpdate(
  t: MessageTarget, def: UpdateDefinition<unknown, unknown[]> | string,
  options: { args?: unknown[]; updateId?: string; waitForStage?: unknown } | undefined, call: 'startUpdate' | 'executeUpdate',
): Promise<WorkflowUpdateHandle<unknown>> {
  const updateName = messageNameOf('update', def, 'update');
  if (options !== undefined) {
    if (typeof options !== 'object' || options === null) throw new ValidationError('update options', 'must be an object', options);
    refuseUnknownKeys(call === 'startUpdate' ? 'startUpdate' : 'update', options, call === 'startUpdate' ? START_UPDATE_OPTION_KEYS : UPDATE_OPTION_KEYS);
    if (options.waitForStage !== undefined
      && resolveSpelling('waitForStage', options.waitForStage, WORKFLOW_UPDATE_STAGES, WorkflowUpdateStage, 'UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_') !== 'Accepted') {
      throw new ValidationError('waitForStage', 'must be ACCEPTED in startUpdate, as in Temporal (executeUpdate waits for the update to complete)',
        options.waitForStage);
    }
  }
  const args = argsOf('args', options?.args);
  const updateId = optionalString('updateId', options?.updateId, MAX_ID_LENGTH) ?? newUuid();
  const send = composeInterceptors(t.interceptors ?? [], 'startUpdate', async (input) => {
    const r = await t.service.updateWorkflowExecution({
      ...wireRef(t, input.workflowExecution, input.headers), updateName: input.updateName, args: input.args, updateId: input.options.updateId,
      identity: t.identity, waitForStage: 'Accepted',
    });
    return { updateId: r.updateId, workflowRunId: r.runId, ...(r.stage === 'Rejected' && r.outcome ? { outcome: r.outcome } : {}) };
  });
  const out = await send({
    updateName, args, workflowExecution: executionOf(t), headers: {}, options: { updateId, waitForStage: 'Accepted' },
    ...(t.firstExecutionRunId ? { firstExecutionRunId: t.firstExecutionRunId } : {}),
  });
  const res: UpdateWorkflowResponse = {
    updateId: out.updateId, runId: out.workflowRunId, stage: out.outcome?.failure ? 'Rejected' : 'Accepted', ...(out.outcome ? { outcome: out.outcome } : {}),
  };
  if (res.stage === 'Rejected') outcomeOf(t, res, updateName);
  return updateHandleOf(t, updateName, res);
}

/**
 * The handle of an update the service answered `res` for: `result()` polls until it completes.
 * @throws WorkflowUpdateFailedError (from `result()`) when it was rejected or failed.
 */
export function updateHandleOf(t: MessageTarget, updateName: string, res: UpdateWorkflowResponse): WorkflowUpdateHandle<unknown> {
  let done: Promise<unknown> | undefined;
  return {
    updateId: res.updateId,
    workflowId: t.workflowId,
    runId: res.runId,
    workflowRunId: res.runId,
    result() {
      done ??= (async () => {
        let r = res;
        const what = `update "${updateName}" (${res.updateId}) of workflow ${t.workflowId}`;
        const signal = t.waits.signal;
        const watch = t.waits.watch(() => ({ namespace: t.namespace, workflowId: t.workflowId, runId: res.runId }), what);
        try {
          while (r.stage !== 'Completed' && !r.outcome?.failure) {
            if (signal?.aborted) {
              const why = await watch.why();
              throw new WorkflowUpdateRPCTimeoutOrCancelledError(
                `${what} was accepted but did not complete before the call's ${deadlineOrAbort(signal)}${why ? `: ${why}` : ''}`,
                t.workflowId, res.updateId, { cause: signal.reason });
            }
            r = await t.service.pollWorkflowExecutionUpdate(
              { namespace: t.namespace, workflowId: t.workflowId, runId: res.runId, updateId: res.updateId }, signal ? { signal } : undefined,
            ) ?? r;
          }
        } finally {
          watch.stop();
        }
        return outcomeOf(t, r, updateName);
      })();
      return done;
    },
  };
}

/** How a scope ended a wait: its deadline passed, or its signal was aborted. */
function deadlineOrAbort(signal: AbortSignal): string {
  return (signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError' ? 'deadline' : 'abort signal';
}
