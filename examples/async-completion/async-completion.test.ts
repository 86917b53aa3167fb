import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Client } from 'steadfast/client';
import { TestEnvironment } from 'steadfast/testing';
import { Worker } from 'steadfast/worker';
import * as activities from './activities.ts';
import { expense } from './workflows.ts';

test('an expense waits for a person, whose answer completes the activity from outside the worker', async () => {
  const env = await TestEnvironment.createTimeSkipping();
  try {
    const worker = await Worker.create({
      address: env.address,
      taskQueue: 'expenses',
      workflowsPath: new URL('./workflows.ts', import.meta.url).pathname,
      activities,
    });
    const requested = once(activities.approvalRequests, 'request');
    const handle = await env.client.workflow.start(expense, { taskQueue: 'expenses', workflowId: 'expense-42', args: ['42'] });
    const result = await worker.runUntil(async () => {
      const [, taskToken] = await requested;
      // The approver's click, in another process: any client with the token completes the activity.
      const approvals = new Client({ address: env.address });
      await approvals.activity.complete(taskToken, 'approved');
      approvals.close();
      return handle.result();
    });
    assert.equal(result, 'expense 42: approved');
  } finally {
    await env.teardown();
  }
});
