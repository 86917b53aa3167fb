import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { TimerLoop } from '../../src/engine/core/timer-loop.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import type { ClaimTimersRequest, Store, TimerRecord } from '../../src/store/types.ts';

/** A store holding `count` due timers, claimed in order; only what the timer loop calls. */
function dueTimers(count: number) {
  const timers: TimerRecord[] = Array.from({ length: count }, (_, i) => ({
    id: `t${String(i).padStart(4, '0')}`, namespace: 'default', runId: `r${i}`, kind: 'UserTimer', dueAt: 0, data: {},
  }) as TimerRecord);
  let next = 0;
  const claims: number[] = [];
  const store = {
    async claimDueTimers(req: ClaimTimersRequest) {
      const got = timers.slice(next, next + req.limit);
      next += got.length;
      claims.push(got.length);
      return got;
    },
    async readyQueues() {
      return [];
    },
    async nextWakeTime() {
      return undefined;
    },
  } as unknown as Store;
  return { store, claims };
}

/** A fire function whose calls wait until the test releases them. */
function gatedFire() {
  const waiting: { id: string; release: (err?: Error) => void }[] = [];
  const fired: string[] = [];
  const fire = (t: TimerRecord) => new Promise<void>((resolve, reject) => {
    waiting.push({ id: t.id, release: (err) => (err ? reject(err) : (fired.push(t.id), resolve())) });
  });
  /** Settles the `n` oldest waiting calls (a rejection with `err`). */
  const release = (n: number, err?: Error) => {
    for (const w of waiting.splice(0, n)) w.release(err);
  };
  /** Settles the `n` newest waiting calls. */
  const releaseLast = (n: number) => {
    for (const w of waiting.splice(waiting.length - n, n)) w.release();
  };
  return { fire, waiting, fired, release, releaseLast };
}

async function until(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !cond(); i++) await tick();
  assert.ok(cond(), what);
}

/** A started loop over `count` due timers whose fires wait for the test to release them. */
function startedLoop(count: number) {
  const { store, claims } = dueTimers(count);
  const g = gatedFire();
  const errors: unknown[] = [];
  const loop = new TimerLoop(store, new ManualClock(1000), 'owner', g.fire, () => {}, (err) => errors.push(err));
  loop.start();
  return { claims, g, errors, loop };
}

test('timer loop: the next round is claimed while the previous one fires, two rounds at most, and the pass ends when every round has', async () => {
  const { claims, g, errors, loop } = startedLoop(250);
  try {
    await until('two rounds claimed', () => claims.length === 2);
    for (let i = 0; i < 20; i++) await tick();
    assert.deepEqual(claims, [100, 100], 'no third round is claimed while the first fires');
    assert.equal(g.waiting.length, 200, 'both claimed rounds fire at once');
    g.release(100);
    await until('the third round claimed', () => claims.length === 3);
    assert.deepEqual(claims, [100, 100, 50]);
    assert.equal(loop.busy, true, 'the pass waits for the rounds still firing');
    g.release(150);
    await until('the pass ended', () => !loop.busy);
    assert.equal(g.fired.length, 250);
    assert.equal(new Set(g.fired).size, 250, 'every timer fired once');
    assert.deepEqual(errors, []);
  } finally {
    g.release(g.waiting.length);
    await loop.stop();
  }
});

test('timer loop: a failed fire is reported once every timer of the pass has settled', async () => {
  const { claims, g, errors, loop } = startedLoop(150);
  try {
    await until('both rounds claimed', () => claims.length === 2 && g.waiting.length === 150);
    g.release(1, new Error('boom'));
    g.releaseLast(50);
    for (let i = 0; i < 20; i++) await tick();
    assert.deepEqual(errors, [], 'not reported while the rest of the failed round fires');
    assert.equal(loop.busy, true);
    g.release(99);
    await until('the failure reported', () => errors.length === 1);
    assert.match(String(errors[0]), /boom/);
    assert.equal(g.fired.length, 149);
  } finally {
    g.release(g.waiting.length);
    await loop.stop();
  }
});
