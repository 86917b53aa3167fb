import type { HistoryEvent } from '../history/events.ts';
import type { WorkflowService } from '../protocol/index.ts';

/** A run's stored history up to and including `lastEventId`, fetched page by page. */
export async function storedHistoryUpTo(
  service: WorkflowService,
  run: { namespace: string; workflowId: string; runId: string },
  lastEventId: number,
): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let nextPageToken: string | undefined;
  do {
    const page = await service.getWorkflowExecutionHistory({
      namespace: run.namespace, workflowId: run.workflowId, runId: run.runId, pageSize: 1000,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    events.push(...page.events);
    nextPageToken = page.nextPageToken;
  } while (nextPageToken && events[events.length - 1]!.eventId < lastEventId);
  return events.filter((e) => e.eventId <= lastEventId);
}
