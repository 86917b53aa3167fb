import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../src/engine/index.ts';
import { PostgresStore } from '../../src/store/index.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import type { WorkflowTask } from '../../src/protocol/index.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { assertContiguous, cmd, T0 } from './helpers.ts';

const skip = await pgSkipReason('the two-engines-on-PostgreSQL test');
const schema = freshSchema('sf_multi');
after(async () => {
  if (!skip) await dropSchema(schema);
});

/** Polls both engines with two pollers each until `n` workflow tasks were handed out in all. */
async function drain(engines: Engine[], n: number): Promise<{ task: WorkflowTask; by: number }[]> {
  const got: { task: WorkflowTask; by: number }[] = [];
  const deadline = Date.now() + 15_000;
  await Promise.all(engines.flatMap((e, by) => [0, 1].map(async () => {
    while (got.length < n && Date.now() < deadline) {
      const task = await e.pollWorkflowTaskQueue({ taskQueue: 'multi', identity: `poller-${by}`, pollTimeoutMs: 300 });
      if (task) got.push({ task, by });
    }
  })));
  return got;
}

test('two engines on one PostgreSQL: each task is handed out once, each timer fires once', { skip }, async () => {
  const clock = new ManualClock(T0);
  const stores = [await PostgresStore.open(PG_URL, { schema }), await PostgresStore.open(PG_URL, { schema })];
  const engines = await Promise.all(stores.map((store, i) => Engine.create({ store, clock, identity: `server-${i}` })));
  try {
    const N = 16;
    const first = drain(engines, N);
    for (let i = 0; i < N; i++) {
      await engines[i % 2]!.startWorkflowExecution({ workflowId: `multi-${i}`, workflowType: 'order', taskQueue: 'multi' });
    }
    const tasks = await first;
    assert.equal(tasks.length, N);
    assert.equal(new Set(tasks.map((t) => t.task.runId)).size, N, 'no workflow task was handed out twice');
    assert.ok(tasks.some((t) => t.by === 0) && tasks.some((t) => t.by === 1), 'both servers handed out work');
    await Promise.all(tasks.map(({ task }, i) => engines[i % 2]!.respondWorkflowTaskCompleted({
      taskToken: task.taskToken, identity: 'w', commands: [cmd.timer('t', 1000)],
    })));
    const second = drain(engines, N);
    await clock.advance(1000);
    const fired = await second;
    assert.equal(fired.length, N);
    assert.equal(new Set(fired.map((t) => t.task.runId)).size, N);
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; i < N; i++) {
      const events = (await engines[0]!.getWorkflowExecutionHistory({ workflowId: `multi-${i}` })).events;
      assertContiguous(events);
      assert.equal(events.filter((e) => e.eventType === 'TimerFired').length, 1, `multi-${i}: the timer fired once`);
    }
    assert.equal(await stores[0]!.nextWakeTime(clock.now()), T0 + 1000 + 10_000, 'only the workflow task timeouts remain');
  } finally {
    await Promise.all(engines.map((e) => e.shutdown()));
    await Promise.all(stores.map((s) => s.close()));
  }
});
