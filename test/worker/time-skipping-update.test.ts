import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Worker } from '../../src/worker/index.ts';
import { approve } from '../fixtures/workflows/slow-update.ts';
import { fixtureTest } from '../helpers/fixture.ts';

fixtureTest('time skips while a test awaits an update whose handler sleeps an hour', { timeout: 30_000 }, async (f) => {
  const env = await f.env();
  const worker = await Worker.create({
    address: env.address, taskQueue: 'slow-update', activities: {},
    workflowsPath: fileURLToPath(new URL('../fixtures/workflows/slow-update.ts', import.meta.url)),
  });
  const handle = await env.client.workflow.start('approval', { taskQueue: 'slow-update', workflowId: 'approval-1' });
  const before = env.now();
  const answer = await worker.runUntil(async () => {
    const reply = await handle.executeUpdate(approve, { args: ['ada'] });
    assert.equal(await handle.result(), 'ada');
    return reply;
  });
  assert.equal(answer, 'approved by ada');
  assert.ok(env.now() - before >= 3_600_000, 'an hour of workflow time passed');
});
