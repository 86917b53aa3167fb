import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TestEnvironment } from 'steadfast/testing';
import { Worker } from 'steadfast/worker';
import * as activities from './activities.ts';
import { order } from './workflows.ts';

test('an order is paid after two failed attempts, in milliseconds of wall time', async () => {
  const env = await TestEnvironment.createTimeSkipping();
  try {
    const worker = await Worker.create({
      address: env.address,
      taskQueue: 'orders-test',
      workflowsPath: new URL('./workflows.ts', import.meta.url).pathname,
      activities,
    });
    const result = await worker.runUntil(
      env.client.workflow.execute(order, { taskQueue: 'orders-test', args: ['o-7', 990] }),
    );
    assert.equal(result, 'charge-o-7-990');
  } finally {
    await env.teardown();
  }
});
