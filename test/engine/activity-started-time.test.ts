import assert from 'node:assert/strict';
import type { HistoryEvent } from '../../src/history/events.ts';
import { timelineRows } from '../../src/ui/timeline-model.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { engineStores } from './stores.ts';
import { cmd, T0 } from './helpers.ts';

const stores = await engineStores('activity start times', 'sf_started');

const ms = (e: HistoryEvent | undefined) => Date.parse(e!.eventTime) - T0;

for (const s of stores) {
  fixtureTest(`${s.name}: ActivityTaskStarted, written when the activity closes, has the attempt's start time; the timeline spans the attempt`, { skip: s.skip }, async (f) => {
    const h = await f.engine(await s.open(f));
    await h.start('long-activity');
    await h.complete(await h.pollWorkflow(), [cmd.activity('slow', { startToCloseTimeoutMs: 600_000 }), cmd.activity('other', { startToCloseTimeoutMs: 600_000 })]);
    await h.advance(5_000);
    // Whichever is handed out first runs for two minutes.
    const slow = await h.pollActivity();
    const other = await h.pollActivity();
    const d = await h.engine.describeWorkflowExecution({ workflowId: 'long-activity' });
    assert.deepEqual(d.pendingActivities.map((p) => Date.parse(p.lastStartedTime!) - T0), [5_000, 5_000]);
    await h.advance(120_000);
    // The other activity closes first; the workflow task its close schedules is running when the
    // slow one closes, so the slow one's events are buffered, then appended with their times.
    await h.engine.respondActivityTaskCompleted({ taskToken: other.taskToken, result: 'o', identity: 'worker-1' });
    const task = await h.pollWorkflow();
    await h.advance(1_000);
    await h.engine.respondActivityTaskCompleted({ taskToken: slow.taskToken, result: 's', identity: 'worker-1' });
    await h.complete(task, []);
    const events = await h.history('long-activity');
    const of = (type: string, scheduledEventId: number) =>
      events.find((e) => e.eventType === type && (e.attributes as { scheduledEventId?: number }).scheduledEventId === scheduledEventId);
    const [slowId, otherId] = [slow.scheduledEventId, other.scheduledEventId];
    assert.deepEqual([ms(of('ActivityTaskStarted', slowId)), ms(of('ActivityTaskCompleted', slowId))], [5_000, 126_000]);
    assert.deepEqual([ms(of('ActivityTaskStarted', otherId)), ms(of('ActivityTaskCompleted', otherId))], [5_000, 125_000]);
    const rows = timelineRows(events, await h.engine.describeWorkflowExecution({ workflowId: 'long-activity' }), T0 + 200_000);
    const attempt = rows.find((r) => r.label.endsWith(`(${slow.activityId})`))!.spans.find((x) => x.kind === 'attempt')!;
    assert.deepEqual([attempt.from - T0, attempt.to - T0, attempt.label], [5_000, 126_000, 'attempt 1 completed']);
  });
}
