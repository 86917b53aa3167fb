import { ServiceError } from '../../common/errors.ts';
import type { CancelWorkflowRequest, TerminateWorkflowRequest } from '../../protocol/index.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { cancelWorkflowRequestSchema, terminateWorkflowRequestSchema } from '../../protocol/schemas/executions.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { resolveRun } from '../core/resolve-run.ts';
import { terminateRun } from '../core/runs.ts';

/**
 * requestCancelWorkflowExecution: records WorkflowExecutionCancelRequested and schedules a
 * workflow task; the workflow decides what a cancel means. A repeated request id succeeds, also
 * after the run closed; a second request without one is a no-op.
 */
export async function requestCancel(core: EngineCore, input: CancelWorkflowRequest): Promise<void> {
  const { reason, identity, requestId, ...ref } = parseRequest(cancelWorkflowRequestSchema, input);
  const rec = await resolveRun(core.store, ref);
  await core.mutate(rec.runId, (b) => {
    if (requestId !== undefined && b.state.cancelRequestId === requestId) return;
    if (b.closed) throw new ServiceError('FailedPrecondition', `workflow ${rec.workflowId} run ${rec.runId} is already ${b.record.status}`);
    if (b.state.cancelRequested) return;
    b.state.cancelRequested = true;
    if (requestId !== undefined) b.state.cancelRequestId = requestId;
    b.addEvent('WorkflowExecutionCancelRequested', { ...(reason !== undefined ? { reason } : {}), ...(identity !== undefined ? { identity } : {}) });
    b.ensureWorkflowTask();
  });
}

/** terminateWorkflowExecution: ends the run at once (WorkflowExecutionTerminated); a repeated request id succeeds. */
export async function terminate(core: EngineCore, input: TerminateWorkflowRequest): Promise<void> {
  const req = parseRequest(terminateWorkflowRequestSchema, input);
  const rec = await resolveRun(core.store, req);
  const { reason, identity, requestId } = req;
  await core.mutate(rec.runId, (b) => {
    if (requestId !== undefined && b.state.terminateRequestId === requestId) return;
    if (b.closed) throw new ServiceError('FailedPrecondition', `workflow ${rec.workflowId} run ${rec.runId} is already ${b.record.status}`);
    if (requestId !== undefined) b.state.terminateRequestId = requestId;
    terminateRun(b, reason, req.details, identity);
  });
}
