export { Client, WorkflowClient, workflowTypeOf, type ClientOptions, type ListOptions } from './client.ts';
export { WorkflowHandle } from './workflow-handle.ts';
export { HttpWorkflowService, parseAddress, type HttpServiceOptions } from './http-service.ts';
export type { WorkflowStartOptions, BaseStartOptions } from './start-options.ts';
export {
  WorkflowFailedError, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, ServiceError,
} from '../common/errors.ts';
