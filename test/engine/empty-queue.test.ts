import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { ManualClock, systemClock, type Clock } from '../../src/retry/clock.ts';
import { T0 } from './helpers.ts';

test('a poll does not claim on a queue a claim found empty within a second; an announced task is taken, and after a second it claims again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-empty-queue-'));
  const store = SqliteStore.open(join(dir, 'e.db'));
  let claims = 0;
  const claimTasks = store.claimTasks.bind(store);
  store.claimTasks = (req, limit) => {
    claims++;
    return claimTasks(req, limit);
  };
  // Real time for the polls' waits, moved ahead at will for the one-second rule.
  let ahead = 0;
  const waitClock: Clock = { now: () => Date.now() + ahead, sleep: (ms, signal) => systemClock.sleep(ms, signal) };
  const engine = await Engine.create({ store, clock: new ManualClock(T0), waitClock, identity: 'e' });
  const poll = (ms: number) => engine.pollWorkflowTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: ms });
  try {
    assert.equal(await poll(20), null);
    assert.equal(claims, 1, 'the first poll claims and finds nothing');
    assert.equal(await poll(20), null);
    assert.equal(claims, 1, 'a poll right after waits without claiming');

    const waiting = poll(5000);
    await engine.startWorkflowExecution({ workflowId: 'wf', workflowType: 'order', taskQueue: 'q' });
    assert.equal((await waiting)?.workflowId, 'wf', 'a task made while it waits reaches it');

    // A task written while nobody polls (another server's, or one whose lease ended) is announced: the next poll claims it.
    await engine.startWorkflowExecution({ workflowId: 'wf2', workflowType: 'order', taskQueue: 'q' });
    const before = claims;
    assert.equal((await poll(1000))?.workflowId, 'wf2');
    assert.ok(claims > before, 'an announced task is claimed');

    assert.equal(await poll(20), null);
    const afterEmpty = claims;
    ahead += 1000;
    assert.equal(await poll(20), null);
    assert.equal(claims, afterEmpty + 1, 'a second later a poll claims again');
  } finally {
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
