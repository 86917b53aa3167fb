import { defineFeature, records, wakes } from './feature.ts';

/**
 * Signals: one that reaches the run wakes its handler (or waits in the buffer); a signal to
 * another workflow matches by its sequence number, target and name, and its outcome settles
 * the sender's promise.
 */
export const signalFeature = defineFeature({
  name: 'signal',
  commands: {
    SignalExternalWorkflowExecution: { events: ['SignalExternalWorkflowExecutionInitiated'], keys: ['signalId', 'workflowId', 'signalName'] },
  },
  events: {
    WorkflowExecutionSignaled: wakes<'WorkflowExecutionSignaled'>((e) => ({
      type: 'signalWorkflow', signalName: e.attributes.signalName, args: e.attributes.args ?? [],
      ...(e.attributes.header ? { header: e.attributes.header } : {}),
    })),
    SignalExternalWorkflowExecutionInitiated: records(),
    ExternalWorkflowExecutionSignaled: wakes<'ExternalWorkflowExecutionSignaled'>((e) => ({ type: 'resolveSignalExternal', signalId: e.attributes.signalId })),
    SignalExternalWorkflowExecutionFailed: wakes<'SignalExternalWorkflowExecutionFailed'>((e) => ({
      type: 'resolveSignalExternal', signalId: e.attributes.signalId,
      failure: { kind: 'Application', type: e.attributes.cause, message: e.attributes.message, nonRetryable: true },
    })),
  },
});
