import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setup } from './helpers.ts';
import { PollerStops } from '../../src/engine/tasks/poller-stops.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const POLLS = 100_000;
const WAVE = 1_000;
const MB = 1024 * 1024;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Regression: each distinct poll identity left an AbortController behind for good (about
 * 1.2 KB a key; 100,000 identities kept ~116 MB). Polls go through the engine's own entry
 * points, so they take the same bookkeeping an HTTP poll does: stop registration, waiters,
 * hand-off offers, and the caller's abort signal. Each also polls a task queue of its own, so
 * per-queue tables are exercised too (regression: the engine's table of when each queue was last
 * polled kept one entry per queue for good, ~15 MB for 100,000 queues).
 */
test('100,000 polls with distinct identities and task queues leave the heap within 10 MB of where it started', async () => {
  const h = await setup();
  const { engine } = h;
  try {
    const wave = async (from: number, kind: 'workflow' | 'activity' | 'query') => {
      const caller = new AbortController();
      // One signal for the whole wave, as a batch request's polls share one.
      setMaxListeners(0, caller.signal);
      const polls: Promise<unknown>[] = [];
      for (let i = from; i < from + WAVE; i++) {
        const req = { taskQueue: `mem-q-${i}`, identity: `worker-${i}`, workerInstanceId: `instance-${i}`, pollTimeoutMs: 60_000 };
        const opts = { signal: caller.signal };
        polls.push(kind === 'workflow' ? engine.pollWorkflowTaskQueue(req, opts)
          : kind === 'activity' ? engine.pollActivityTaskQueue(req, opts) : engine.pollQueryTaskQueue(req, opts));
      }
      // Let every poll reach its wait (claim found nothing), then end them as a client leaving would.
      await new Promise((r) => setTimeout(r, 5));
      caller.abort();
      const answers = await Promise.all(polls);
      assert.ok(answers.every((a) => a === null));
    };
    const kinds = ['activity', 'workflow', 'query'] as const;
    for (let i = 0; i < 3 * WAVE; i += WAVE) await wave(-i - WAVE, kinds[(i / WAVE) % 3]!);
    const before = heapAfterGc();
    for (let i = 0; i < POLLS; i += WAVE) await wave(i, kinds[(i / WAVE) % 3]!);
    const after = heapAfterGc();
    assert.ok(after - before < 10 * MB, `heap grew by ${((after - before) / MB).toFixed(1)} MB over ${POLLS} polls`);
  } finally {
    await h.close();
  }
});

test('100,000 stopped workers with distinct identities leave the heap within 10 MB of where it started', async () => {
  const h = await setup();
  const { engine } = h;
  try {
    const stop = async (from: number, count: number) => {
      const calls: Promise<void>[] = [];
      for (let i = from; i < from + count; i++) calls.push(engine.shutdownWorker({ taskQueue: 'mem-q', identity: `stopped-${i}` }));
      await Promise.all(calls);
    };
    await stop(-WAVE, WAVE);
    const before = heapAfterGc();
    for (let i = 0; i < POLLS; i += WAVE) await stop(i, WAVE);
    const after = heapAfterGc();
    assert.ok(after - before < 10 * MB, `heap grew by ${((after - before) / MB).toFixed(1)} MB over ${POLLS} stopped workers`);
    // The newest stopped worker is still refused at once; the memory cap forgot only the oldest.
    assert.equal(await engine.pollActivityTaskQueue({ taskQueue: 'mem-q', identity: `stopped-${POLLS - 1}`, pollTimeoutMs: 60_000 }), null);
  } finally {
    await h.close();
  }
});

test('a worker key is known only while one of its polls is open; stopped keys are capped, oldest forgotten first', () => {
  const stops = new PollerStops();
  const caller = new AbortController();
  const a = stops.enter('a', caller.signal)!;
  const b = stops.enter('a', undefined)!;
  assert.deepEqual(stops.size, { open: 1, stopped: 0 });
  a.release();
  a.release();
  assert.deepEqual(stops.size, { open: 1, stopped: 0 }, 'a second release changes nothing');
  caller.abort();
  assert.equal(a.signal.aborted, false, 'a released poll no longer listens to its caller');
  stops.stop('a');
  assert.equal(b.signal.aborted, true, 'stop ends the open polls');
  b.release();
  assert.deepEqual(stops.size, { open: 0, stopped: 1 });
  assert.equal(stops.enter('a', undefined), undefined, 'a late poll of a stopped key is answered at once');
  for (let i = 0; i < PollerStops.MAX_STOPPED + 5; i++) stops.stop(`k-${i}`);
  assert.deepEqual(stops.size, { open: 0, stopped: PollerStops.MAX_STOPPED });
  assert.equal(stops.isStopped('a'), false, 'the oldest stopped key was forgotten');
  assert.equal(stops.isStopped(`k-${PollerStops.MAX_STOPPED + 4}`), true);
});
