import type { Feature } from '../core/feature.ts';
import { messageSlice, type MessageLimits } from './message-state.ts';
import { applySignalExternalCommand, deliverExternalSignal, rebuildSignals } from './signals.ts';
import { applyCompleteUpdateCommand, rebuildUpdates } from './updates.ts';

// Needs visibility/ (signal-with-start checks the new run's search attributes) and workflow-task/
// (a query or update waiting on a failing workflow task says why: workflowTaskFailing).

/**
 * Signals and updates (queries leave no trace in a run: their tasks live only while the caller
 * waits, queries.ts). Signals: SignalExternalWorkflowExecution and its SignalExternal delivery,
 * checked against `limits`; updates: CompleteWorkflowExecutionUpdate. Their state slice is
 * `messages` (signal count, request ids for deduplication, pending external signals, updates);
 * the service calls (signal, signal-with-start, query, update) are messages.ts.
 */
export function messagesFeature(limits: MessageLimits) {
  return {
    commands: { SignalExternalWorkflowExecution: applySignalExternalCommand, CompleteWorkflowExecutionUpdate: applyCompleteUpdateCommand },
    deliveries: { SignalExternal: (core, timer) => deliverExternalSignal(core, limits, timer) },
    rebuild: (b, events) => {
      rebuildSignals(b, events);
      rebuildUpdates(b, events);
    },
    state: messageSlice,
  } satisfies Feature;
}
