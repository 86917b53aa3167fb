import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/cli.ts', import.meta.url));

test('followHistory lets time skip in the time-skipping environment, as result() does: a day-long sleep is followed to its close', { timeout: 60_000 }, async () => {
  const env = await TestEnvironment.createTimeSkipping();
  try {
    const worker = await Worker.create({ address: env.address, taskQueue: 'naps', workflowsPath });
    const handle = await env.client.workflow.start('napsADay', { taskQueue: 'naps', workflowId: 'nap-1' });
    const types = await worker.runUntil((async () => {
      const seen: string[] = [];
      for await (const e of handle.followHistory()) seen.push(e.eventType);
      return seen;
    })());
    assert.equal(types.filter((t) => t === 'TimerFired').length, 1);
    assert.equal(types.at(-1), 'WorkflowExecutionCompleted');
    assert.equal(await handle.result(), 'rested');
  } finally {
    await env.teardown();
  }
});
