export { Client, WorkflowClient, workflowTypeOf, type ClientOptions, type ListOptions } from './client.ts';
export { WorkflowHandle } from './workflow-handle.ts';
export { HttpWorkflowService, parseAddress, type HttpServiceOptions } from './http-service.ts';
export type { WorkflowStartOptions, BaseStartOptions } from './start-options.ts';
export {
  WorkflowFailedError, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, ServiceError,
} from '../common/errors.ts';
export { QueryFailedError, WorkflowUpdateFailedError } from './message-errors.ts';
export type { QueryOptions, UpdateOptions, WorkflowUpdateHandle } from './messages.ts';
export type { SignalDefinition, QueryDefinition, UpdateDefinition } from '../common/message-definitions.ts';
