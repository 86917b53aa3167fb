import { WorkflowNotFoundError } from '../../common/errors.ts';
import type {
  ListWorkflowExecutionsRequest, ListWorkflowExecutionsResponse, WorkflowExecutionDescription, WorkflowExecutionInfo,
} from '../../protocol/index.ts';
import type { ExecutionRecord, Store } from '../../store/types.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { listWorkflowExecutionsRequestSchema } from '../../protocol/schemas/executions.ts';
import { listQueryText, searchAttributesOf } from './search-attributes.ts';
import { runStateOf } from '../core/state.ts';
import { DESCRIBE_SECTIONS } from '../features.ts';

const iso = (ms: number) => new Date(ms).toISOString();

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

/** The list/describe view of a run. */
export function executionInfo(rec: ExecutionRecord): WorkflowExecutionInfo {
  const info: WorkflowExecutionInfo = {
    namespace: rec.namespace, workflowId: rec.workflowId, runId: rec.runId, workflowType: rec.workflowType,
    taskQueue: rec.taskQueue, status: rec.status, startTime: iso(rec.startTime), executionTime: iso(rec.executionTime),
    historyLength: rec.nextEventId - 1, attempt: rec.attempt, firstExecutionRunId: rec.firstExecutionRunId,
    originalExecutionRunId: rec.originalExecutionRunId,
  };
  if (rec.closeTime !== undefined) info.closeTime = iso(rec.closeTime);
  if (rec.memo) info.memo = rec.memo;
  const state = runStateOf(rec);
  const size = state.historySizeBytes;
  if (size !== undefined) info.historySizeBytes = size;
  const parent = state.parent;
  if (parent) info.parent = parent;
  const attributes = searchAttributesOf(rec);
  if (attributes) info.searchAttributes = attributes;
  return info;
}

/** describeWorkflowExecution's answer, from the row alone: the run and its settings, then each feature's section. */
export function describe(rec: ExecutionRecord, now: number): WorkflowExecutionDescription {
  const s = runStateOf(rec);
  const d: WorkflowExecutionDescription = {
    execution: executionInfo(rec),
    config: {
      workflowTaskTimeoutMs: s.cfg.workflowTaskTimeoutMs,
      ...(s.cfg.workflowExecutionTimeoutMs !== undefined ? { workflowExecutionTimeoutMs: s.cfg.workflowExecutionTimeoutMs } : {}),
      ...(s.cfg.workflowRunTimeoutMs !== undefined ? { workflowRunTimeoutMs: s.cfg.workflowRunTimeoutMs } : {}),
      ...(s.cfg.retryPolicy ? { retryPolicy: s.cfg.retryPolicy } : {}),
      ...(s.cfg.cronSchedule !== undefined ? { cronSchedule: s.cfg.cronSchedule } : {}),
    },
    pendingActivities: [],
    pendingChildren: [],
  };
  for (const section of DESCRIBE_SECTIONS) section(s, d, now);
  return d;
}

/** listWorkflowExecutions: one page of the runs a query selects, in its order, with an opaque page token. */
export async function listExecutions(store: Store, input: ListWorkflowExecutionsRequest): Promise<ListWorkflowExecutionsResponse> {
  const req = parseRequest(listWorkflowExecutionsRequestSchema, input);
  const { pageSize, nextPageToken: token } = req;
  const query = listQueryText(req);
  const page = await store.queryExecutions({ namespace: req.namespace, query, pageSize, ...(token ? { nextPageToken: token } : {}) });
  const res: ListWorkflowExecutionsResponse = { executions: page.executions.map(executionInfo) };
  if (page.nextPageToken !== undefined) res.nextPageToken = page.nextPageToken;
  return res;
}
