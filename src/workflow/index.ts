/**
 * steadfast/workflow: the API used inside workflow code. It runs in the worker's sandbox,
 * where time, randomness and timers are deterministic, and turns calls into commands
 * (ScheduleActivityTask, StartTimer, …) matched against history on replay.
 */
export { proxyActivities, type ActivityOptions, type ActivityInterfaceFor } from './proxy-activities.ts';
export { proxyLocalActivities, type LocalActivityOptions } from './proxy-local-activities.ts';
export { ActivityCancellationType } from './activity-cancellation.ts';
export { sleep, condition } from './timers.ts';
export { workflowInfo, uuid4, getLastCompletionResult } from './info.ts';
export { CancellationScope, type CancellationScopeOptions } from './cancellation-scope.ts';
export { continueAsNew, makeContinueAsNewFunc, ContinueAsNew, type ContinueAsNewOptions } from './continue-as-new.ts';
export { inWorkflowContext } from './activator.ts';
export { log, type WorkflowLogger } from './log.ts';
export {
  defineSignal, defineQuery, defineUpdate, setHandler, getExternalWorkflowHandle, type UpdateHandlerOptions, type ExternalWorkflowHandle,
} from './messages.ts';
export {
  setDefaultSignalHandler, setDefaultQueryHandler, setDefaultUpdateHandler, type SignalHandlerOptions, type QueryHandlerOptions,
} from './messages.ts';
export { allHandlersFinished, currentUpdateInfo, HandlerUnfinishedPolicy, type UpdateInfo } from './handlers.ts';
export { Trigger } from './trigger.ts';
export type { SignalDefinition, QueryDefinition, UpdateDefinition } from '../common/message-definitions.ts';
export { patched, deprecatePatch } from './patch.ts';
export { sideEffect } from './side-effect.ts';
export { upsertMemo } from './memo.ts';
export { setCurrentDetails, getCurrentDetails } from './current-details.ts';
export { upsertSearchAttributes } from './search-attributes.ts';
export type { SearchAttributesOption, SearchAttributeOptionValue } from './search-attribute-options.ts';
export { startChild, executeChild, type ChildWorkflowOptions, type ChildWorkflowHandle } from './child.ts';
export {
  ParentClosePolicy, ChildWorkflowCancellationType, type ParentClosePolicyOption,
} from '../history/child-types.ts';
export { WorkflowIdReusePolicy, type WorkflowIdReusePolicyOption } from '../history/id-reuse-policy.ts';
export { WorkflowIdConflictPolicy, type WorkflowIdConflictPolicyOption } from '../history/id-conflict-policy.ts';
export type { WorkflowInfo } from './activation.ts';
export {
  ApplicationFailure, ActivityFailure, ChildWorkflowFailure, CancelledFailure, TimeoutFailure, TerminatedFailure, ServerFailure, Failure,
  isCancellation, type ApplicationFailureOptions,
} from '../common/failure.ts';
export { IllegalStateError } from '../common/errors.ts';
export type { Duration } from '../retry/duration.ts';
export type { TemporalRetryPolicy as RetryPolicy } from '../retry/temporal.ts';
export type { Workflow, ActivityFunction } from '../common/workflow-types.ts';
export type {
  WorkflowInboundCallsInterceptor, WorkflowOutboundCallsInterceptor, WorkflowInterceptors, WorkflowInterceptorsFactory, WorkflowExecuteInput,
  SignalInput, QueryInput, UpdateInput, ActivityInput, LocalActivityInput, TimerInput, TimerOptions, StartChildWorkflowExecutionInput, SignalWorkflowInput, ContinueAsNewInput,
  GetLogAttributesInput, Headers, Next,
} from './interceptors.ts';
export { defaultPayloadConverter } from '../common/headers.ts';
