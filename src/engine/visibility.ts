import { WorkflowNotFoundError } from '../common/errors.ts';
import type {
  ListWorkflowExecutionsRequest, ListWorkflowExecutionsResponse, WorkflowExecutionDescription, WorkflowExecutionInfo,
} from '../protocol/index.ts';
import type { ExecutionRecord, Store } from '../store/types.ts';
import { pendingActivityInfo } from './activities.ts';
import { parseRequest } from '../protocol/parse.ts';
import { listWorkflowExecutionsRequestSchema } from '../protocol/schemas/executions.ts';
import { listQueryText, searchAttributesOf } from './search-attributes.ts';
import type { RunState } from './state.ts';
import { childState, pendingChildren } from './child-state.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** The run a request names: the given run id (which must belong to the workflow id) or the latest run. */
export async function resolveRun(store: Store, ref: { namespace: string; workflowId: string; runId?: string }): Promise<ExecutionRecord> {
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
  const size = (rec.state as RunState).historySizeBytes;
  if (size !== undefined) info.historySizeBytes = size;
  const parent = childState(rec).parent;
  if (parent) info.parent = parent;
  const attributes = searchAttributesOf(rec);
  if (attributes) info.searchAttributes = attributes;
  return info;
}

/** describeWorkflowExecution's answer, from the row alone. */
export function describe(rec: ExecutionRecord, now: number): WorkflowExecutionDescription {
  const s = rec.state as RunState;
  const d: WorkflowExecutionDescription = {
    execution: executionInfo(rec),
    config: {
      workflowTaskTimeoutMs: s.cfg.workflowTaskTimeoutMs,
      ...(s.cfg.workflowExecutionTimeoutMs !== undefined ? { workflowExecutionTimeoutMs: s.cfg.workflowExecutionTimeoutMs } : {}),
      ...(s.cfg.workflowRunTimeoutMs !== undefined ? { workflowRunTimeoutMs: s.cfg.workflowRunTimeoutMs } : {}),
      ...(s.cfg.retryPolicy ? { retryPolicy: s.cfg.retryPolicy } : {}),
      ...(s.cfg.cronSchedule !== undefined ? { cronSchedule: s.cfg.cronSchedule } : {}),
    },
    pendingActivities: Object.values(s.activities).sort((a, b) => a.scheduledEventId - b.scheduledEventId).map((a) => pendingActivityInfo(a, now)),
    pendingChildren: pendingChildren(rec.state),
  };
  if (s.wt) {
    d.pendingWorkflowTask = {
      state: s.wt.startedTime !== undefined ? 'Started' : 'Scheduled', attempt: s.wt.attempt, scheduledTime: iso(s.wt.scheduledTime),
      ...(s.wt.startedTime !== undefined ? { startedTime: iso(s.wt.startedTime) } : {}),
    };
    const f = s.wtLastFailure;
    if (f) {
      d.pendingWorkflowTask.lastFailure = {
        cause: f.cause, message: f.message, ...(f.type !== undefined ? { type: f.type } : {}), ...(f.stack !== undefined ? { stack: f.stack } : {}),
        attempt: f.attempt, failedTime: iso(f.time), identity: f.identity,
      };
    }
  }
  if (s.continuedFromRunId) d.continuedFromRunId = s.continuedFromRunId;
  if (s.continuedAsNewToRunId) d.continuedAsNewToRunId = s.continuedAsNewToRunId;
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
