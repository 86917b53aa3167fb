/**
 * Tests written the way Temporal's docs and samples write them, for Temporal's TypeScript SDK.
 * Only the import lines differ: `@temporalio/*` → `steadfast/*`, mocha → node:test, and
 * `createRequire` because this file is an ES module where Temporal's samples are CommonJS.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert';
import { createRequire } from 'node:module';
import { TestWorkflowEnvironment } from 'steadfast/testing';
import { Worker } from 'steadfast/worker';
import { ScheduleOverlapPolicy, WorkflowUpdateStage } from 'steadfast/client';
import * as activities from '../fixtures/workflows/temporal-style-activities.ts';
import {
  abandonsChild, activityTimesOut, counter, finish, getChargeCount, hourlyReport, incrementAndGet, parentWorkflow, selfReport,
  subscription, timeouts,
} from '../fixtures/workflows/temporal-style.ts';

const require = createRequire(import.meta.url);
const workflowsPath = require.resolve('../fixtures/workflows/temporal-style.ts');

describe('a Temporal test suite, run by steadfast', () => {
  let testEnv: TestWorkflowEnvironment;

  before(async () => {
    testEnv = await TestWorkflowEnvironment.createTimeSkipping();
  });

  after(async () => {
    await testEnv?.teardown();
  });

  async function makeWorker(taskQueue: string): Promise<Worker> {
    return Worker.create({ connection: testEnv.nativeConnection, taskQueue, workflowsPath, activities });
  }

  it('charges every hour as time is skipped', async () => {
    const { client } = testEnv;
    const worker = await makeWorker('subscriptions');
    await worker.runUntil(async () => {
      const handle = await client.workflow.start(subscription, { taskQueue: 'subscriptions', workflowId: 'subscription-1' });
      const start = await testEnv.currentTimeMs();
      assert.equal(await handle.query(getChargeCount), 0);
      await testEnv.sleep('2 hours');
      assert.equal(await handle.query(getChargeCount), 2);
      await testEnv.sleep('3 hours');
      assert.equal(await handle.query(getChargeCount), 5);
      assert.equal(await testEnv.currentTimeMs(), start + 5 * 60 * 60 * 1000);
      assert.equal(await handle.result(), 5);
    });
  });

  it('runs an hourly cron job once an hour', async () => {
    const { client } = testEnv;
    const worker = await makeWorker('reports');
    await worker.runUntil(async () => {
      const handle = await client.workflow.start(hourlyReport, { taskQueue: 'reports', workflowId: 'hourly-report', cronSchedule: '@hourly' });
      await testEnv.sleep('5 hours');
      const { count } = await client.workflow.count(`WorkflowId = 'hourly-report' AND ExecutionStatus != 'Running'`);
      assert.equal(count, 5);
      await handle.terminate();
    });
  });

  it('updates a counter with startUpdate and executeUpdate', async () => {
    const { client } = testEnv;
    const worker = await makeWorker('counters');
    const result = await worker.runUntil(async () => {
      const handle = await client.workflow.start(counter, { taskQueue: 'counters', workflowId: 'counter-1' });
      const updateHandle = await handle.startUpdate(incrementAndGet, { args: [2], waitForStage: WorkflowUpdateStage.ACCEPTED });
      assert.equal(await updateHandle.result(), 2);
      assert.equal(await handle.executeUpdate(incrementAndGet, { args: [3] }), 5);
      await handle.signal(finish);
      return handle.result();
    });
    assert.equal(result, 5);
  });

  it('waits on setTimeout in workflow code, a durable timer', async () => {
    const { client } = testEnv;
    const worker = await makeWorker('timeouts');
    const result = await worker.runUntil(client.workflow.execute(timeouts, { taskQueue: 'timeouts', workflowId: 'timeouts-1' }));
    assert.equal(result, 'after 30 seconds; the cleared one never fired');
    const history = await client.workflow.getHandle('timeouts-1').fetchHistory();
    await Worker.runReplayHistory({ workflowsPath }, history, 'timeouts-1');
  });

  it('reads workflowInfo() and activityInfo()', async () => {
    const { client } = testEnv;
    const worker = await makeWorker('info');
    const report = await worker.runUntil(client.workflow.execute(selfReport, { taskQueue: 'info', workflowId: 'info-1' }));
    assert.equal(report.workflowType, 'selfReport');
    assert.equal(report.startTimeIsADate, true);
    assert.equal(report.runStartedAfterStart, true);
    assert.ok((report.historyLength as number) >= 3);
    assert.ok((report.historySize as number) > 0);
    assert.equal(report.continueAsNewSuggested, false);
    assert.equal(report.isReplaying, false);
    assert.equal(report.greeting, 'Hello, Temporal! (from info-1)');
    for await (const workflow of client.workflow.list({ query: `WorkflowType = 'selfReport'` })) {
      assert.equal(workflow.type, 'selfReport');
      assert.ok(workflow.startTime instanceof Date);
      assert.ok(workflow.closeTime instanceof Date);
    }
  });

  it('leaves a child running under ParentClosePolicy ABANDON, and replays a parent that names its child after itself', async () => {
    const { client } = testEnv;
    const worker = await makeWorker('children');
    const childId = await worker.runUntil(client.workflow.execute(parentWorkflow, { taskQueue: 'children', workflowId: 'parent-1' }));
    assert.equal(childId, 'parent-1-child');
    const child = await client.workflow.getHandle(childId).describe();
    assert.equal(child.type, 'childWorkflow');
    const history = await client.workflow.getHandle('parent-1').fetchHistory();
    await Worker.runReplayHistory({ workflowsPath }, history, 'parent-1');
    for await (const result of Worker.runReplayHistories({ workflowsPath }, [{ workflowId: 'parent-1', history }])) {
      assert.equal(result.error, undefined);
    }
    await client.workflow.getHandle(childId).terminate();
  });

  it('abandons a cancelled child with ChildWorkflowCancellationType.ABANDON', async () => {
    const { client } = testEnv;
    const worker = await makeWorker('abandon');
    const result = await worker.runUntil(client.workflow.execute(abandonsChild, { taskQueue: 'abandon', workflowId: 'abandoner' }));
    assert.equal(result, 'cancelled');
    const { events } = await client.workflow.getHandle('abandoner-child').fetchHistory();
    assert.ok(!events.some((e) => e.eventType === 'WorkflowExecutionCancelRequested'));
    await client.workflow.getHandle('abandoner-child').terminate();
  });

  it('lets an activity read activityInfo() as its start-to-close timeout aborts it', async () => {
    const { client } = testEnv;
    const worker = await makeWorker('timeouts-activity');
    const result = await worker.runUntil(client.workflow.execute(activityTimesOut, { taskQueue: 'timeouts-activity', workflowId: 'slow-1' }));
    assert.match(result, /^timed out/);
    assert.deepEqual(activities.seenOnAbort, ['waitForCancellation of slow-1, attempt 1']);
  });

  it('creates and describes a schedule', async () => {
    const { client } = testEnv;
    const handle = await client.schedule.create({
      scheduleId: 'sample-schedule',
      spec: { intervals: [{ every: '1 hour' }] },
      action: { type: 'startWorkflow', workflowType: hourlyReport, taskQueue: 'reports', workflowId: 'scheduled-report' },
      policies: { overlap: ScheduleOverlapPolicy.BUFFER_ONE, catchupWindow: '1 day' },
    });
    await handle.trigger();
    const description = await handle.describe();
    assert.equal(description.policies.overlap, ScheduleOverlapPolicy.BUFFER_ONE);
    assert.equal(description.policies.catchupWindow, 24 * 60 * 60 * 1000);
    assert.deepEqual(description.spec.intervals, [{ every: 60 * 60 * 1000, offset: 0 }]);
    assert.ok(description.info.nextActionTimes[0] instanceof Date);
    assert.equal(description.info.recentActions.length, 1);
    assert.match(description.info.recentActions[0]!.action.workflow.workflowId, /^scheduled-report/);
    assert.equal(description.info.numActionsTaken, 1);
    await handle.delete();
  });
});
