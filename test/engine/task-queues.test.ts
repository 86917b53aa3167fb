import assert from 'node:assert/strict';
import { Engine } from '../../src/engine/index.ts';
import { describeTaskQueueResponseSchema, listTaskQueuesResponseSchema } from '../../src/protocol/schemas/task-queues.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { engineStores } from './stores.ts';
import { cmd, T0 } from './helpers.ts';
import { waitFor } from '../composition/helpers.ts';

const stores = await engineStores('task queue descriptions', 'sf_taskqueues');

for (const s of stores) {
  fixtureTest(`${s.name}: describeTaskQueue names the pollers, the backlog and its age, and schedule-to-start; list names the queues`, { skip: s.skip }, async (f) => {
    const store = await s.open(f);
    const h = await f.engine(store);
    const { engine } = h;
    await h.start('a');
    await h.start('b');
    await h.advance(30_000);
    // Nobody polled yet: two workflow tasks wait, the oldest for 30 s.
    const before = describeTaskQueueResponseSchema.parse(await engine.describeTaskQueue({ taskQueue: 'q' }));
    assert.deepEqual([before.workflow.backlogCount, before.workflow.backlogAgeMs, before.workflow.pollers, before.lastPollTime],
      [2, 30_000, [], undefined]);
    const d = await engine.describeWorkflowExecution({ workflowId: 'a' });
    assert.equal(d.taskQueueUnpolled?.message, 'no worker has polled task queue "q" in the last 5 min');

    const t = await h.pollWorkflow();
    await h.complete(t, [cmd.activity('x')]);
    const at = await engine.pollActivityTaskQueue({ taskQueue: 'q', identity: 'worker-2', pollTimeoutMs: 3000 });
    assert.ok(at);
    const now = describeTaskQueueResponseSchema.parse(await engine.describeTaskQueue({ taskQueue: 'q' }));
    assert.deepEqual(now.workflow.pollers.map((p) => p.identity), ['worker-1']);
    assert.deepEqual(now.activity.pollers.map((p) => [p.identity, p.lastAccessTime]), [['worker-2', new Date(T0 + 30_000).toISOString()]]);
    assert.ok(now.workflow.pollers[0]!.ratePerSecond > 0);
    assert.deepEqual([now.workflow.backlogCount, now.activity.backlogCount], [1, 0]);
    assert.deepEqual(now.workflow.scheduleToStart, { p50: 30_000, p99: 30_000, samples: 1 });
    assert.deepEqual(now.activity.scheduleToStart, { p50: 0, p99: 0, samples: 1 });
    assert.equal(now.lastPollTime, new Date(T0 + 30_000).toISOString());
    assert.equal((await engine.describeWorkflowExecution({ workflowId: 'a' })).taskQueueUnpolled, undefined);

    // Two minutes without a poll: the run says so.
    await h.advance(120_000);
    assert.equal((await engine.describeWorkflowExecution({ workflowId: 'b' })).taskQueueUnpolled?.message,
      'no worker has polled task queue "q" for 2 min');

    await h.start('c', { taskQueue: 'other' });
    const list = listTaskQueuesResponseSchema.parse(await engine.listTaskQueues({}));
    assert.deepEqual(list.taskQueues.map((q) => [q.name, q.pollerCount]), [['other', 0], ['q', 2]]);

    await assert.rejects(engine.describeTaskQueue({ taskQueue: '' }), (e: unknown) => e instanceof ValidationError && /taskQueue/.test(e.message));
    await assert.rejects(engine.listTaskQueues({ pageSize: 0 }), (e: unknown) => e instanceof ValidationError && /pageSize/.test(e.message));

    // Another engine on the same store (a restarted server) still knows the pollers, once their rows are written.
    await waitFor('the poller rows', async () => (await h.store.taskQueues.pollers('default', 'q', 0)).length === 2);
    const again = await Engine.create({ store: h.store, clock: h.clock, identity: 'restarted' });
    try {
      const after = await again.describeTaskQueue({ taskQueue: 'q' });
      assert.deepEqual([after.workflow.pollers.map((p) => p.identity), after.activity.pollers.map((p) => p.identity)], [['worker-1'], ['worker-2']]);
    } finally {
      await again.shutdown();
    }
  });

  fixtureTest(`${s.name}: maxTasksPerSecond limits the activity tasks handed out on a queue, across its pollers`, { skip: s.skip }, async (f) => {
    const h = await f.engine(await s.open(f));
    const { engine } = h;
    await h.start('r');
    await h.complete(await h.pollWorkflow(), [cmd.activity('a1'), cmd.activity('a2'), cmd.activity('a3')]);
    const poll = (identity: string) => engine.pollActivityTaskQueue({ taskQueue: 'q', identity, pollTimeoutMs: 5000, maxTasksPerSecond: 2 });
    const started = performance.now();
    const got = await Promise.all([poll('w1'), poll('w2'), poll('w3')]);
    const elapsed = performance.now() - started;
    assert.equal(got.filter((t) => t !== null).length, 3);
    // A bucket of 2 tokens refilled at 2 a second: the third task waits about half a second.
    assert.ok(elapsed >= 400, `three tasks at 2 a second took only ${elapsed.toFixed(0)} ms`);
    await assert.rejects(engine.pollActivityTaskQueue({ taskQueue: 'q', identity: 'w', maxTasksPerSecond: 0 }), /maxTasksPerSecond must be greater than 0/);
  });
}
