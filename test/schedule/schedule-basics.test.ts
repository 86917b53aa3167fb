import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError } from '../../src/common/errors.ts';
import { scheduleEnv, STORES, TASK_QUEUE } from './schedule-env.ts';

const MIN = 60_000;
const action = (args: unknown[]) => ({ type: 'startWorkflow' as const, workflowType: 'scheduled', taskQueue: TASK_QUEUE, workflowId: 'job', args });

for (const { name, skip } of STORES) {
  describe(`schedules on ${name}`, { skip }, () => {
    test('create, describe, list and delete; Skip drops an action while the last one runs and records it', async () => {
      const s = await scheduleEnv(name);
      try {
        const { client } = s.env;
        const handle = await client.schedule.create({
          scheduleId: 'every-minute', spec: { intervals: [{ every: '60s' }] }, action: action(['x', 90_000]),
        });
        await assert.rejects(client.schedule.create({ scheduleId: 'every-minute', spec: { intervals: [{ every: '1m' }] }, action: action([]) }),
          (e: unknown) => e instanceof ServiceError && e.code === 'AlreadyStarted');
        let d = await handle.describe();
        assert.deepEqual(d.spec.intervals, [{ every: 60_000, offset: 0 }]);
        assert.deepEqual(d.raw.spec.intervals, [{ every: '1m', offset: '0s' }], 'the service\'s canonical form stays in raw');
        assert.equal(d.policies.overlap, 'Skip');
        assert.equal(d.policies.catchupWindowMs, 60_000);
        assert.equal(d.info.nextActionTimes.length, 10);
        assert.deepEqual(d.info.nextActionTimes[0], new Date('2027-01-04T00:01:00.000Z'));
        assert.deepEqual(d.info.nextActionTimes[9], new Date('2027-01-04T00:10:00.000Z'));
        await s.advance(3 * MIN + 1000);
        d = await handle.describe();
        // 00:01 starts (runs 90 s, to 00:02:30), 00:02 is skipped, 00:03 starts.
        assert.deepEqual(d.info.recentActions.map((a) => [a.workflowId, a.status]), [
          ['job-2027-01-04T00:01:00Z', 'Completed'], ['job-2027-01-04T00:03:00Z', 'Running'],
        ]);
        assert.deepEqual(d.info.incidents.map((i) => [i.kind, i.scheduledAt]), [['Skipped', '2027-01-04T00:02:00Z']]);
        assert.equal(d.info.counters.skipped, 1);
        assert.equal(d.info.counters.actions, 2);
        assert.equal(d.info.healthy, true);
        const first = await client.workflow.getHandle('job-2027-01-04T00:01:00Z').describe();
        assert.equal(first.status, 'Completed');
        const byQuery = [];
        for await (const e of client.workflow.list({ query: "TemporalScheduledById = 'every-minute' ORDER BY StartTime ASC" })) {
          byQuery.push([e.workflowId, e.searchAttributes?.TemporalScheduledStartTime]);
        }
        assert.deepEqual(byQuery, [
          ['job-2027-01-04T00:01:00Z', '2027-01-04T00:01:00.000Z'], ['job-2027-01-04T00:03:00Z', '2027-01-04T00:03:00.000Z'],
        ], 'the started workflows carry TemporalScheduledById and TemporalScheduledStartTime');
        const listed = [];
        for await (const e of client.schedule.list()) listed.push(e);
        assert.deepEqual(listed.map((e) => [e.scheduleId, e.paused, e.healthy, e.nextActionTime]),
          [['every-minute', false, true, '2027-01-04T00:04:00.000Z']]);
        await handle.delete();
        await assert.rejects(handle.describe(), (e: unknown) => e instanceof ServiceError && e.code === 'NotFound');
        await s.advance(5 * MIN);
        const after = [];
        for await (const e of client.schedule.list()) after.push(e);
        assert.equal(after.length, 0);
        assert.equal((await client.workflow.getHandle('job-2027-01-04T00:03:00Z').describe()).raw.execution.status, 'Completed');
      } finally {
        await s.teardown();
      }
    });

    test('pause and unpause keep a note; times passed while paused are not taken; trigger acts while paused', async () => {
      const s = await scheduleEnv(name);
      try {
        const handle = await s.env.client.schedule.create({
          scheduleId: 'p', spec: { intervals: [{ every: '1m' }] }, action: action(['p', 1000]),
        });
        await handle.pause('maintenance window');
        let d = await handle.describe();
        assert.equal(d.state.paused, true);
        assert.equal(d.state.note, 'maintenance window');
        await s.advance(5 * MIN);
        await handle.trigger();
        await s.advance(2000);
        d = await handle.describe();
        assert.deepEqual(d.info.recentActions.map((a) => [a.workflowId, a.status]), [['job-2027-01-04T00:05:00Z', 'Completed']]);
        assert.equal(d.info.counters.missedCatchup, 0);
        await handle.unpause('back');
        await s.advance(MIN);
        d = await handle.describe();
        assert.equal(d.state.note, 'back');
        assert.deepEqual(d.info.recentActions.map((a) => a.workflowId), ['job-2027-01-04T00:05:00Z', 'job-2027-01-04T00:06:00Z']);
      } finally {
        await s.teardown();
      }
    });

    test('AllowAll starts overlapping workflows', async () => {
      const s = await scheduleEnv(name);
      try {
        const handle = await s.env.client.schedule.create({
          scheduleId: 'all', spec: { intervals: [{ every: '1m' }] }, action: action(['a', 150_000]), policies: { overlap: 'AllowAll' },
        });
        // Each runs 150 s: at 00:03:31 the first has completed and the next two overlap.
        await s.advance(3 * MIN + 31_000);
        const d = await handle.describe();
        assert.equal(d.info.runningWorkflows.length, 2);
        assert.deepEqual(d.info.recentActions.map((a) => a.status), ['Completed', 'Running', 'Running']);
        assert.equal(d.info.counters.skipped, 0);
      } finally {
        await s.teardown();
      }
    });

    test("the action's search attributes are checked at create and reach every started workflow beside TemporalScheduledById", async () => {
      const s = await scheduleEnv(name);
      try {
        const { client } = s.env;
        await assert.rejects(client.schedule.create({
          scheduleId: 'sa', spec: { intervals: [{ every: '1m' }] }, action: { ...action(['s', 1000]), searchAttributes: { CustomerId: 'c1' } },
        }), (e: unknown) => e instanceof Error && e.message === 'action.searchAttributes.CustomerId is not a registered search attribute of this namespace, got "c1"');
        await client.searchAttributes.create({ name: 'CustomerId', type: 'Keyword' });
        const h = await client.schedule.create({
          scheduleId: 'sa', spec: { intervals: [{ every: '1m' }] }, action: { ...action(['s', 1000]), searchAttributes: { CustomerId: 'c1' } },
        });
        assert.deepEqual((await h.describe()).action.searchAttributes, { CustomerId: 'c1' });
        await s.advance(2 * MIN + 1000);
        const found: string[] = [];
        for await (const e of client.workflow.list({ query: "CustomerId = 'c1' AND TemporalScheduledById = 'sa' ORDER BY StartTime ASC" })) found.push(e.workflowId);
        assert.deepEqual(found, ['job-2027-01-04T00:01:00Z', 'job-2027-01-04T00:02:00Z']);
      } finally {
        await s.teardown();
      }
    });

    test('the conflict token moves with what a user changes (update, pause), not with runs or triggers', async () => {
      const s = await scheduleEnv(name);
      try {
        const h = await s.env.client.schedule.create({ scheduleId: 'tok', spec: { intervals: [{ every: '1m' }] }, action: action(['t', 1000]) });
        const before = await h.describe();
        await h.trigger();
        await s.advance(3 * MIN);
        const afterRuns = await h.describe();
        assert.ok(afterRuns.info.counters.actions >= 3);
        assert.equal(afterRuns.conflictToken, before.conflictToken);
        const ref = { scheduleId: 'tok', spec: before.raw.spec, action: before.raw.action, policies: before.raw.policies };
        await s.engine.updateSchedule({ ...ref, conflictToken: before.conflictToken });
        await assert.rejects(s.engine.updateSchedule({ ...ref, conflictToken: before.conflictToken }),
          (e: unknown) => e instanceof ServiceError && e.code === 'FailedPrecondition' && /changed since conflictToken 1 \(now 2\)/.test(e.message));
        await h.pause('hold');
        assert.equal((await h.describe()).conflictToken, 3);
      } finally {
        await s.teardown();
      }
    });
  });
}
