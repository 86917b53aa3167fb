import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { fixtureTest } from '../helpers/fixture.ts';
import { silentLogger } from '../helpers/logger.ts';
import { Worker } from '../../src/worker/index.ts';
import { activityInfo } from '../../src/activity/index.ts';

fixtureTest('a workflow that sleeps 30 days and retries hourly finishes at once under time skipping', async (f, t) => {
  const env = await f.env();
  const activities = {
    async flaky(): Promise<string> {
      if (activityInfo().attempt < 4) throw new Error(`attempt ${activityInfo().attempt} failed`);
      return 'done';
    },
  };
  const worker = await Worker.create({
    address: env.address, taskQueue: 'long', activities, logger: silentLogger,
    workflowsPath: fileURLToPath(new URL('../fixtures/workflows/long-sleep.ts', import.meta.url)),
  });
  const startClock = env.now();
  const wall = performance.now();
  const result = await worker.runUntil(env.client.workflow.execute('monthLong', { taskQueue: 'long' }));
  const wallMs = performance.now() - wall;
  assert.equal(result, 'done');
  const skipped = env.now() - startClock;
  assert.ok(skipped >= 30 * 86_400_000 + 3 * 3_600_000, `clock moved ${skipped} ms`);
  t.diagnostic(`30 days + 3 hourly retries of workflow time took ${wallMs.toFixed(0)} ms of wall time`);
});

fixtureTest('an activity waiting on a queue nobody polls does not stall time: it skips to the workflow\'s next timer', async (f) => {
  const env = await f.env();
  const worker = await Worker.create({
    address: env.address, taskQueue: 'unpolled-race', activities: {}, logger: silentLogger,
    workflowsPath: fileURLToPath(new URL('../fixtures/workflows/long-sleep.ts', import.meta.url)),
  });
  const startClock = env.now();
  const result = await worker.runUntil(env.client.workflow.execute('sleepBesideUnpolledActivity', { taskQueue: 'unpolled-race' }));
  assert.equal(result, 'slept a day');
  assert.ok(env.now() - startClock >= 86_400_000, `clock moved ${env.now() - startClock} ms`);
});
