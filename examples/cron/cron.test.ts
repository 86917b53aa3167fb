import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TestEnvironment } from 'steadfast/testing';
import { Worker } from 'steadfast/worker';
import { dailyReport } from './workflows.ts';

test('a cron job runs at 08:00 in Paris every day, each run seeing the last result', async () => {
  const env = await TestEnvironment.createTimeSkipping();
  try {
    const worker = await Worker.create({
      address: env.address,
      taskQueue: 'reports',
      workflowsPath: new URL('./workflows.ts', import.meta.url).pathname,
    });
    const handle = await env.client.workflow.start(dailyReport, {
      taskQueue: 'reports',
      workflowId: 'daily-report-ops',
      args: ['ops'],
      cronSchedule: 'CRON_TZ=Europe/Paris 0 8 * * *',
      workflowExecutionTimeout: '3 days', // the chain ends after three runs
    });
    const last = await worker.runUntil(handle.result());
    assert.equal(last.number, 3);
    const paris = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', timeStyle: 'short' });
    assert.equal(paris.format(new Date(last.at)), '08:00');
  } finally {
    await env.teardown();
  }
});
