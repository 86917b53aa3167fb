import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { assertContiguous, cmd, Harness, setup, T0 } from './helpers.ts';
import { ManualClock } from '../../src/retry/clock.ts';

test('a restarted engine on the same file keeps timers, timeouts and tasks (nothing lives only in memory)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-restart-'));
  const path = join(dir, 'restart.db');
  const clock = new ManualClock(T0);
  try {
    let store = SqliteStore.open(path);
    let h = new Harness(await Engine.create({ store, clock }), store, clock, true);
    await h.start('restart', { workflowTaskTimeoutMs: 5000 });
    await h.complete(await h.pollWorkflow(), [cmd.timer('t', 3000), cmd.activity('a1', { startToCloseTimeoutMs: 4000 })]);
    await h.pollActivity();
    await h.close();

    store = SqliteStore.open(path);
    h = new Harness(await Engine.create({ store, clock }), store, clock, true);
    const wt = h.pollWorkflow();
    await h.advance(3000);
    const task = await wt;
    assert.deepEqual(task.history.map((e) => e.eventType).slice(-3), ['TimerFired', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
    const act = h.pollActivity();
    await h.advance(1000);
    await h.noActivity();
    await h.advance(1000);
    assert.equal((await act).attempt, 2, 'the start-to-close timeout of the lost attempt fired after the restart, then the retry');
    await h.complete(task, [cmd.complete('ok')]);
    assertContiguous(await h.history('restart'));
    await h.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('many activities completing at once: every result lands, ids stay contiguous', async () => {
  const h = await setup();
  try {
    await h.start('fan-out');
    const n = 25;
    await h.complete(await h.pollWorkflow(), Array.from({ length: n }, (_, i) => cmd.activity(`a${i}`)));
    const tasks = await Promise.all(Array.from({ length: n }, () => h.pollActivity()));
    assert.equal(new Set(tasks.map((t) => t.activityId)).size, n);
    const wt = h.pollWorkflow();
    await Promise.all(tasks.map((t) => h.engine.respondActivityTaskCompleted({ taskToken: t.taskToken, result: t.activityId, identity: 'w' })));
    await h.complete(await wt, []);
    const events = await h.history('fan-out');
    assertContiguous(events);
    assert.equal(events.filter((e) => e.eventType === 'ActivityTaskCompleted').length, n);
    assert.equal(events.filter((e) => e.eventType === 'ActivityTaskStarted').length, n);
  } finally {
    await h.close();
  }
});
