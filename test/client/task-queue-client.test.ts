import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../src/client/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import type { TestEnvironment } from '../../src/testing/index.ts';
import { backends, waitFor } from '../composition/helpers.ts';

for (const backend of backends('task_queue_client')) {
  describe(`client.taskQueue on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    let env: TestEnvironment;
    before(async () => {
      if (!skip) env = await backend.env();
    });
    after(async () => {
      await env?.teardown();
      await backend.cleanup();
    });

    test('describe and list show a queue with a backlog and no poller; result() says nobody polls it', { skip }, async () => {
      const said: string[] = [];
      const c = new Client({ connection: env.connection, logger: { warn: (m) => said.push(m) } });
      const handle = await c.workflow.start('neverRuns', { taskQueue: 'nobody-polls', workflowId: 'wf-unpolled' });
      const d = await c.taskQueue.describe('nobody-polls');
      assert.deepEqual([d.taskQueue, d.workflow.backlogCount, d.workflow.pollers, d.activity.backlogCount], ['nobody-polls', 1, [], 0]);
      assert.ok((await c.taskQueue.list()).some((q) => q.name === 'nobody-polls' && q.pollerCount === 0));
      assert.equal((await handle.describe()).raw.taskQueueUnpolled?.message, 'no worker has polled task queue "nobody-polls" in the last 5 min');

      const waiting = c.withDeadline(Date.now() + 10_000, () => handle.result()).then(() => undefined, (e: unknown) => e);
      await waitFor('result() to say why it waits', async () => said.length > 0);
      assert.match(said[0]!, /is still waiting: no worker has polled task queue "nobody-polls" in the last 5 min/);
      await handle.terminate('done');
      await waiting;
      assert.throws(() => c.taskQueue.describe(''), ValidationError);
      await assert.rejects(c.taskQueue.list({ pageSize: 0 }), /pageSize/);
      await assert.rejects(c.taskQueue.list({ size: 1 } as never), /size/);
    });
  });
}
