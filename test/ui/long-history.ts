import { Engine } from '../../src/engine/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { openStore } from '../../src/store/index.ts';

/**
 * Starts `workflowId` (on a task queue no worker polls) in the database at `url`, then appends
 * signals in one store transition until the run has `length` events. The engine appends one
 * signal per transition, each costlier as the history grows (5,000 signals through the HTTP
 * batch route took 123 s on a 2-core machine); one transition writes 50,000 events in about a second.
 */
export async function seedLongHistory(url: string, workflowId: string, length: number): Promise<void> {
  const store = await openStore(url);
  try {
    const engine = await Engine.create({ store });
    await engine.startWorkflowExecution({ workflowId, workflowType: 'longHistory', taskQueue: 'nobody' });
    await engine.shutdown();
    const rec = (await store.getLatestExecution('default', workflowId))!;
    const time = new Date(rec.startTime).toISOString();
    const events: HistoryEvent[] = [];
    for (let id = rec.nextEventId; id <= length; id++) {
      events.push({ eventId: id, eventType: 'WorkflowExecutionSignaled', eventTime: time, attributes: { signalName: 'tick', args: [id] } });
    }
    await store.commit({
      executions: [{ record: { ...rec, nextEventId: length + 1, version: rec.version + 1 }, expectedVersion: rec.version, events }],
    });
  } finally {
    await store.close();
  }
}
