import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScheduleOverlapPolicy } from '../../src/client/index.ts';
import { scheduleEnv, STORES, TASK_QUEUE, type ScheduleEnv } from './schedule-env.ts';

const MIN = 60_000;
const T0 = Date.parse('2027-01-04T00:00:00Z');
const action = (args: unknown[]) => ({ type: 'startWorkflow' as const, workflowType: 'scheduled', taskQueue: TASK_QUEUE, workflowId: 'job', args });
const at = (s: string) => `job-2027-01-04T${s}Z`;

async function statuses(s: ScheduleEnv, id: string): Promise<string[][]> {
  const d = await s.env.client.schedule.getHandle(id).describe();
  return d.info.recentActions.map((a) => [a.workflowId, a.status]);
}

for (const { name, skip } of STORES) {
  describe(`schedule policies on ${name}`, { skip }, () => {
    const overlaps: [ScheduleOverlapPolicy, number, string[][], string[][]][] = [
      // Every minute, each run lasts 150 s; the state at 00:03:31 (the first run ended at 00:03:30).
      ['BufferOne', 3 * MIN + 31_000, [[at('00:01:00'), 'Completed'], [at('00:02:00'), 'Running']], [['BufferOverrun', '2027-01-04T00:03:00Z']]],
      ['BufferAll', 3 * MIN + 31_000, [[at('00:01:00'), 'Completed'], [at('00:02:00'), 'Running']], []],
      ['CancelOther', 2 * MIN + 1000, [[at('00:01:00'), 'Canceled'], [at('00:02:00'), 'Running']], []],
      ['TerminateOther', 2 * MIN + 1000, [[at('00:01:00'), 'Terminated'], [at('00:02:00'), 'Running']], []],
    ];
    for (const [overlap, wait, expected, incidents] of overlaps) {
      test(`${overlap}: the seed's behaviour when an action is due while the last one runs`, async () => {
        const s = await scheduleEnv(name);
        try {
          const h = await s.env.client.schedule.create({
            scheduleId: overlap, spec: { intervals: [{ every: '1m' }] }, action: action(['x', 150_000]), policies: { overlap },
          });
          await s.advance(wait);
          assert.deepEqual(await statuses(s, overlap), expected);
          const d = await h.describe();
          assert.deepEqual(d.info.incidents.map((i) => [i.kind, i.scheduledAt]), incidents);
          if (overlap === 'BufferAll') assert.equal(d.info.bufferedActions, 1);
        } finally {
          await s.teardown();
        }
      });
    }

    test('catchup window: after an outage, actions later than the window are counted and listed as missed, the rest taken', async () => {
      const s = await scheduleEnv(name);
      try {
        const h = await s.env.client.schedule.create({
          scheduleId: 'c', spec: { intervals: [{ every: '1m' }] }, action: action(['c', 1000]), policies: { catchupWindow: '1 minute' },
        });
        await s.settle();
        // The engine sees no time between 00:00 and 00:10:30 (an outage): one jump of the clock.
        await s.clock.set(T0 + 10 * MIN + 30_000);
        await s.advance(5000);
        const d = await h.describe();
        assert.equal(d.info.counters.missedCatchup, 9);
        assert.deepEqual(d.info.incidents.filter((i) => i.kind === 'MissedCatchup').map((i) => i.scheduledAt.slice(11, 16)),
          ['00:01', '00:02', '00:03', '00:04', '00:05', '00:06', '00:07', '00:08', '00:09']);
        assert.deepEqual(d.info.recentActions.map((a) => a.workflowId), [at('00:10:00')]);
      } finally {
        await s.teardown();
      }
    });

    test('an overdue schedule is reported unhealthy by describe and list, and recovers when its timer is fired', async () => {
      const s = await scheduleEnv(name);
      try {
        const h = await s.env.client.schedule.create({ scheduleId: 'u', spec: { intervals: [{ every: '1m' }] }, action: action(['u', 1000]) });
        await s.settle();
        // A server claims the 00:01 fire and dies: nobody fires it until its lease ends.
        const claimed = await s.engine.store.claimDueTimers({ now: T0 + MIN, limit: 10, leaseMs: 3_600_000, owner: 'dead-server' });
        assert.equal(claimed.length, 1);
        await s.advance(5 * MIN);
        const d = await h.describe();
        assert.equal(d.info.healthy, false);
        assert.match(d.info.unhealthyReason!, /next fire at 2027-01-04T00:01:00.000Z is 240000 ms overdue, beyond the catchup window of 60000 ms/);
        for await (const e of s.env.client.schedule.list()) assert.equal(e.healthy, false);
        await s.advance(60 * MIN);
        const after = await h.describe();
        assert.equal(after.info.healthy, true);
        assert.ok(after.info.counters.missedCatchup >= 59, `missed ${after.info.counters.missedCatchup}`);
      } finally {
        await s.teardown();
      }
    });

    test('pause-on-failure: a failed workflow pauses the schedule with a note naming it and the failure', async () => {
      const s = await scheduleEnv(name);
      try {
        const h = await s.env.client.schedule.create({
          scheduleId: 'f', spec: { intervals: [{ every: '1m' }] }, action: action(['f', 1000, true]), policies: { pauseOnFailure: true },
        });
        await s.advance(5 * MIN);
        const d = await h.describe();
        assert.equal(d.state.paused, true);
        assert.equal(d.state.note, `paused on failure: workflow ${at('00:01:00')} (action of 2027-01-04T00:01:00Z) Failed: f failed on purpose`);
        assert.deepEqual(d.info.recentActions.map((a) => [a.workflowId, a.status]), [[at('00:01:00'), 'Failed']]);
        assert.deepEqual(d.info.incidents.map((i) => i.kind), ['Failed']);
        assert.equal(d.info.counters.failed, 1);
        assert.equal(d.info.lastFailure?.message, 'f failed on purpose');
      } finally {
        await s.teardown();
      }
    });

    test("last completion result: the seed's A/B/C/D timeline under AllowAll; last failure reaches the next run", async () => {
      const s = await scheduleEnv(name);
      try {
        const h = await s.env.client.schedule.create({
          scheduleId: 'abcd', spec: { intervals: [{ every: '365d' }] }, action: action(['A', 100_000]), policies: { overlap: 'AllowAll' },
        });
        const run = async (args: unknown[]) => {
          await h.update((p) => ({ ...p, action: { ...p.action, args } }));
          await h.trigger();
          await s.settle();
        };
        await run(['A', 100_000]); // 0 s .. 100 s
        await s.advance(20_000);
        await run(['B', 20_000]); // 20 s .. 40 s
        await s.advance(30_000);
        await run(['C', 60_000]); // 50 s .. 110 s
        await s.advance(55_000);
        await run(['D', 10_000]); // 105 s: A completed last (at 100 s); C is still running
        await s.advance(20_000);
        const ids = (await h.describe()).info.recentActions.map((a) => a.workflowId);
        const seen = await Promise.all(ids.map((id) => s.env.client.workflow.getHandle(id).result())) as { name: string; lastCompletionResult?: { name: string } }[];
        assert.deepEqual(seen.map((r) => [r.name, r.lastCompletionResult?.name]), [['A', undefined], ['B', undefined], ['C', 'B'], ['D', 'A']]);
        await run(['E', 1000, true]);
        await s.advance(2000);
        // F must start after the schedule has taken E's failure: E's close reaches the schedule as a
        // delivery, which a server retries once its lease ends if a first firing failed; moving
        // time on lets that happen and changes nothing else here (every other run has ended).
        for (let i = 0; i < 180 && (await h.describe()).info.counters.failed === 0; i++) await s.advance(1000);
        await run(['F', 1000]);
        await s.advance(2000);
        const info = (await h.describe()).info;
        const f = await s.env.client.workflow.getHandle(info.recentActions.at(-1)!.workflowId).result() as { lastFailure?: string; lastCompletionResult?: { name: string } };
        assert.equal(f.lastFailure, 'E failed on purpose', `the schedule: ${JSON.stringify({ counters: info.counters,
          recent: info.recentActions.map((a) => [a.workflowId, a.status]), pending: s.engine.pendingWork(), at: new Date(s.clock.now()).toISOString() })}`);
        assert.equal(f.lastCompletionResult?.name, 'D');
      } finally {
        await s.teardown();
      }
    });
  });
}
