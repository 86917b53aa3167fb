import { isCloseEvent, type HistoryEvent } from '../../history/events.ts';
import type { QueryTask } from '../../protocol/index.ts';
import type { MessageRequest } from '../../workflow/activation.ts';

/**
 * Queries and update validations never reach history: a query task becomes a read-only
 * request against a run replayed up to the task's `lastEventId`. Events that no workflow task
 * has delivered yet (a signal that just arrived) are applied too, through a synthetic final
 * WorkflowTaskStarted whose commands are discarded, so the answer reflects every event
 * committed before the request. Returns `events`, extended.
 */
export function queryHistory(events: HistoryEvent[]): HistoryEvent[] {
  const last = events[events.length - 1];
  if (last && !events.some(isCloseEvent) && last.eventType !== 'WorkflowTaskStarted') {
    events.push({
      eventId: last.eventId + 1, eventType: 'WorkflowTaskStarted', eventTime: last.eventTime,
      attributes: { scheduledEventId: 0, identity: 'query', requestId: 'query' },
    });
  }
  return events;
}

/** The request a query task asks of the replayed run: a query, or an update's validation. */
export function queryRequest(task: QueryTask): MessageRequest {
  if (task.query) {
    const { queryType, args, header } = task.query;
    return { kind: 'query', queryType, args, ...(header ? { header } : {}) };
  }
  const { updateName, updateId, args, header } = task.updateValidation!;
  return { kind: 'validateUpdate', updateName, updateId, args, ...(header ? { header } : {}) };
}
