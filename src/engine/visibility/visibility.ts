import type {
  ListWorkflowExecutionsRequest, ListWorkflowExecutionsResponse, WorkflowExecutionDescription, WorkflowExecutionInfo,
} from '../../protocol/index.ts';
import type { ExecutionRecord, Store } from '../../store/types.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { listWorkflowExecutionsRequestSchema } from '../../protocol/schemas/executions.ts';
import { listQueryText, searchAttributesOf } from './search-attributes.ts';
import { coreStateOf, runStateOf } from '../core/state.ts';
import type { FeatureRegistry } from '../core/feature.ts';

const iso = (ms: number) => new Date(ms).toISOString();

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
  const state = coreStateOf(rec);
  const size = state.historySizeBytes;
  if (size !== undefined) info.historySizeBytes = size;
  const parent = state.parent;
  if (parent) info.parent = parent;
  const attributes = searchAttributesOf(rec);
  if (attributes) info.searchAttributes = attributes;
  if (rec.status === 'Running' && state.wtLastFailure !== undefined) info.taskFailing = true;
  if (state.cfg.userMetadata) info.userMetadata = state.cfg.userMetadata;
  return info;
}

/** describeWorkflowExecution's answer, from the row alone: the run and its settings, then each feature's section. */
export function describe(features: FeatureRegistry, rec: ExecutionRecord, now: number): WorkflowExecutionDescription {
  const s = runStateOf(rec, features.slices);
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
  for (const section of features.describe) section(s, d, now);
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
