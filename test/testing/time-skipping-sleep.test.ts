import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { fixtureTest } from '../helpers/fixture.ts';
import { silentLogger } from '../helpers/logger.ts';
import { sleptHours } from '../fixtures/workflows/time-skipping-sleep.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/time-skipping-sleep.ts', import.meta.url));
const HOUR = 3_600_000;

// env.sleep jumped the clock over every timer at once: the loop's first timer fired, but its
// worker never ran the workflow task that would start the second, so five hours counted one.
fixtureTest('env.sleep(5 hours) lets a workflow that sleeps an hour five times count to 5, and ends at exactly start + 5 hours', { timeout: 60_000 }, async (f) => {
  const env = await f.env();
  await f.worker({ address: env.address, taskQueue: 'loop', workflowsPath, logger: silentLogger });
  const handle = await env.client.workflow.start('hourlyLoop', { taskQueue: 'loop', workflowId: 'loop-1' });
  const start = await env.currentTimeMs();
  await env.sleep('5 hours');
  assert.equal(await env.currentTimeMs(), start + 5 * HOUR, 'the clock ends exactly 5 hours on');
  assert.equal(env.now(), start + 5 * HOUR);
  assert.equal(await handle.query(sleptHours), 5);
  assert.equal(await handle.result(), 5);
});

fixtureTest('env.sleep(5 hours) runs an hourly cron job started before it five times', { timeout: 60_000 }, async (f) => {
  const env = await f.env();
  await f.worker({ address: env.address, taskQueue: 'cron', workflowsPath, logger: silentLogger });
  const handle = await env.client.workflow.start('hourlyTick', { taskQueue: 'cron', workflowId: 'cron-1', cronSchedule: '@hourly' });
  const start = await env.currentTimeMs();
  await env.sleep('5 hours');
  assert.equal(await env.currentTimeMs(), start + 5 * HOUR);
  const closed = [];
  for await (const run of env.client.workflow.list({ query: "WorkflowId = 'cron-1'" })) if (run.status !== 'Running') closed.push(run);
  assert.equal(closed.length, 5, 'five runs closed, each followed by the next fire');
  await handle.terminate('checked');
});

fixtureTest('env.sleep waits out timers that fire after workflow tasks, then stops where it was told', { timeout: 60_000 }, async (f) => {
  const env = await f.env();
  await f.worker({ address: env.address, taskQueue: 'part', workflowsPath, logger: silentLogger });
  const handle = await env.client.workflow.start('hourlyLoop', { taskQueue: 'part', workflowId: 'part-1' });
  const start = await env.currentTimeMs();
  await env.sleep('150 minutes');
  assert.equal(await env.currentTimeMs(), start + 150 * 60_000);
  assert.equal(await handle.query(sleptHours), 2);
  await env.sleep('30 minutes');
  assert.equal(await handle.query(sleptHours), 3);
  assert.equal((await handle.describe()).status, 'Running');
});
