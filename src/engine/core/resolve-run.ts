import { WorkflowNotFoundError } from '../../common/errors.ts';
import type { ExecutionRecord, Store } from '../../store/types.ts';

/** The run a request names: the given run id (which must belong to the workflow id) or the latest run. */
export async function resolveRun(store: Store, ref: { namespace: string; workflowId: string; runId?: string | undefined }): Promise<ExecutionRecord> {
  const rec = ref.runId !== undefined ? await store.getExecution(ref.runId) : await store.getLatestExecution(ref.namespace, ref.workflowId);
  if (!rec || rec.namespace !== ref.namespace || rec.workflowId !== ref.workflowId) {
    throw new WorkflowNotFoundError(
      `workflow ${ref.workflowId}${ref.runId ? ` run ${ref.runId}` : ''} not found in namespace ${ref.namespace}`, ref.workflowId, ref.runId,
    );
  }
  return rec;
}
