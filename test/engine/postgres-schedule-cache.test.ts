import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { ServiceError } from '../../src/common/errors.ts';
import { type PostgresStore } from '../../src/store/index.ts';
import { StoreConflictError } from '../../src/store/errors.ts';
import type { ScheduleRecord } from '../../src/store/types.ts';
import { pgSkipReason } from '../store/pg-helpers.ts';
import type { Harness } from './helpers.ts';
import { twoServerTest } from './two-servers.ts';

const skip = await pgSkipReason('the PostgreSQL schedule row cache tests');

function create(h: Harness, scheduleId: string) {
  return h.engine.createSchedule({
    scheduleId, spec: { intervals: [{ every: '1h' }] }, action: { workflowType: 'order', taskQueue: 'q', workflowId: `from-${scheduleId}` },
  });
}

/**
 * Makes the store's next `cachedSchedule` of `scheduleId` answer `stale`, as it does between
 * another server's commit and the arrival of that server's NOTIFY; counts the reads after it.
 */
function staleOnce(store: PostgresStore, scheduleId: string, stale: ScheduleRecord): { reads: number } {
  const real = store.cachedSchedule.bind(store);
  const read = store.getSchedule.bind(store);
  const seen = { reads: 0 };
  let used = false;
  store.cachedSchedule = (namespace: string, id: string) => {
    if (id !== scheduleId || used) return real(namespace, id);
    used = true;
    return stale;
  };
  store.getSchedule = (namespace: string, id: string) => {
    if (id === scheduleId && used) seen.reads++;
    return read(namespace, id);
  };
  return seen;
}

twoServerTest('postgres schedule cache: a schedule row another server changed conflicts at commit and is read again; both changes kept', skip, 'sf_schedcache', async (h) => {
  const [storeA, storeB] = h.stores;
  await create(h.a, 'sc');
  const stale = storeA.cachedSchedule('default', 'sc');
  assert.equal(stale?.version, 1, 'the server that created the schedule holds its row');

  // B pauses the schedule; A's first attempt at a trigger decides on its stale row.
  await h.b.engine.patchSchedule({ scheduleId: 'sc', pause: 'paused by b' });
  assert.equal((await storeB.getSchedule('default', 'sc'))?.version, 2);
  const seen = staleOnce(storeA, 'sc', stale!);
  await h.a.engine.patchSchedule({ scheduleId: 'sc', trigger: {} });
  assert.equal(seen.reads, 1, 'the conflict made A read the stored row');

  const d = await h.b.engine.describeSchedule({ scheduleId: 'sc' });
  assert.equal(d.state.paused, true, "B's pause is kept");
  assert.equal(d.state.note, 'paused by b');
  assert.equal(d.info.counters.actions, 1, "A's trigger is kept");
  assert.equal(d.info.recentActions.length, 1);
  const started = await storeB.getLatestExecution('default', d.info.recentActions[0]!.workflowId);
  assert.equal(started?.status, 'Running', 'the triggered workflow was started once');
  assert.equal((await storeB.getSchedule('default', 'sc'))?.version, 3);
  assert.equal(storeA.cachedSchedule('default', 'sc')?.version, 3, 'A holds the row it committed');
});

twoServerTest('postgres schedule cache: a write on a row this server no longer holds at its version conflicts and drops the entry', skip, 'sf_schedcache', async (h) => {
  const [storeA] = h.stores;
  await create(h.a, 'sv');
  const v1 = storeA.cachedSchedule('default', 'sv')!;
  await h.a.engine.patchSchedule({ scheduleId: 'sv', pause: 'paused by a' });
  assert.equal(storeA.cachedSchedule('default', 'sv')?.version, 2);
  await assert.rejects(storeA.commit({ executions: [], schedules: [{ record: { ...v1, version: 2 }, expectedVersion: 1 }] }),
    (err: unknown) => err instanceof StoreConflictError && err.reason === 'scheduleVersion');
  assert.equal(storeA.cachedSchedule('default', 'sv'), undefined, 'a conflict drops the cached row');
  assert.equal((await storeA.getSchedule('default', 'sv'))?.version, 2);
});

twoServerTest("postgres schedule cache: another server's change reaches this server's cache by NOTIFY; a delete drops the entry", skip, 'sf_schedcache', async (h) => {
  const [storeA] = h.stores;
  await create(h.a, 'sn');
  assert.ok(storeA.cachedSchedule('default', 'sn'));
  await h.b.engine.patchSchedule({ scheduleId: 'sn', pause: 'paused by b' });
  for (let i = 0; i < 500 && storeA.cachedSchedule('default', 'sn'); i++) await delay(10);
  assert.equal(storeA.cachedSchedule('default', 'sn'), undefined, "B's NOTIFY dropped A's row");

  await create(h.a, 'sd');
  assert.ok(storeA.cachedSchedule('default', 'sd'));
  await h.a.engine.deleteSchedule({ scheduleId: 'sd' });
  assert.equal(storeA.cachedSchedule('default', 'sd'), undefined, 'a delete drops the entry');
});

twoServerTest('postgres schedule cache: a stale row of a schedule another server deleted conflicts; the retry finds it gone', skip, 'sf_schedcache', async (h) => {
  const [storeA, storeB] = h.stores;
  await create(h.a, 'sg');
  const stale = storeA.cachedSchedule('default', 'sg')!;
  await h.b.engine.deleteSchedule({ scheduleId: 'sg' });
  const seen = staleOnce(storeA, 'sg', stale);
  await assert.rejects(h.a.engine.patchSchedule({ scheduleId: 'sg', trigger: {} }), (err: unknown) => err instanceof ServiceError && err.code === 'NotFound');
  assert.equal(seen.reads, 1);
  assert.equal(await storeB.getLatestExecution('default', 'from-sg'), undefined, 'nothing was started from the stale row');
  assert.equal((await storeB.listExecutions({ namespace: 'default', workflowIdPrefix: 'from-sg', limit: 10 })).length, 0);
});
