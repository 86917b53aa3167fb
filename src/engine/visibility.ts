import { WorkflowNotFoundError } from '../common/errors.ts';
import { optionalInt, optionalString } from '../common/validate.ts';
import { ValidationError } from '../retry/errors.ts';
import type {
  ListWorkflowExecutionsRequest, ListWorkflowExecutionsResponse, WorkflowExecutionDescription, WorkflowExecutionInfo,
} from '../history/service.ts';
import { decodeSeqToken, encodeSeqToken } from '../store/rows.ts';
import type { ExecutionQuery, ExecutionRecord, Store } from '../store/types.ts';
import { pendingActivityInfo } from './activities.ts';
import { namespaceOf, optionalIsoTime, optionalStatus, requireObject } from './requests.ts';
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
  const parent = childState(rec).parent;
  if (parent) info.parent = parent;
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
    },
    pendingActivities: Object.values(s.activities).sort((a, b) => a.scheduledEventId - b.scheduledEventId).map((a) => pendingActivityInfo(a, now)),
    pendingChildren: pendingChildren(rec.state),
  };
  if (s.wt) {
    d.pendingWorkflowTask = {
      state: s.wt.startedTime !== undefined ? 'Started' : 'Scheduled', attempt: s.wt.attempt, scheduledTime: iso(s.wt.scheduledTime),
      ...(s.wt.startedTime !== undefined ? { startedTime: iso(s.wt.startedTime) } : {}),
    };
  }
  if (s.continuedFromRunId) d.continuedFromRunId = s.continuedFromRunId;
  if (s.continuedAsNewToRunId) d.continuedAsNewToRunId = s.continuedAsNewToRunId;
  return d;
}

/** listWorkflowExecutions: filters, newest first, an opaque page token. */
export async function listExecutions(store: Store, input: ListWorkflowExecutionsRequest): Promise<ListWorkflowExecutionsResponse> {
  const req = requireObject('request', input);
  const limit = optionalInt('pageSize', req.pageSize, 1, 1000) ?? 100;
  const q: ExecutionQuery = { namespace: namespaceOf(req), limit };
  const workflowType = optionalString('workflowType', req.workflowType);
  if (workflowType !== undefined) q.workflowType = workflowType;
  const status = optionalStatus('status', req.status);
  if (status !== undefined) q.status = status;
  const prefix = optionalString('workflowIdPrefix', req.workflowIdPrefix);
  if (prefix !== undefined) q.workflowIdPrefix = prefix;
  for (const key of ['startTimeFrom', 'startTimeTo', 'closeTimeFrom', 'closeTimeTo'] as const) {
    const ms = optionalIsoTime(key, req[key]);
    if (ms !== undefined) q[key] = ms;
  }
  const token = optionalString('nextPageToken', req.nextPageToken);
  if (token !== undefined) {
    const seq = decodeSeqToken(token);
    if (seq === undefined) throw new ValidationError('nextPageToken', 'must be a token from an earlier page', token);
    q.beforeSeq = seq;
  }
  const rows = await store.listExecutions(q);
  const res: ListWorkflowExecutionsResponse = { executions: rows.map(executionInfo) };
  const last = rows[rows.length - 1];
  if (rows.length === limit && last?.seq !== undefined) res.nextPageToken = encodeSeqToken(last.seq);
  return res;
}
