import { ServiceError } from '../../common/errors.ts';
import type { ExecutionRequest } from '../../protocol/index.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { executionRequestSchema } from '../../protocol/schemas/executions.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { resolveRun } from '../core/resolve-run.ts';
import { terminateRun } from '../core/runs.ts';

/**
 * deleteWorkflowExecution (Temporal's call): deletes a run (the workflow's latest when no run id
 * is given) with its history, visibility record, tasks and timers. A running run is terminated
 * first, as Temporal does; its WorkflowExecutionTerminated is deleted with the rest.
 */
export async function deleteWorkflowExecution(core: EngineCore, input: ExecutionRequest): Promise<void> {
  const ref = parseRequest(executionRequestSchema, input);
  const rec = await resolveRun(core.store, ref);
  if (rec.status === 'Running') {
    await core.mutate(rec.runId, (b) => {
      if (!b.closed) terminateRun(b, 'workflow execution deleted', undefined, undefined);
    });
  }
  const deleted = await core.store.deleteClosedRuns(rec.namespace, Number.MAX_SAFE_INTEGER, 1, rec.runId);
  if (deleted.length === 0 && (await core.store.getExecution(rec.runId))) {
    throw new ServiceError('Unavailable', `workflow ${rec.workflowId} run ${rec.runId} could not be deleted now (another change holds it); try again`);
  }
}
