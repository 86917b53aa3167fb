import { defineFeature, records, SILENT, TASK, wakes } from './feature.ts';

/**
 * The run itself: its start wakes the workflow function, its workflow task events are the
 * run's own bookkeeping (workflow-run.ts), and its complete and fail commands close it. A cron
 * run or a failed run with a retry policy closes as ContinuedAsNew (initiator CronSchedule or
 * RetryPolicy), as in Cadence. A memo change (upsertMemo) matches with no keys.
 */
export const workflowFeature = defineFeature({
  name: 'workflow',
  commands: {
    CompleteWorkflowExecution: { events: ['WorkflowExecutionCompleted', 'WorkflowExecutionContinuedAsNew'], keys: [] },
    FailWorkflowExecution: { events: ['WorkflowExecutionFailed', 'WorkflowExecutionContinuedAsNew'], keys: [] },
    ModifyWorkflowProperties: { events: ['WorkflowPropertiesModified'], keys: [] },
  },
  events: {
    WorkflowExecutionStarted: wakes<'WorkflowExecutionStarted'>((e) => ({
      type: 'startWorkflow', args: e.attributes.args ?? [], ...(e.attributes.header ? { header: e.attributes.header } : {}),
    })),
    WorkflowTaskScheduled: TASK,
    WorkflowTaskStarted: TASK,
    WorkflowTaskCompleted: TASK,
    WorkflowTaskFailed: TASK,
    WorkflowTaskTimedOut: TASK,
    WorkflowExecutionCompleted: records(),
    WorkflowExecutionFailed: records(),
    WorkflowPropertiesModified: records(),
    WorkflowExecutionTimedOut: SILENT,
    WorkflowExecutionTerminated: SILENT,
  },
});
