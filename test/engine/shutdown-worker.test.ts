import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TestEnvironment } from '../../src/testing/index.ts';

test('shutdownWorker ends that worker instance\'s open polls at once and refuses its late ones; others keep polling', async () => {
  const env = await TestEnvironment.createLocal();
  const engine = env.connection;
  try {
    const base = { taskQueue: 'stop-q', identity: 'same-process' };
    const stopping = engine.pollWorkflowTaskQueue({ ...base, workerInstanceId: 'a', pollTimeoutMs: 20_000 });
    const staying = engine.pollWorkflowTaskQueue({ ...base, workerInstanceId: 'b', pollTimeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 20));
    await engine.shutdownWorker!({ ...base, workerInstanceId: 'a' });
    assert.equal(await stopping, null);
    assert.equal(await engine.pollActivityTaskQueue({ ...base, workerInstanceId: 'a', pollTimeoutMs: 20_000 }), null, 'a late poll is answered at once');
    await env.client.workflow.start('x', { taskQueue: 'stop-q', workflowId: 'stop-1' });
    const task = await staying;
    assert.ok(task, 'the other instance still gets tasks');
    assert.equal(task.workflowId, 'stop-1');
    await assert.rejects(engine.shutdownWorker!({ taskQueue: '', identity: 'x' }), /taskQueue must be a non-empty string/);
  } finally {
    await env.teardown();
  }
});
