import { defineFeature, records, wakes } from './feature.ts';

/**
 * Updates: an accepted update runs its handler; the handler's outcome (CompleteWorkflowExecutionUpdate)
 * matches by update id. Validation happens before acceptance, through a query task (query.ts); an
 * update-with-start's admitted update is validated in the workflow task that delivers it.
 */
export const updateFeature = defineFeature({
  name: 'update',
  commands: {
    CompleteWorkflowExecutionUpdate: { events: ['WorkflowExecutionUpdateCompleted'], keys: ['updateId'] },
  },
  events: {
    WorkflowExecutionUpdateAccepted: wakes<'WorkflowExecutionUpdateAccepted'>((e) => ({
      type: 'doUpdate', updateId: e.attributes.updateId, updateName: e.attributes.updateName, args: e.attributes.args ?? [], acceptedEventId: e.eventId,
      ...(e.attributes.header ? { header: e.attributes.header } : {}),
    })),
    // An update-with-start's update: validated in the workflow task that delivers it, then run.
    WorkflowExecutionUpdateAdmitted: wakes<'WorkflowExecutionUpdateAdmitted'>((e) => ({
      type: 'doUpdate', updateId: e.attributes.updateId, updateName: e.attributes.updateName, args: e.attributes.args ?? [], acceptedEventId: e.eventId,
      validate: true, ...(e.attributes.header ? { header: e.attributes.header } : {}),
    })),
    WorkflowExecutionUpdateCompleted: records(),
  },
});
