import type {
  GetHistoryResponse, ListWorkflowExecutionsRequest, ListWorkflowExecutionsResponse, WorkflowExecutionDescription,
} from '../protocol/index.ts';
import type { QueryWorkflowResponse, UpdateWorkflowResponse } from '../protocol/index.ts';

/** An error answer of the HTTP API: its code and message. */
export class ApiError extends Error {
  constructor(readonly code: string, message: string, readonly field?: string) {
    super(message);
  }
}

/** Calls `POST /api/v1/<method>` with a JSON body and returns the parsed answer. */
export async function call<T>(method: string, body: object, signal?: AbortSignal): Promise<T> {
  const res = await fetch(`/api/v1/${method}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}),
  });
  const text = await res.text();
  const value = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const e = (value?.error ?? {}) as { code?: string; message?: string; field?: string };
    throw new ApiError(e.code ?? `HTTP ${res.status}`, e.message ?? res.statusText, e.field);
  }
  return value as T;
}

/** The list request plus the visibility query, which newer servers take. */
export type ListRequest = ListWorkflowExecutionsRequest & { query?: string };

/** Typed calls of the API the UI uses. */
export const api = {
  list: (req: ListRequest) => call<ListWorkflowExecutionsResponse>('listWorkflowExecutions', req),
  describe: (namespace: string, workflowId: string, runId?: string) =>
    call<WorkflowExecutionDescription>('describeWorkflowExecution', { namespace, workflowId, ...(runId ? { runId } : {}) }),
  history: (namespace: string, workflowId: string, runId: string, nextPageToken?: string, pageSize = 1000) =>
    call<GetHistoryResponse>('getWorkflowExecutionHistory', { namespace, workflowId, runId, pageSize, ...(nextPageToken ? { nextPageToken } : {}) }),
  signal: (namespace: string, workflowId: string, runId: string, signalName: string, args: unknown[]) =>
    call<unknown>('signalWorkflowExecution', { namespace, workflowId, runId, signalName, args }),
  query: (namespace: string, workflowId: string, runId: string, queryType: string, args: unknown[]) =>
    call<QueryWorkflowResponse>('queryWorkflow', { namespace, workflowId, runId, queryType, args }),
  update: (namespace: string, workflowId: string, runId: string, updateName: string, args: unknown[]) =>
    call<UpdateWorkflowResponse>('updateWorkflowExecution', { namespace, workflowId, runId, updateName, args, waitForStage: 'Completed' }),
  cancel: (namespace: string, workflowId: string, runId: string) =>
    call<unknown>('requestCancelWorkflowExecution', { namespace, workflowId, runId, reason: 'canceled from the web UI' }),
  terminate: (namespace: string, workflowId: string, runId: string, reason: string) =>
    call<unknown>('terminateWorkflowExecution', { namespace, workflowId, runId, reason }),
};
