import assert from 'node:assert/strict';
import type { Client } from '../../src/client/index.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The id of the schedule the fire crash tests create. */
export const TICK_SCHEDULE_ID = 'tick';

/**
 * Creates a schedule that starts a workflow every second. Nobody polls its task queue, so every
 * started workflow stays open: a second start of one id would be refused by the store and show
 * as a Skipped incident.
 */
export async function createTickSchedule(client: Client): Promise<void> {
  await client.schedule.create({
    scheduleId: TICK_SCHEDULE_ID, spec: { intervals: [{ every: '1s' }] }, policies: { overlap: 'AllowAll', catchupWindow: '1h' },
    action: { type: 'startWorkflow', workflowType: 'never', taskQueue: 'nobody', workflowId: TICK_SCHEDULE_ID },
  });
}

/** Sleeps until `afterMs` milliseconds past the next whole second: the fire of that second is being claimed or committed then. */
export async function untilFireInstant(afterMs: number): Promise<void> {
  await sleep(1000 - (Date.now() % 1000) + afterMs);
}

/**
 * Waits until the schedule has taken the action of a nominal time at or after `until` (so the
 * fires due across the crashes have been caught up), pauses it, and checks that every due action
 * was taken exactly once: the started workflows' nominal times are whole seconds in one gapless
 * sequence from the first fire after the schedule's creation, without duplicates, with no
 * incidents, and the schedule's action counter agrees. Returns the number of actions.
 */
export async function checkEveryActionTakenOnce(client: Client, until: number, log: (line: string) => void): Promise<number> {
  const handle = client.schedule.getHandle(TICK_SCHEDULE_ID);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const latest = (await handle.describe()).info.recentActions.at(-1);
    if (latest && latest.scheduledAt.getTime() >= until) break;
    assert.ok(Date.now() < deadline, `no action at or after ${new Date(until).toISOString()} 20 s later; the latest was ${latest?.scheduledAt}`);
    await sleep(200);
  }
  await handle.pause('checked');
  const d = await handle.describe();
  assert.deepEqual(d.info.incidents, [], 'no action may be skipped, missed or failed');
  assert.equal(d.info.counters.skipped, 0);
  assert.equal(d.info.counters.missedCatchup, 0);
  assert.equal(d.info.counters.bufferOverruns, 0);

  const ids: string[] = [];
  const runIds = new Set<string>();
  const lateMs: number[] = [];
  for await (const w of client.workflow.list({ workflowIdPrefix: `${TICK_SCHEDULE_ID}-` })) {
    ids.push(w.workflowId);
    runIds.add(w.runId);
    lateMs.push(w.startTime.getTime() - Date.parse(w.workflowId.slice(TICK_SCHEDULE_ID.length + 1)));
  }
  ids.sort();
  assert.ok(ids.length >= 10, `only ${ids.length} actions`);
  assert.equal(new Set(ids).size, ids.length, `a workflow id started twice: ${ids.join(' ')}`);
  assert.equal(runIds.size, ids.length, 'two workflows share a run id');
  const times = ids.map((id) => Date.parse(id.slice(TICK_SCHEDULE_ID.length + 1)));
  for (const [i, t] of times.entries()) assert.equal(t % 1000, 0, `${ids[i]} is not at a whole second`);
  const created = Date.parse(d.info.createTime);
  assert.ok(times[0]! >= created - 1000 && times[0]! <= created + 1000, `the first action ${ids[0]} is not the first fire after creation at ${d.info.createTime}`);
  for (let i = 1; i < times.length; i++) assert.equal(times[i]! - times[i - 1]!, 1000, `an action between ${ids[i - 1]} and ${ids[i]} was lost`);
  assert.ok(times.at(-1)! >= until, `the last action ${ids.at(-1)} is before ${new Date(until).toISOString()}`);
  assert.equal(d.info.counters.actions, ids.length, 'the schedule counted a different number of actions than workflows started');
  // Starts late by more than a second are fires whose timer the killed server had claimed.
  const late = lateMs.filter((ms) => ms > 1000).length;
  log(`${ids.length} actions, one per second from ${ids[0]} to ${ids.at(-1)}; ${late} started over 1 s late (at most ${Math.max(...lateMs)} ms)`);
  return ids.length;
}
