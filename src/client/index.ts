export { Client, WorkflowClient, workflowTypeOf, type ClientOptions, type ListOptions, type CountWorkflowExecution } from './client.ts';
export { WorkflowHandle } from './workflow-handle.ts';
export type { FollowHistoryOptions } from './follow-history.ts';
export {
  MAX_BULK_ERRORS, type BulkOptions, type BulkOperation, type BulkCancel, type BulkTerminate, type BulkSignal, type BulkReset,
  type BulkResult, type BulkError,
} from './bulk.ts';
export type { WorkflowExecutionDescription, WorkflowExecutionInfo } from './describe.ts';
export { SearchAttributeClient } from './search-attribute-client.ts';
export { TaskQueueClient } from './task-queue-client.ts';
export {
  AsyncCompletionClient, ActivityNotFoundError, ActivityCompletionError, ActivityCancelledError, type FullActivityId,
} from './async-completion-client.ts';
export { NamespaceClient, type NamespaceCreateOptions, type NamespaceUpdateOptions } from './namespace-client.ts';
export { HttpWorkflowService, parseAddress, type HttpServiceOptions } from './http-service.ts';
export { RETRIED_METHODS, DEFAULT_CALL_RETRY_TIMEOUT_MS, type ClientRetryOptions } from './call-retry.ts';
export type { WorkflowStartOptions, BaseStartOptions } from './start-options.ts';
export { WorkflowIdReusePolicy, type WorkflowIdReusePolicyOption } from '../history/id-reuse-policy.ts';
export { WorkflowIdConflictPolicy, type WorkflowIdConflictPolicyOption } from '../history/id-conflict-policy.ts';
export {
  WorkflowFailedError, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, ServiceError, NamespaceNotFoundError,
  NamespaceAlreadyExistsError,
} from '../common/errors.ts';
export { QueryFailedError, QueryRejectedError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from './message-errors.ts';
export { stderrWaitLogger, workflowTaskFailing, type WaitLogger } from './waits.ts';
export {
  QueryRejectCondition, WorkflowUpdateStage, type QueryOptions, type QueryRejectConditionOption, type UpdateOptions,
  type StartUpdateOptions, type StartUpdateStage, type WorkflowUpdateHandle,
} from './messages.ts';
export type { SignalDefinition, QueryDefinition, UpdateDefinition } from '../common/message-definitions.ts';
export { type ClientTlsOptions, type ConnectionOptions } from './connection.ts';
export { ScheduleClient } from './schedule-client.ts';
export { ScheduleHandle, type ScheduleUpdateOptions, type Backfill } from './schedule-handle.ts';
export type {
  ScheduleOptions, ScheduleStartWorkflowAction, SchedulePolicies, ScheduleOptionsState,
} from './schedule-options.ts';
export type { NamespaceDescription, NamespaceState } from '../protocol/index.ts';
export type {
  ScheduleListEntry, ScheduleIncident, ScheduleCounters, ScheduleActionResult, ScheduleOverlapPolicyOption,
} from '../protocol/index.ts';
export type {
  ScheduleDescription, ScheduleSpecDescription, CalendarSpecDescription, ScheduleRange, ScheduleDescriptionAction, ScheduleExecutionResult,
  ScheduleExecutionActionResult,
} from './schedule-description.ts';
export { ScheduleOverlapPolicy } from '../protocol/enums.ts';
export {
  ParentClosePolicy, ChildWorkflowCancellationType, type ParentClosePolicyOption,
} from '../history/child-types.ts';
export type { DataConverter, PayloadCodec, Payload } from '../codec/payload-codec.ts';
export type {
  WorkflowClientInterceptor, ClientInterceptors, WorkflowStartInput, WorkflowSignalInput, WorkflowSignalWithStartInput, WorkflowQueryInput,
  WorkflowStartUpdateInput, WorkflowStartUpdateOutput, WorkflowStartUpdateWithStartInput, WorkflowStartUpdateWithStartOutput, WorkflowTerminateInput, WorkflowCancelInput, WorkflowDescribeInput, WorkflowExecution,
  Headers, Next,
} from './interceptors.ts';
export { WithStartWorkflowOperation, type WithStartWorkflowOptions, type UpdateWithStartOptions, type StartUpdateWithStartOptions } from './update-with-start.ts';
