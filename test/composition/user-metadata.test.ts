/**
 * User metadata as Temporal's docs use it, on SQLite and PostgreSQL: `staticSummary` and
 * `staticDetails` on a start, a signal-with-start and a child; `summary` on activities, local
 * activities and timers; `setCurrentDetails` answered by the `__temporal_workflow_metadata` query.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/common/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { Worker } from '../../src/worker/index.ts';
import * as activities from '../fixtures/workflows/user-metadata-activities.ts';
import { backends, onBackend, fixture, waitFor } from './helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

const WORKFLOWS = fixture('user-metadata.ts');
const of = <T extends HistoryEvent['eventType']>(events: HistoryEvent[], type: T) =>
  events.filter((e) => e.eventType === type) as HistoryEvent<T>[];

for (const backend of backends('user_metadata')) {
  describe(`user metadata on ${backend.name}`, async () => {
    const s = await onBackend(backend);
    const { skip } = s;
    const queue = s.queue;

    test('a pending activity\'s summary is in describe', { skip }, async () => {
      const taskQueue = queue('pending');
      const worker = await Worker.create({ connection: s.env.connection, taskQueue, workflowsPath: WORKFLOWS, activities, logger: silentLogger });
      await worker.runUntil(async () => {
        const handle = await s.env.client.workflow.start('pendingSummarised', { taskQueue, workflowId: `meta-${taskQueue}`, args: ['Ada'] });
        const [pending] = await waitFor('the pending activity', async () => {
          const d = await handle.describe();
          return d.pendingActivities.length > 0 ? d.pendingActivities : undefined;
        });
        assert.equal(pending!.summary, 'Waits for the warehouse');
        await handle.terminate('done looking');
      });
    });

    test('a start\'s static summary and details reach describe, the list and the start event; events carry the summaries', { skip }, async () => {
      const taskQueue = queue('start');
      const handle = await s.env.client.workflow.start('orderWithMetadata', {
        taskQueue, workflowId: `meta-${taskQueue}`, args: ['Ada'], staticSummary: 'Order for Ada', staticDetails: 'Line one\nLine **two**',
      });
      const d = await handle.describe();
      assert.equal(await d.staticSummary(), 'Order for Ada');
      assert.equal(await d.staticDetails(), 'Line one\nLine **two**');
      const listed = [];
      for await (const e of s.env.client.workflow.list({ query: `WorkflowId = 'meta-${taskQueue}'` })) listed.push(e);
      assert.deepEqual(listed.map((e) => e.userMetadata), [{ summary: 'Order for Ada', details: 'Line one\nLine **two**' }]);

      const worker = await Worker.create({ address: s.env.address, taskQueue, workflowsPath: WORKFLOWS, activities, logger: silentLogger });
      await worker.runUntil(async () => {
        await waitFor('the cool-down timer', async () => of((await handle.fetchHistory()).events, 'TimerStarted').length === 1);
        await s.env.sleep('1 minute');
        await waitFor('the approval timer', async () => of((await handle.fetchHistory()).events, 'TimerStarted').length === 2);
        const meta = await handle.query('__temporal_workflow_metadata') as { currentDetails: string };
        assert.equal(meta.currentDetails, 'Waiting for approval (was: Greeting **Ada**)');
        await handle.signal('proceed');
        assert.equal(await handle.result(), 'HELLO ADA');
      });
      const events = (await handle.fetchHistory()).events;
      assert.deepEqual(of(events, 'WorkflowExecutionStarted')[0]!.attributes.userMetadata,
        { summary: 'Order for Ada', details: 'Line one\nLine **two**' });
      assert.deepEqual(of(events, 'ActivityTaskScheduled').map((e) => e.attributes.userMetadata), [{ summary: 'Say hello' }]);
      assert.deepEqual(of(events, 'MarkerRecorded').map((e) => e.attributes.userMetadata), [{ summary: 'Shout it' }]);
      assert.deepEqual(of(events, 'TimerStarted').map((e) => e.attributes.userMetadata), [{ summary: 'Cool down' }, { summary: 'Approval deadline' }]);
      const initiated = of(events, 'StartChildWorkflowExecutionInitiated')[0]!;
      assert.deepEqual(initiated.attributes.userMetadata, { summary: 'Child of the order', details: 'Echoes its input' });
      const child = s.env.client.workflow.getHandle(initiated.attributes.workflowId);
      const cd = await child.describe();
      assert.equal(await cd.staticSummary(), 'Child of the order');
      assert.equal(await cd.staticDetails(), 'Echoes its input');
      assert.deepEqual(of((await child.fetchHistory()).events, 'WorkflowExecutionStarted')[0]!.attributes.userMetadata,
        { summary: 'Child of the order', details: 'Echoes its input' });

      const resetRunId = await handle.reset({ type: 'FirstWorkflowTask', reason: 'again' });
      const reset = s.env.client.workflow.getHandle(handle.workflowId, resetRunId);
      assert.equal(await (await reset.describe()).staticSummary(), 'Order for Ada', 'a reset run keeps the start\'s metadata');
      await reset.terminate();
    });

    test('signal-with-start carries the metadata; a run without it has none', { skip }, async () => {
      const taskQueue = queue('sws');
      const sws = await s.env.client.workflow.signalWithStart('orderWithMetadata', {
        taskQueue, workflowId: `sws-${taskQueue}`, args: ['Bo'], signal: 'proceed', staticSummary: 'Signalled order',
      });
      const d = await sws.describe();
      assert.equal(await d.staticSummary(), 'Signalled order');
      assert.equal(await d.staticDetails(), undefined);
      const plain = await s.env.client.workflow.start('orderWithMetadata', { taskQueue, workflowId: `plain-${taskQueue}`, args: ['Cy'] });
      const pd = await plain.describe();
      assert.equal(await pd.staticSummary(), undefined);
      assert.equal(pd.raw.execution.userMetadata, undefined);
      await sws.terminate();
      await plain.terminate();
    });

    test('a schedule\'s action carries staticSummary and staticDetails to each workflow it starts, and describe gives them back', { skip }, async () => {
      const taskQueue = queue('schedule');
      const schedule = await s.env.client.schedule.create({
        scheduleId: `sched-${taskQueue}`, spec: { intervals: [{ every: '1 day' }] },
        action: { type: 'startWorkflow', workflowType: 'childWithMetadata', taskQueue, workflowId: `scheduled-${taskQueue}`, args: ['x'],
          staticSummary: 'Nightly export', staticDetails: 'From the schedule' },
      });
      const d = await schedule.describe();
      assert.equal(d.action.staticSummary, 'Nightly export');
      assert.equal(d.action.staticDetails, 'From the schedule');
      await schedule.trigger();
      const started = await waitFor('the triggered workflow', async () => (await schedule.describe()).info.recentActions[0]);
      const run = await s.env.client.workflow.getHandle(started.workflowId).describe();
      assert.equal(await run.staticSummary(), 'Nightly export');
      assert.equal(await run.staticDetails(), 'From the schedule');
      await schedule.delete();
      await assert.rejects(s.env.client.schedule.create({
        scheduleId: `bad-${taskQueue}`, spec: { intervals: [{ every: '1 day' }] },
        action: { type: 'startWorkflow', workflowType: 'w', taskQueue, workflowId: 'w', staticSummary: 3 as never },
      }), (err: unknown) => err instanceof ValidationError && err.field === 'action.staticSummary');
    });
  });
}

test('metadata is checked: a non-string names the field; setCurrentDetails refuses a non-string', async (t) => {
  const [sqlite] = backends('user_metadata_checks');
  const env = await sqlite!.env();
  t.after(() => env.teardown());
  await assert.rejects(env.client.workflow.start('orderWithMetadata', { taskQueue: 'q', staticSummary: 42 as never }),
    (err: unknown) => err instanceof ValidationError && err.field === 'staticSummary' && /must be a string/.test(err.message));
  await assert.rejects(env.client.workflow.start('orderWithMetadata', { taskQueue: 'q', staticDetails: { text: 'x' } as never }),
    (err: unknown) => err instanceof ValidationError && err.field === 'staticDetails');
  await assert.rejects(env.client.workflow.start('orderWithMetadata', { taskQueue: 'q', staticSummary: 'x'.repeat(401) }),
    (err: unknown) => err instanceof ValidationError && err.field === 'staticSummary' && /at most 400 characters/.test(err.message));
  await assert.rejects(env.connection.startWorkflowExecution({ workflowId: 'raw', workflowType: 't', taskQueue: 'q', userMetadata: { summary: 7 } as never }),
    (err: unknown) => err instanceof Error && /userMetadata\.summary must be a string/.test(err.message));
  await assert.rejects(env.connection.startWorkflowExecution({ workflowId: 'raw', workflowType: 't', taskQueue: 'q', userMetadata: { title: 'x' } as never }),
    (err: unknown) => err instanceof Error && /userMetadata\.title is not a user metadata field/.test(err.message));

  const worker = await Worker.create({ connection: env.connection, taskQueue: 'checks', workflowsPath: WORKFLOWS, activities, logger: silentLogger });
  const answer = await worker.runUntil(env.client.workflow.execute('setsDetails', { taskQueue: 'checks', args: [5] }));
  assert.match(answer as string, /details must be a string/);
});
