import type {
  GetHistoryResponse, ListWorkflowExecutionsRequest, ListWorkflowExecutionsResponse, ResetWorkflowResponse, WorkflowExecutionDescription,
} from '../protocol/index.ts';
import type { QueryWorkflowResponse, UpdateWorkflowResponse } from '../protocol/index.ts';
import type { CountWorkflowExecutionsResponse, ListSearchAttributesResponse } from '../protocol/index.ts';
import type {
  CreateScheduleRequest, ListSchedulesResponse, PatchScheduleRequest, ScheduleDescription, UpdateScheduleRequest,
} from '../protocol/index.ts';
import type { DescribeTaskQueueResponse, ResetReapplyExcludeType } from '../protocol/index.ts';
import { getCredential, reportUnauthenticated, uiIdentity } from './credential.ts';
import { showPayloads } from './codec.ts';

/**
 * An error answer of the HTTP API: its code and message, for a visibility query the 1-based
 * column at fault, and for `ResourceExhausted` how long to wait before trying again (ms).
 */
export class ApiError extends Error {
  constructor(readonly code: string, message: string, readonly field?: string, readonly column?: number, readonly retryAfterMs?: number) {
    super(message);
  }
}

/** Calls `POST /api/v1/<method>` with a JSON body and returns the parsed answer. */
export async function call<T>(method: string, body: object, signal?: AbortSignal): Promise<T> {
  const credential = getCredential();
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(credential ? { authorization: `Bearer ${credential}` } : {}) };
  const res = await fetch(`/api/v1/${method}`, { method: 'POST', headers, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
  const text = await res.text();
  const value = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const e = (value?.error ?? {}) as { code?: string; message?: string; field?: string; column?: number; retryAfterMs?: number };
    if (res.status === 401) reportUnauthenticated(e.message ?? 'this server requires a credential');
    throw new ApiError(e.code ?? `HTTP ${res.status}`, e.message ?? res.statusText, e.field, e.column, e.retryAfterMs);
  }
  return value as T;
}

/** The list request plus the visibility query, which newer servers take. */
export type ListRequest = ListWorkflowExecutionsRequest & { query?: string };

/** Typed calls of the API the UI uses. */
export const api = {
  list: async (req: ListRequest, signal?: AbortSignal) =>
    showPayloads(await call<ListWorkflowExecutionsResponse>('listWorkflowExecutions', req, signal), req.namespace ?? 'default'),
  count: (namespace: string, query: string) => call<CountWorkflowExecutionsResponse>('countWorkflowExecutions', { namespace, query }),
  searchAttributes: (namespace: string) => call<ListSearchAttributesResponse>('listSearchAttributes', { namespace }),
  describe: async (namespace: string, workflowId: string, runId?: string) =>
    showPayloads(await call<WorkflowExecutionDescription>('describeWorkflowExecution', { namespace, workflowId, ...(runId ? { runId } : {}) }), namespace),
  history: (namespace: string, workflowId: string, runId: string, nextPageToken?: string, pageSize = 1000) =>
    call<GetHistoryResponse>('getWorkflowExecutionHistory', { namespace, workflowId, runId, pageSize, ...(nextPageToken ? { nextPageToken } : {}) })
      .then((page) => showPayloads(page, namespace)),
  signal: (namespace: string, workflowId: string, runId: string, signalName: string, args: unknown[]) =>
    call<unknown>('signalWorkflowExecution', { namespace, workflowId, runId, signalName, args, identity: uiIdentity() }),
  query: (namespace: string, workflowId: string, runId: string, queryType: string, args: unknown[]) =>
    call<QueryWorkflowResponse>('queryWorkflow', { namespace, workflowId, runId, queryType, args, identity: uiIdentity() }).then((r) => showPayloads(r, namespace)),
  update: (namespace: string, workflowId: string, runId: string, updateName: string, args: unknown[]) =>
    call<UpdateWorkflowResponse>('updateWorkflowExecution', { namespace, workflowId, runId, updateName, args, waitForStage: 'Completed', identity: uiIdentity() })
      .then((r) => showPayloads(r, namespace)),
  cancel: (namespace: string, workflowId: string, runId: string, reason = 'canceled from the web UI') =>
    call<unknown>('requestCancelWorkflowExecution', { namespace, workflowId, runId, reason, identity: uiIdentity() }),
  terminate: (namespace: string, workflowId: string, runId: string, reason: string) =>
    call<unknown>('terminateWorkflowExecution', { namespace, workflowId, runId, reason, identity: uiIdentity() }),
  reset: (namespace: string, workflowId: string, runId: string, resetType: 'FirstWorkflowTask' | 'LastWorkflowTask', reason: string) =>
    call<ResetWorkflowResponse>('resetWorkflowExecution', { namespace, workflowId, runId, resetType, reason, identity: uiIdentity() }),
  /**
   * Resets a run to one of its WorkflowTaskCompleted events; answers the new run. `exclude`: the
   * kinds of later events the new run does not get again (Temporal's resetReapplyExcludeTypes).
   */
  resetTo: (namespace: string, workflowId: string, runId: string, eventId: number, reason: string, exclude: readonly ResetReapplyExcludeType[]) =>
    call<ResetWorkflowResponse>('resetWorkflowExecution', {
      namespace, workflowId, runId, eventId, reason, ...(exclude.length > 0 ? { resetReapplyExcludeTypes: [...exclude] } : {}), identity: uiIdentity(),
    }),
  schedules: (namespace: string, nextPageToken?: string) =>
    call<ListSchedulesResponse>('listSchedules', { namespace, pageSize: 100, ...(nextPageToken ? { nextPageToken } : {}) }),
  describeSchedule: (namespace: string, scheduleId: string) => call<ScheduleDescription>('describeSchedule', { namespace, scheduleId }),
  createSchedule: (req: CreateScheduleRequest) => call<{ conflictToken: number }>('createSchedule', req),
  updateSchedule: (req: UpdateScheduleRequest) => call<unknown>('updateSchedule', req),
  patchSchedule: (req: PatchScheduleRequest) => call<unknown>('patchSchedule', req),
  deleteSchedule: (namespace: string, scheduleId: string) => call<unknown>('deleteSchedule', { namespace, scheduleId }),
  describeTaskQueue: (namespace: string, taskQueue: string) => call<DescribeTaskQueueResponse>('describeTaskQueue', { namespace, taskQueue }),
};
