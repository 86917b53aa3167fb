import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '../../src/common/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import * as orderActivities from '../../examples/orders/activities.ts';
import { order } from '../../examples/orders/workflows.ts';
import * as fileActivities from '../../examples/file-processing/activities.ts';
import { fileProcessing } from '../../examples/file-processing/workflows.ts';

const path = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

function activityStarted(events: HistoryEvent[]) {
  const e = events.find((x) => x.eventType === 'ActivityTaskStarted');
  assert.ok(e && e.eventType === 'ActivityTaskStarted');
  return e.attributes;
}

describe('examples/orders', () => {
  let env: TestEnvironment;
  before(async () => {
    env = await TestEnvironment.createTimeSkipping();
  });
  after(() => env.teardown());

  test('the payment fails twice and succeeds on the third attempt, 1 s then 2 s apart', async () => {
    const worker = await Worker.create({
      address: env.address, taskQueue: 'orders', workflowsPath: path('../../examples/orders/workflows.ts'), activities: orderActivities,
    });
    const handle = await env.client.workflow.start(order, { taskQueue: 'orders', workflowId: 'order-o-1', args: ['o-1', 4200] });
    const result = await worker.runUntil(handle.result());
    assert.equal(result, 'charge-o-1-4200');
    const { events } = await handle.fetchHistory();
    const started = activityStarted(events);
    assert.equal(started.attempt, 3);
    assert.equal(started.lastFailure?.type, 'GatewayTimeout');
    const scheduled = events.find((e) => e.eventType === 'ActivityTaskScheduled')!;
    const completed = events.find((e) => e.eventType === 'ActivityTaskCompleted')!;
    // Two retries at 1 s and 2 s of backoff: at least 3 s of workflow time between schedule and completion.
    assert.ok(Date.parse(completed.eventTime) - Date.parse(scheduled.eventTime) >= 3_000);
  });

  test('a declined card is not retried', async () => {
    const worker = await Worker.create({
      address: env.address, taskQueue: 'orders-declined', workflowsPath: path('../../examples/orders/workflows.ts'), activities: orderActivities,
    });
    const handle = await env.client.workflow.start(order, { taskQueue: 'orders-declined', workflowId: 'order-declined-1', args: ['declined-1', 100] });
    await assert.rejects(worker.runUntil(handle.result()), (err: unknown) => {
      assert.ok(err instanceof WorkflowFailedError);
      const activity = err.cause as ActivityFailure;
      assert.ok(activity instanceof ActivityFailure, `cause is ${String(err.cause)}`);
      assert.ok(activity.cause instanceof ApplicationFailure);
      assert.equal(activity.cause.type, 'CardDeclined');
      return true;
    });
    const { events } = await handle.fetchHistory();
    assert.equal(activityStarted(events).attempt, 1);
    const failed = events.find((e) => e.eventType === 'ActivityTaskFailed');
    assert.ok(failed && failed.eventType === 'ActivityTaskFailed');
    assert.equal(failed.attributes.retryState, 'NonRetryableFailure');
  });
});

describe('examples/file-processing', () => {
  test('the second attempt resumes from the first attempt\'s last heartbeat', async () => {
    const env = await TestEnvironment.createTimeSkipping();
    try {
      const worker = await Worker.create({
        address: env.address, taskQueue: 'files', workflowsPath: path('../../examples/file-processing/workflows.ts'), activities: fileActivities,
      });
      const processed = await worker.runUntil(env.client.workflow.execute(fileProcessing, { taskQueue: 'files', args: ['report.csv'] }));
      assert.deepEqual(fileActivities.processedByAttempt.get(1), [0, 1, 2, 3, 4, 5]);
      assert.deepEqual(fileActivities.processedByAttempt.get(2), [6, 7, 8, 9]);
      assert.equal(processed, 4);
    } finally {
      await env.teardown();
    }
  });
});
