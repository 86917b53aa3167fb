import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Waiters } from '../../src/engine/core/waiters.ts';

const tick = () => new Promise((r) => setImmediate(r));

test('a notification of n tasks wakes n waiting polls, longest waiting first, not all of them', async () => {
  const w = new Waiters();
  const woken: number[] = [];
  const waits = [0, 1, 2, 3].map((i) => w.watch('q').wait(60_000, []).then(() => woken.push(i)));
  w.notify('q', 2);
  await tick();
  assert.deepEqual(woken, [0, 1]);
  assert.equal(w.size, 2);
  w.notify('q');
  await Promise.all(waits);
  assert.deepEqual(woken, [0, 1, 2, 3]);
  assert.equal(w.size, 0);
});

test('a poll still checking the store is always marked, and an aborted waiter does not take a wake-up', async () => {
  const w = new Waiters();
  const gone = new AbortController();
  const checking = w.watch('q');
  const leaving = w.watch('q');
  let leavingDone = false;
  void leaving.wait(60_000, [gone.signal]).then(() => (leavingDone = true));
  const staying = w.watch('q');
  let stayingDone = false;
  const stayed = staying.wait(60_000, []).then(() => (stayingDone = true));
  gone.abort();
  w.notify('q', 1);
  await stayed;
  await tick();
  assert.equal(checking.notified, true, 'the check in progress looks again instead of sleeping');
  assert.equal(stayingDone, true);
  assert.equal(leavingDone, true);
  assert.equal(leaving.notified, false);
  await checking.wait(60_000, []);
  assert.equal(w.size, 0);
});
