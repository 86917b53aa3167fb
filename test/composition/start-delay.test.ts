/**
 * startDelay as Temporal's docs use it, on SQLite and PostgreSQL: the first workflow task waits
 * for the delay; a signal ends the wait, a signal-with-start's own signal does not; refused with
 * a cron schedule; `--start-delay` on the CLI.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/common/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { startOptionsFromFlags } from '../../src/cli/workflow-start-flags.ts';
import { backends, fixture, onBackend } from './helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

const WORKFLOWS = fixture('id-conflict.ts');
const HOUR = 3_600_000;
const types = (events: HistoryEvent[]) => events.map((e) => e.eventType);


for (const backend of backends('start_delay')) {
  describe(`startDelay on ${backend.name}`, async () => {
    const s = await onBackend(backend);
    const { skip, queue } = s;

    test('the first workflow task waits for the delay; the run\'s execution time is the start plus the delay', { skip }, async () => {
      const taskQueue = queue('wait');
      const handle = await s.env.client.workflow.start('collectsGo', { taskQueue, workflowId: `delay-${taskQueue}`, startDelay: '1 hour' });
      const d = await handle.describe();
      assert.equal(d.executionTime!.getTime() - d.startTime.getTime(), HOUR);
      const started = (await handle.fetchHistory()).events;
      assert.deepEqual(types(started), ['WorkflowExecutionStarted'], 'no workflow task before the delay');
      assert.equal((started[0]!.attributes as { firstWorkflowTaskBackoffMs?: number }).firstWorkflowTaskBackoffMs, HOUR);
      const worker = await Worker.create({ address: s.env.address, taskQueue, workflowsPath: WORKFLOWS, logger: silentLogger });
      await worker.runUntil(async () => {
        await s.env.sleep('1 hour');
        const scheduled = await handle.fetchHistory();
        assert.ok(types(scheduled.events).includes('WorkflowTaskScheduled'), 'the task is scheduled once the delay is over');
        await handle.signal('go', 'done');
        assert.deepEqual(await handle.result(), ['done']);
      });
    });

    test('a signal ends the delay at once; the signal of the signal-with-start that started the run does not', { skip }, async () => {
      const taskQueue = queue('signal');
      const sws = await s.env.client.workflow.signalWithStart('collectsGo', {
        taskQueue, workflowId: `sws-${taskQueue}`, startDelay: '1 hour', signal: 'go', signalArgs: ['first'],
      });
      assert.deepEqual(types((await sws.fetchHistory()).events), ['WorkflowExecutionStarted', 'WorkflowExecutionSignaled'],
        'the start\'s own signal leaves the delay in place');
      await sws.signal('go', 'done');
      const events = types((await sws.fetchHistory()).events);
      assert.deepEqual(events.slice(0, 4), ['WorkflowExecutionStarted', 'WorkflowExecutionSignaled', 'WorkflowExecutionSignaled', 'WorkflowTaskScheduled']);
      const d = await sws.describe();
      assert.ok(d.executionTime!.getTime() - d.startTime.getTime() < HOUR, 'the execution time moved to the signal');
      const worker = await Worker.create({ address: s.env.address, taskQueue, workflowsPath: WORKFLOWS, logger: silentLogger });
      assert.deepEqual(await worker.runUntil(sws.result()), ['first', 'done'], 'the run went on without waiting out the hour');
      const after = types((await sws.fetchHistory()).events);
      assert.equal(after.filter((t) => t === 'WorkflowTaskScheduled').length, 1, 'the delay\'s timer did not schedule a second task');
    });
  });
}

test('startDelay is checked: a positive duration, never with a cron schedule; the CLI takes --start-delay', async () => {
  const env = await TestEnvironment.createTimeSkipping();
  try {
    await assert.rejects(env.client.workflow.start('collectsGo', { taskQueue: 'q', startDelay: '1 hour', cronSchedule: '@hourly' }),
      (err: unknown) => err instanceof ValidationError && err.field === 'startDelay' && /cannot be given with cronSchedule/.test(err.message));
    await assert.rejects(env.client.workflow.start('collectsGo', { taskQueue: 'q', startDelay: 'soon' as never }),
      (err: unknown) => err instanceof ValidationError && err.field === 'startDelay');
    await assert.rejects(env.connection.startWorkflowExecution({ workflowId: 'raw', workflowType: 'collectsGo', taskQueue: 'q', workflowStartDelayMs: 1000, cronSchedule: '@hourly' }),
      (err: unknown) => err instanceof ValidationError && err.field === 'workflowStartDelayMs');
  } finally {
    await env.teardown();
  }
  assert.equal(startOptionsFromFlags({ 'task-queue': 'q', 'start-delay': '10m' }).startDelay, 600_000);
  assert.throws(() => startOptionsFromFlags({ 'task-queue': 'q', 'start-delay': 'soon' }), /--start-delay/);
});
