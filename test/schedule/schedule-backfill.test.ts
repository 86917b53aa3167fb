import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scheduleEnv, STORES, TASK_QUEUE } from './schedule-env.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.parse('2027-01-04T00:00:00Z');
const action = (args: unknown[]) => ({ type: 'startWorkflow' as const, workflowType: 'scheduled', taskQueue: TASK_QUEUE, workflowId: 'job', args });

for (const { name, skip } of STORES) {
  describe(`schedule backfill and limited actions on ${name}`, { skip }, () => {
    test('backfill with BufferAll runs the range one after another, each with its nominal time', async () => {
      const s = await scheduleEnv(name);
      try {
        const h = await s.env.client.schedule.create({
          scheduleId: 'b', spec: { intervals: [{ every: '1h' }] }, action: action(['b', 10_000]), state: { paused: true, note: 'off' },
        });
        await h.backfill({ start: new Date(T0 - 4 * HOUR), end: new Date(T0 - HOUR), overlap: 'BufferAll' });
        await s.settle();
        let d = await h.describe();
        assert.equal(d.info.runningWorkflows.length, 1);
        assert.equal(d.info.bufferedActions, 3);
        await s.advance(MIN);
        d = await h.describe();
        assert.deepEqual(d.info.recentActions.map((a) => [a.workflowId, a.status]), [
          ['job-2027-01-03T20:00:00Z', 'Completed'], ['job-2027-01-03T21:00:00Z', 'Completed'],
          ['job-2027-01-03T22:00:00Z', 'Completed'], ['job-2027-01-03T23:00:00Z', 'Completed'],
        ]);
        const runs = await Promise.all(d.info.recentActions.map((a) => s.env.client.workflow.getHandle(a.workflowId).describe()));
        for (let i = 1; i < runs.length; i++) {
          assert.ok(Date.parse(runs[i]!.raw.execution.startTime) >= Date.parse(runs[i - 1]!.raw.execution.closeTime!), `run ${i} started before run ${i - 1} closed`);
        }
        assert.equal(d.state.paused, true);
        assert.equal(d.info.backfillsPending, 0);
      } finally {
        await s.teardown();
      }
    });

    test('BufferAll holds at most 1,000 actions: the rest are counted and listed as buffer overruns', async () => {
      const s = await scheduleEnv(name);
      try {
        const h = await s.env.client.schedule.create({
          scheduleId: 'full', spec: { intervals: [{ every: '1m' }] }, action: action(['full', 10 * HOUR]), state: { paused: true, note: 'off' },
        });
        // 1,005 nominal times while one run lasts ten hours: one runs, 1,000 wait, 4 overrun.
        await h.backfill({ start: new Date(T0 - 1005 * MIN), end: new Date(T0 - MIN), overlap: 'BufferAll' });
        await s.settle();
        const d = await h.describe();
        assert.equal(d.info.runningWorkflows.length, 1);
        assert.equal(d.info.bufferedActions, 1000);
        assert.equal(d.info.counters.bufferOverruns, 4);
        const overruns = d.info.incidents.filter((i) => i.kind === 'BufferOverrun');
        assert.equal(overruns.length, 4);
        assert.deepEqual(overruns.map((i) => i.scheduledAt), ['2027-01-03T23:56:00Z', '2027-01-03T23:57:00Z', '2027-01-03T23:58:00Z', '2027-01-03T23:59:00Z']);
        assert.match(overruns[0]!.detail, /the buffer holds its maximum of 1000/);
      } finally {
        await s.teardown();
      }
    });

    test('backfill with AllowAll starts the whole range at once', async () => {
      const s = await scheduleEnv(name);
      try {
        const h = await s.env.client.schedule.create({ scheduleId: 'a', spec: { intervals: [{ every: '1h' }] }, action: action(['a', 10_000]) });
        await h.backfill({ start: T0 - 4 * HOUR, end: T0 - HOUR, overlap: 'AllowAll' });
        await s.settle();
        const d = await h.describe();
        assert.equal(d.info.runningWorkflows.length, 4);
        assert.equal(d.info.counters.actions, 4);
      } finally {
        await s.teardown();
      }
    });

    test('limited actions: at zero the schedule acts as paused; triggers and backfills do not count', async () => {
      const s = await scheduleEnv(name);
      try {
        const h = await s.env.client.schedule.create({
          scheduleId: 'l', spec: { intervals: [{ every: '1m' }] }, action: action(['l', 1000]), state: { remainingActions: 2 },
        });
        let d = await h.describe();
        assert.equal(d.info.nextActionTimes.length, 2);
        await s.advance(5 * MIN);
        d = await h.describe();
        assert.equal(d.state.remainingActions, 0);
        assert.deepEqual(d.info.recentActions.map((a) => a.workflowId), ['job-2027-01-04T00:01:00Z', 'job-2027-01-04T00:02:00Z']);
        assert.deepEqual(d.info.nextActionTimes, []);
        await h.trigger();
        await h.backfill({ start: T0 - 2 * MIN, end: T0 - MIN, overlap: 'AllowAll' });
        await s.advance(MIN);
        d = await h.describe();
        assert.equal(d.state.remainingActions, 0);
        assert.equal(d.info.counters.actions, 5);
      } finally {
        await s.teardown();
      }
    });
  });
}
