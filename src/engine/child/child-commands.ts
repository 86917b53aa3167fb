import { encodePayload } from '../../common/payload.ts';
import { optionalArray, optionalBoolean, optionalRecord, optionalString, requireOneOf, requireString } from '../../common/validate.ts';
import { PARENT_CLOSE_POLICIES } from '../../history/child-types.ts';
import { checkPolicyPair, WORKFLOW_ID_REUSE_POLICIES } from '../../history/id-reuse-policy.ts';
import { mergeSearchAttributes } from '../../history/search-attribute-values.ts';
import { checkUserMetadata } from '../../history/user-metadata.ts';
import type { SearchAttributeValue } from '../../visibility/attributes.ts';
import { checkPending, type EngineLimits } from '../core/limits.ts';
import { commandSearchAttributes, type AttributeDefinitions } from '../visibility/search-attributes.ts';
import { namespaceOf, optionalHeader, optionalRetryPolicy, optionalTimeout } from '../core/requests.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import { parseCronSchedule } from '../../schedule/index.ts';

interface Ctx {
  b: TransitionBuilder;
  completedEventId: number;
  field: string;
  limits: EngineLimits;
  definitions: AttributeDefinitions;
}

/**
 * StartChildWorkflowExecution: records StartChildWorkflowExecutionInitiated and a StartChild
 * delivery that starts the child in a later transaction (child-deliveries.ts), where the id reuse
 * policy may make it StartChildWorkflowExecutionFailed instead.
 */
export function startChildCommand({ b, completedEventId, field, limits, definitions }: Ctx, a: Record<string, unknown>): void {
  const s = b.state;
  const workflowId = requireString(`${field}.workflowId`, a.workflowId, 1000);
  const workflowType = requireString(`${field}.workflowType`, a.workflowType, 1000);
  const namespace = a.namespace === undefined ? b.record.namespace : namespaceOf({ namespace: a.namespace });
  const taskQueue = optionalString(`${field}.taskQueue`, a.taskQueue) ?? b.record.taskQueue;
  const args = optionalArray(`${field}.args`, a.args);
  encodePayload(`${field}.args`, args);
  const memo = optionalRecord(`${field}.memo`, a.memo);
  if (memo) encodePayload(`${field}.memo`, memo);
  const searchAttributes = a.searchAttributes === undefined ? undefined
    : mergeSearchAttributes<SearchAttributeValue>(undefined, commandSearchAttributes(definitions, namespace, a.searchAttributes, 'startChild.searchAttributes'));
  const retryPolicy = optionalRetryPolicy(`${field}.retryPolicy`, a.retryPolicy);
  const exec = optionalTimeout(`${field}.workflowExecutionTimeoutMs`, a.workflowExecutionTimeoutMs);
  const run = optionalTimeout(`${field}.workflowRunTimeoutMs`, a.workflowRunTimeoutMs);
  const task = optionalTimeout(`${field}.workflowTaskTimeoutMs`, a.workflowTaskTimeoutMs);
  const parentClosePolicy = a.parentClosePolicy === undefined ? 'Terminate'
    : requireOneOf(`${field}.parentClosePolicy`, a.parentClosePolicy, PARENT_CLOSE_POLICIES);
  const control = optionalString(`${field}.control`, a.control, 200);
  const reuse = a.workflowIdReusePolicy === undefined ? undefined
    : requireOneOf(`${field}.workflowIdReusePolicy`, a.workflowIdReusePolicy, WORKFLOW_ID_REUSE_POLICIES);
  const conflict = a.workflowIdConflictPolicy === undefined ? undefined
    : requireOneOf(`${field}.workflowIdConflictPolicy`, a.workflowIdConflictPolicy, ['Fail', 'TerminateExisting'] as const);
  checkPolicyPair(`${field}.workflowIdConflictPolicy`, reuse, conflict);
  const cron = a.cronSchedule === undefined ? undefined : parseCronSchedule(a.cronSchedule, `${field}.cronSchedule`).spec;
  const header = optionalHeader(`${field}.header`, a.header);
  const userMetadata = checkUserMetadata(`${field}.userMetadata`, a.userMetadata);
  const children = s.children;
  checkPending(field, Object.keys(children).length, limits, 'maxPendingChildren');
  const ev = b.append('StartChildWorkflowExecutionInitiated', {
    namespace, workflowId, workflowType, taskQueue, args, parentClosePolicy, workflowTaskCompletedEventId: completedEventId,
    ...(memo ? { memo } : {}), ...(searchAttributes ? { searchAttributes } : {}), ...(retryPolicy ? { retryPolicy } : {}),
    ...(exec !== undefined ? { workflowExecutionTimeoutMs: exec } : {}), ...(run !== undefined ? { workflowRunTimeoutMs: run } : {}),
    ...(task !== undefined ? { workflowTaskTimeoutMs: task } : {}), ...(control !== undefined ? { control } : {}),
    ...(reuse !== undefined ? { workflowIdReusePolicy: reuse } : {}),
    ...(conflict !== undefined ? { workflowIdConflictPolicy: conflict } : {}),
    ...(cron !== undefined ? { cronSchedule: cron } : {}),
    ...(header ? { header } : {}),
    ...(userMetadata ? { userMetadata } : {}),
  });
  children[String(ev.eventId)] = {
    initiatedEventId: ev.eventId, namespace, workflowId, workflowType, parentClosePolicy, ...(reuse !== undefined ? { workflowIdReusePolicy: reuse } : {}),
    ...(conflict !== undefined ? { workflowIdConflictPolicy: conflict } : {}),
  };
  b.addDelivery('StartChild', { initiatedEventId: ev.eventId });
}

/**
 * RequestCancelExternalWorkflowExecution: records the Initiated event; a CancelExternal delivery carries
 * the request to the target's current run and answers with ExternalWorkflowExecutionCancelRequested
 * or RequestCancelExternalWorkflowExecutionFailed.
 */
export function requestCancelExternalCommand({ b, completedEventId, field, limits }: Ctx, a: Record<string, unknown>): void {
  const s = b.state;
  const workflowId = requireString(`${field}.workflowId`, a.workflowId, 1000);
  const namespace = a.namespace === undefined ? b.record.namespace : namespaceOf({ namespace: a.namespace });
  const runId = optionalString(`${field}.runId`, a.runId, 200);
  const childWorkflowOnly = optionalBoolean(`${field}.childWorkflowOnly`, a.childWorkflowOnly) ?? false;
  const control = optionalString(`${field}.control`, a.control, 200);
  const requests = s.cancelRequests;
  checkPending(field, Object.keys(requests).length, limits, 'maxPendingCancelRequests');
  const ev = b.append('RequestCancelExternalWorkflowExecutionInitiated', {
    namespace, workflowId, childWorkflowOnly, workflowTaskCompletedEventId: completedEventId,
    ...(runId !== undefined ? { runId } : {}), ...(control !== undefined ? { control } : {}),
  });
  requests[String(ev.eventId)] = {
    initiatedEventId: ev.eventId, namespace, workflowId, childWorkflowOnly,
    ...(runId !== undefined ? { runId } : {}), ...(control !== undefined ? { control } : {}),
  };
  b.addDelivery('CancelExternal', { initiatedEventId: ev.eventId });
}
