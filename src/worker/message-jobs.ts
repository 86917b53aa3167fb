import type { HistoryEvent } from '../history/events.ts';
import type { ActivationJob } from '../workflow/activation.ts';

/** Activation jobs of signals, external-signal results and accepted updates; spread into EVENT_JOBS. */
export const MESSAGE_EVENT_JOBS = {
  WorkflowExecutionSignaled: (e: HistoryEvent<'WorkflowExecutionSignaled'>): ActivationJob => ({
    type: 'signalWorkflow', signalName: e.attributes.signalName, args: e.attributes.args ?? [],
  }),
  ExternalWorkflowExecutionSignaled: (e: HistoryEvent<'ExternalWorkflowExecutionSignaled'>): ActivationJob => ({
    type: 'resolveSignalExternal', signalId: e.attributes.signalId,
  }),
  SignalExternalWorkflowExecutionFailed: (e: HistoryEvent<'SignalExternalWorkflowExecutionFailed'>): ActivationJob => ({
    type: 'resolveSignalExternal', signalId: e.attributes.signalId,
    failure: { kind: 'Application', type: e.attributes.cause, message: e.attributes.message, nonRetryable: true },
  }),
  WorkflowExecutionUpdateAccepted: (e: HistoryEvent<'WorkflowExecutionUpdateAccepted'>): ActivationJob => ({
    type: 'doUpdate', updateId: e.attributes.updateId, updateName: e.attributes.updateName, args: e.attributes.args ?? [], acceptedEventId: e.eventId,
  }),
};

/**
 * How the commands of signals and updates are matched on replay: an external signal by its
 * sequence number, target and name; an update completion by its update id.
 */
export const MESSAGE_COMMAND_MATCHERS = {
  SignalExternalWorkflowExecution: { events: ['SignalExternalWorkflowExecutionInitiated'], keys: ['signalId', 'workflowId', 'signalName'] },
  CompleteWorkflowExecutionUpdate: { events: ['WorkflowExecutionUpdateCompleted'], keys: ['updateId'] },
} as const;
