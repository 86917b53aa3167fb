/**
 * The client's answers in Temporal's shapes, on SQLite and PostgreSQL: list() entries with the
 * flat fields of describe(), and a schedule's describe() as Temporal's ScheduleDescription.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../composition/helpers.ts';

const HOUR = 3_600_000;

for (const backend of backends('temporal_shapes')) {
  describe(`Temporal's shapes on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    after(() => backend.cleanup());

    // list() yielded the service's entries: workflowType and ISO strings, no `type`, no Dates.
    test('list() entries carry the flat fields describe() has, times as Dates, beside the service\'s fields', { skip }, async () => {
      const env = await backend.env();
      try {
        await env.client.workflow.start('order', { taskQueue: 'nobody', workflowId: 'open', memo: { customer: 'c-9' } });
        const closed = await env.client.workflow.start('order', { taskQueue: 'nobody', workflowId: 'closed' });
        await closed.terminate('done');
        const listed = new Map<string, Awaited<ReturnType<typeof env.client.workflow.list>> extends AsyncIterable<infer T> ? T : never>();
        for await (const e of env.client.workflow.list()) listed.set(e.workflowId, e);
        for (const id of ['open', 'closed']) {
          const e = listed.get(id)!;
          const d = await env.client.workflow.getHandle(id).describe();
          for (const key of ['type', 'workflowId', 'runId', 'taskQueue', 'status', 'historyLength', 'startTime', 'executionTime', 'closeTime', 'memo'] as const) {
            assert.deepEqual(e[key], d[key], `${id}: ${key}`);
          }
          assert.ok(e.startTime instanceof Date && e.executionTime instanceof Date);
          assert.deepEqual(e.searchAttributes, {});
          assert.equal(e.workflowType, 'order', 'the service\'s own fields stay');
          assert.equal(e.raw.startTime, e.startTime.toISOString());
        }
        assert.ok(listed.get('closed')!.closeTime instanceof Date);
        assert.equal(listed.get('open')!.closeTime, undefined);
        assert.deepEqual(listed.get('open')!.memo, { customer: 'c-9' });
      } finally {
        await env.teardown();
      }
    });

    // describe() gave the service's answer: canonical strings, ISO times, no Temporal fields.
    test("a schedule's describe() is Temporal's ScheduleDescription, and can be passed back to create", { skip }, async () => {
      const env = await backend.env();
      try {
        const start = await env.currentTimeMs();
        const h = await env.client.schedule.create({
          scheduleId: 'weekdays',
          spec: {
            calendars: [{ hour: 9, dayOfWeek: { start: 'MONDAY', end: 'FRIDAY' }, comment: 'mornings' }],
            intervals: [{ every: '6h', offset: '1h' }], jitter: '10s', startAt: new Date(start), timezone: 'Europe/Paris',
          },
          action: {
            type: 'startWorkflow', workflowType: 'report', taskQueue: 'nobody', workflowId: 'report', args: ['eu'],
            retry: { maximumAttempts: 3 }, workflowRunTimeout: '1h',
          },
          policies: { overlap: 'BUFFER_ONE', catchupWindow: '10m' },
        });
        await h.trigger();
        const d = await h.describe();
        const cal = d.spec.calendars[0]!;
        assert.deepEqual(cal.hour, [{ start: 9, end: 9, step: 1 }]);
        assert.deepEqual(cal.minute, [{ start: 0, end: 0, step: 1 }]);
        assert.deepEqual(cal.dayOfWeek, [{ start: 'MONDAY', end: 'FRIDAY', step: 1 }]);
        assert.deepEqual(cal.month, [{ start: 'JANUARY', end: 'DECEMBER', step: 1 }]);
        assert.equal(cal.comment, 'mornings');
        assert.deepEqual(d.spec.intervals, [{ every: 6 * HOUR, offset: HOUR }]);
        assert.equal(d.spec.jitter, 10_000);
        assert.deepEqual(d.spec.startAt, new Date(start));
        assert.equal(d.spec.timezone, 'Europe/Paris');
        assert.equal(d.action.type, 'startWorkflow');
        assert.deepEqual(d.action.args, ['eu']);
        assert.equal(d.action.retry?.maximumAttempts, 3);
        assert.equal(d.action.workflowRunTimeout, HOUR);
        assert.deepEqual(d.policies, { overlap: 'BufferOne', catchupWindow: 600_000, catchupWindowMs: 600_000, pauseOnFailure: false });
        assert.equal(d.state.paused, false);
        assert.ok(d.info.nextActionTimes.length > 0 && d.info.nextActionTimes.every((t) => t instanceof Date));
        assert.equal(d.info.recentActions.length, 1);
        const taken = d.info.recentActions[0]!;
        assert.ok(taken.scheduledAt instanceof Date && taken.takenAt instanceof Date);
        assert.deepEqual(taken.action, { type: 'startWorkflow', workflow: { workflowId: taken.workflowId, firstExecutionRunId: taken.runId } });
        assert.equal(d.info.numActionsTaken, 1);
        assert.equal(d.info.numActionsSkippedOverlap, 0);
        assert.equal(d.info.numActionsMissedCatchupWindow, 0);
        assert.ok(d.info.createdAt instanceof Date && d.info.lastUpdatedAt instanceof Date);
        assert.deepEqual(d.info.runningActions, [taken.action]);
        assert.equal(d.info.counters.actions, 1, 'the service\'s own fields stay');
        // As in Temporal, a description is a template for a new schedule.
        const copy = await env.client.schedule.create({ scheduleId: 'copy', spec: d.spec, action: d.action, policies: d.policies, state: d.state });
        const c = await copy.describe();
        assert.deepEqual(c.raw.spec, d.raw.spec);
        assert.deepEqual(c.raw.action, d.raw.action);
        assert.deepEqual(c.raw.policies, d.raw.policies);
        // As in Temporal, the started workflows' id defaults to `${scheduleId}-workflow`.
        const unnamed = await env.client.schedule.create({
          scheduleId: 'unnamed', spec: { intervals: [{ every: '1h' }] }, action: { type: 'startWorkflow', workflowType: 'report', taskQueue: 'nobody' },
        });
        assert.equal((await unnamed.describe()).action.workflowId, 'unnamed-workflow');
      } finally {
        await env.teardown();
      }
    });
  });
}
