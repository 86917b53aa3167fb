import { composeInterceptors } from '../common/interceptors.ts';
import { headersToWire } from '../common/headers.ts';
import { newUuid } from '../common/ids.ts';
import { messageNameOf, type UpdateDefinition } from '../common/message-definitions.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { resolveSpelling } from '../common/temporal-names.ts';
import { optionalString } from '../common/validate.ts';
import type { Workflow } from '../common/workflow-types.ts';
import { ValidationError, SteadfastError } from '../errors/index.ts';
import type { WorkflowIdConflictPolicyOption } from '../history/id-conflict-policy.ts';
import { MAX_ID_LENGTH, type UpdateWorkflowResponse, type WorkflowService } from '../protocol/index.ts';
import type { WorkflowClientInterceptor, WorkflowStartUpdateWithStartInput } from './interceptors.ts';
import { WorkflowUpdateRPCTimeoutOrCancelledError } from './message-errors.ts';
import { updateHandleOf, WorkflowUpdateStage, type MessageTarget, type StartUpdateStage, type WorkflowUpdateHandle } from './messages.ts';
import { payloadOf } from './request-limits.ts';
import { toStartRequest, WORKFLOW_START_OPTION_KEYS, type WorkflowStartOptions } from './start-options.ts';
import type { Waits } from './waits.ts';
import { WorkflowHandle } from './workflow-handle.ts';

/** The start options of a {@link WithStartWorkflowOperation}: `workflowId` and `workflowIdConflictPolicy` are required, as in Temporal. */
export type WithStartWorkflowOptions<W extends Workflow = Workflow> = WorkflowStartOptions<W> & {
  workflowId: string;
  workflowIdConflictPolicy: WorkflowIdConflictPolicyOption;
};

/** Options of `client.workflow.executeUpdateWithStart` (Temporal's `WorkflowUpdateOptions & { args, startWorkflowOperation }`). */
export interface UpdateWithStartOptions<W extends Workflow = Workflow, Args extends unknown[] = unknown[]> {
  /** The update handler's arguments. @default [] */
  args?: Args;
  /** Repeating an update id answers the first update. @default a random UUID */
  updateId?: string;
  /** How to start the workflow, or use its running run; usable by one call only. */
  startWorkflowOperation: WithStartWorkflowOperation<W>;
}

/** Options of `client.workflow.startUpdateWithStart`: {@link UpdateWithStartOptions} and the stage (only acceptance, as in Temporal). */
export type StartUpdateWithStartOptions<W extends Workflow = Workflow, Args extends unknown[] = unknown[]> = UpdateWithStartOptions<W, Args> & {
  waitForStage: StartUpdateStage;
};

const UPDATE_WITH_START_OPTION_KEYS = optionKeys<StartUpdateWithStartOptions>({ args: true, updateId: true, startWorkflowOperation: true, waitForStage: true });

/** Keys of the operation's options: the start options (workflowId and workflowIdConflictPolicy among them). */
const OPERATION_OPTION_KEYS = WORKFLOW_START_OPTION_KEYS;

const settle = Symbol('settle');
const used = Symbol('used');

/**
 * How an update-with-start starts its workflow (Temporal's `WithStartWorkflowOperation`): the
 * workflow and its start options, `workflowIdConflictPolicy` required. `workflowHandle()`
 * resolves once the call that uses it started the run or took the running one, whether or not
 * the update succeeds; it rejects when the start was refused. An operation is used by one call only.
 */
export class WithStartWorkflowOperation<W extends Workflow = Workflow> {
  [used] = false;
  readonly #handle: Promise<WorkflowHandle<W>>;
  [settle]!: { resolve(h: WorkflowHandle<W>): void; reject(e: unknown): void };

  /** The same as `new WithStartWorkflowOperation(workflowTypeOrFunc, options)`. */
  static create<W extends Workflow>(workflowTypeOrFunc: string | W, options: WithStartWorkflowOptions<W>): WithStartWorkflowOperation<W> {
    return new WithStartWorkflowOperation(workflowTypeOrFunc, options);
  }

  /** @throws ValidationError when `workflowId` or `workflowIdConflictPolicy` is missing, or an option is unknown. */
  constructor(readonly workflowTypeOrFunc: string | W, readonly options: WithStartWorkflowOptions<W>) {
    if (typeof workflowTypeOrFunc !== 'string' && typeof workflowTypeOrFunc !== 'function') {
      throw new ValidationError('workflowTypeOrFunc', 'must be a workflow function or its type name', workflowTypeOrFunc);
    }
    if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be an object with workflowId, taskQueue and workflowIdConflictPolicy', options);
    refuseUnknownKeys('WithStartWorkflowOperation', options, OPERATION_OPTION_KEYS);
    if (typeof options.workflowId !== 'string' || options.workflowId.length === 0) {
      throw new ValidationError('workflowId', 'must be a non-empty string (an update-with-start names its workflow)', options.workflowId);
    }
    if (options.workflowIdConflictPolicy === undefined) {
      throw new ValidationError('workflowIdConflictPolicy', 'is required for an update-with-start (USE_EXISTING, FAIL or TERMINATE_EXISTING), as in Temporal', undefined);
    }
    this.#handle = new Promise<WorkflowHandle<W>>((resolve, reject) => {
      this[settle] = { resolve, reject };
    });
    // A failed call rejects this promise and throws to its caller; a caller that never asks for the handle must not see an unhandled rejection.
    this.#handle.catch(() => undefined);
  }

  /** The workflow's handle, once the update-with-start that used this operation started the run or took the running one. */
  workflowHandle(): Promise<WorkflowHandle<W>> {
    return this.#handle;
  }
}

/** What the workflow client hands to an update-with-start. */
export interface UpdateWithStartContext {
  service: WorkflowService;
  namespace: string;
  identity: string;
  waits: Waits;
  interceptors: readonly WorkflowClientInterceptor[];
}

/**
 * Update-with-start: one service call that starts the operation's workflow (or takes its running
 * run, by the conflict policy) and admits the update, atomically; then waits for `stage`.
 * @throws WorkflowExecutionAlreadyStartedError when the policies refuse the start (the operation's handle rejects too).
 */
export async function updateWithStart(
  c: UpdateWithStartContext, def: UpdateDefinition<unknown, unknown[]> | string, options: StartUpdateWithStartOptions | UpdateWithStartOptions,
  call: 'startUpdateWithStart' | 'executeUpdateWithStart',
): Promise<WorkflowUpdateHandle<unknown>> {
  const updateName = messageNameOf('update', def, 'update');
  if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be an object with startWorkflowOperation', options);
  refuseUnknownKeys(call, options, call === 'startUpdateWithStart' ? UPDATE_WITH_START_OPTION_KEYS : UPDATE_WITH_START_OPTION_KEYS.filter((k) => k !== 'waitForStage'));
  const op = options.startWorkflowOperation;
  if (!(op instanceof WithStartWorkflowOperation)) {
    throw new ValidationError('startWorkflowOperation', 'must be a WithStartWorkflowOperation', op);
  }
  if (call === 'startUpdateWithStart') {
    const stage = (options as StartUpdateWithStartOptions).waitForStage;
    if (stage === undefined || resolveSpelling('waitForStage', stage, ['Admitted', 'Accepted', 'Completed'], WorkflowUpdateStage, 'UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_') !== 'Accepted') {
      throw new ValidationError('waitForStage', 'must be ACCEPTED in startUpdateWithStart, as in Temporal (executeUpdateWithStart waits for the update to complete)', stage);
    }
  }
  if (options.args !== undefined && !Array.isArray(options.args)) throw new ValidationError('args', 'must be an array of the update\'s arguments', options.args);
  const updateId = optionalString('updateId', options.updateId, MAX_ID_LENGTH) ?? newUuid();
  if (op[used]) throw new SteadfastError('This WithStartWorkflowOperation instance has already been executed (an operation is used by one call only)');
  op[used] = true;
  const waitForStage = call === 'executeUpdateWithStart' ? 'Completed' : 'Accepted';
  const t = (runId: string): MessageTarget => ({
    service: c.service, namespace: c.namespace, workflowId: op.options.workflowId, runId, identity: c.identity, waits: c.waits, interceptors: c.interceptors,
  });
  try {
    const req = toStartRequest(
      typeof op.workflowTypeOrFunc === 'string' ? op.workflowTypeOrFunc : op.workflowTypeOrFunc.name, op.options as WorkflowStartOptions,
      c.namespace, c.identity, 'WithStartWorkflowOperation',
    );
    const { workflowType, ...workflowStartOptions } = req;
    let res: UpdateWorkflowResponse | undefined;
    const send = composeInterceptors(c.interceptors, 'startUpdateWithStart', async (input: WorkflowStartUpdateWithStartInput) => {
      const header = headersToWire(input.workflowStartHeaders);
      const updateHeader = headersToWire(input.updateHeaders);
      const r = await c.service.updateWithStartWorkflowExecution({
        ...input.workflowStartOptions, workflowType: input.workflowType, ...(header ? { header } : {}),
        updateName: input.updateName, updateArgs: input.updateArgs, updateId: input.updateOptions.updateId, waitForStage: input.updateOptions.waitForStage,
        ...(updateHeader ? { updateHeader } : {}),
      });
      res = r.update;
      return {
        workflowExecution: { workflowId: input.workflowStartOptions.workflowId!, runId: r.runId }, updateId: r.update.updateId,
        ...(r.update.outcome ? { updateOutcome: r.update.outcome } : {}),
      };
    });
    const out = await send({
      workflowType, workflowStartOptions, workflowStartHeaders: {}, updateName, updateArgs: payloadOf('args', options.args ?? []),
      updateOptions: { updateId, waitForStage }, updateHeaders: {},
    });
    const runId = out.workflowExecution.runId;
    op[settle].resolve(new WorkflowHandle(c.service, c.namespace, op.options.workflowId, undefined, c.identity, c.waits, runId, c.interceptors));
    let answered: UpdateWorkflowResponse = {
      ...(res ?? { stage: out.updateOutcome ? 'Completed' : 'Accepted' }), updateId: out.updateId, runId,
      ...(out.updateOutcome ? { outcome: out.updateOutcome } : {}),
    };
    // The call's wait for acceptance is bounded on the server; startUpdateWithStart returns at ACCEPTED, so it polls on.
    while (call === 'startUpdateWithStart' && answered.stage === 'Admitted') {
      const signal = c.waits.signal;
      if (signal?.aborted) {
        throw new WorkflowUpdateRPCTimeoutOrCancelledError(`update "${updateName}" (${answered.updateId}) of workflow ${op.options.workflowId} ` +
          'was admitted but not accepted before the call\'s deadline or abort signal', op.options.workflowId, answered.updateId, { cause: signal.reason });
      }
      answered = await c.service.pollWorkflowExecutionUpdate(
        { namespace: c.namespace, workflowId: op.options.workflowId, runId, updateId: answered.updateId, waitForStage: 'Accepted' }, signal ? { signal } : undefined,
      ) ?? answered;
    }
    return updateHandleOf(t(runId), updateName, answered);
  } catch (err) {
    op[settle].reject(err);
    throw err;
  }
}
