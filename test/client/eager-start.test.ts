/**
 * Eager workflow start (`requestEagerStart`), on SQLite and PostgreSQL, over HTTP and in-process:
 * the first workflow task comes back with the start's answer and a worker of the same process
 * runs it, with no poll between; without such a worker (or a free slot) the start is ordinary;
 * a task handed out and never run is recovered by its timeout.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../src/client/index.ts';
import { ValidationError } from '../../src/common/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { backends, onBackend, fixture, types } from '../composition/helpers.ts';
import { recordingLogger, silentLogger } from '../helpers/logger.ts';
import { faults } from '../../src/common/fault-points.ts';
import { waitFor } from '../helpers/wait.ts';
import * as activities from '../fixtures/local-activities.ts';

const WORKFLOWS = fixture('eager.ts');
const startedBy = (events: HistoryEvent[]) =>
  events.filter((e) => e.eventType === 'WorkflowTaskStarted').map((e) => (e.attributes as { identity?: string }).identity);

for (const backend of backends('eager_start')) {
  describe(`requestEagerStart on ${backend.name}`, async () => {
    const s = await onBackend(backend);
    const { skip } = s;
    const queue = s.queue;

    for (const via of ['address', 'connection'] as const) {
      test(`over ${via === 'address' ? 'HTTP' : 'an in-process connection'}: the first task comes with the answer and this process's worker runs it`, { skip }, async () => {
        const taskQueue = queue(`eager-${via}`);
        const target = via === 'address' ? { address: s.env.address } : { connection: s.env.connection };
        const client = new Client({ ...target, identity: 'eager-starter' });
        const worker = await Worker.create({ ...target, taskQueue, workflowsPath: WORKFLOWS, activities, logger: silentLogger, identity: 'poller' });
        try {
          await worker.runUntil(async () => {
            const handle = await client.workflow.start('helloLocal', { taskQueue, workflowId: `eager-${taskQueue}`, args: ['ada'], requestEagerStart: true });
            assert.equal(handle.eagerlyStarted, true);
            assert.equal(await handle.result(), 'hello ada (local: true)');
            const events = (await handle.fetchHistory()).events;
            // The start's own identity started the task: no poll took it.
            assert.deepEqual(startedBy(events), ['eager-starter']);
            assert.deepEqual(types(events), [
              'WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted', 'MarkerRecorded', 'WorkflowExecutionCompleted',
            ]);
          });
        } finally {
          client.close();
        }
      });
    }

    test('in-process, the first task runs while the start is written; when the start fails, its local activity never runs and its log never shows', { skip }, async () => {
      const taskQueue = queue('ahead');
      const logger = recordingLogger();
      const client = new Client({ connection: s.env.connection, identity: 'eager-starter' });
      const worker = await Worker.create({ connection: s.env.connection, taskQueue, workflowsPath: WORKFLOWS, activities, logger, identity: 'poller' });
      try {
        await worker.runUntil(async () => {
          // The start's write waits until the worker has run the code and holds its local activity, then fails.
          faults.arm('engine.commit.before', {
            onHit: 1, throw: true,
            run: async () => {
              await waitFor('the first task to run ahead', async () => worker.workflowStats.ranAhead === 1);
            },
          });
          await assert.rejects(client.workflow.start('helloLogged', { taskQueue, workflowId: `ahead-${taskQueue}`, args: ['nobody'], requestEagerStart: true }));
          faults.disarm();
          await waitFor('the task to be dropped', async () => worker.workflowStats.droppedAhead === 1);
          assert.equal(activities.calls.get('greet:nobody'), undefined, 'the local activity did not run');
          assert.deepEqual(logger.lines.filter((l) => l.message === 'greeting'), [], 'the run that was never written logged nothing');
          // The same id, and the slot the dropped task held, serve the next start.
          const handle = await client.workflow.start('helloLogged', { taskQueue, workflowId: `ahead-${taskQueue}`, args: ['ada'], requestEagerStart: true });
          assert.equal(handle.eagerlyStarted, true);
          assert.equal(await handle.result(), 'hello ada (local: true)');
          assert.deepEqual(logger.lines.filter((l) => l.message === 'greeting').map((l) => l.meta?.name), ['ada']);
          assert.deepEqual(startedBy((await handle.fetchHistory()).events), ['eager-starter']);
        });
      } finally {
        faults.disarm();
        client.close();
      }
    });

    test('without a worker of this process on the queue, or with no free slot, the start is an ordinary one', { skip }, async () => {
      const taskQueue = queue('ordinary');
      const client = new Client({ address: s.env.address, identity: 'eager-starter' });
      try {
        const alone = await client.workflow.start('hello', { taskQueue, workflowId: `alone-${taskQueue}`, args: ['a'], requestEagerStart: true });
        assert.equal(alone.eagerlyStarted, false);
        // One slot, held by the worker's own poll: nothing is free for an eager task.
        const worker = await Worker.create({
          address: s.env.address, taskQueue, workflowsPath: WORKFLOWS, logger: silentLogger, identity: 'poller', maxConcurrentWorkflowTaskExecutions: 1,
        });
        await worker.runUntil(async () => {
          const busy = await client.workflow.start('hello', { taskQueue, workflowId: `busy-${taskQueue}`, args: ['b'], requestEagerStart: true });
          assert.equal(busy.eagerlyStarted, false);
          assert.equal(await alone.result(), 'hello a');
          assert.equal(await busy.result(), 'hello b');
          assert.deepEqual(startedBy((await busy.fetchHistory()).events), ['poller']);
          // A start delay: the task is not due, so it goes to a poll later (this client's waits skip no time: the environment's does).
          const delayed = await client.workflow.start('hello', { taskQueue, workflowId: `delayed-${taskQueue}`, args: ['c'], requestEagerStart: true, startDelay: '1s' });
          assert.equal(delayed.eagerlyStarted, false);
          await s.env.sleep('2s');
          assert.equal(await delayed.result(), 'hello c');
        });
      } finally {
        client.close();
      }
    });

    test('a task handed out eagerly and never run is retried after its workflow task timeout: the run is not lost', { skip }, async () => {
      const taskQueue = queue('lost');
      // The raw service call: the answer's task goes nowhere, as when the starting process dies.
      const answer = await s.env.connection.startWorkflowExecution({
        workflowId: `lost-${taskQueue}`, workflowType: 'hello', taskQueue, args: ['z'], workflowTaskTimeoutMs: 1000, requestEagerExecution: true, identity: 'gone',
      });
      assert.ok(answer.eagerWorkflowTask, 'the answer carries the first task');
      assert.equal(answer.eagerWorkflowTask.runId, answer.runId);
      const worker = await Worker.create({ address: s.env.address, taskQueue, workflowsPath: WORKFLOWS, logger: silentLogger, identity: 'poller' });
      // The environment's client: its wait skips time to the task's timeout.
      const handle = s.env.client.workflow.getHandle(`lost-${taskQueue}`);
      assert.equal(await worker.runUntil(handle.result()), 'hello z');
      const events = (await handle.fetchHistory()).events;
      assert.ok(types(events).includes('WorkflowTaskTimedOut'));
      assert.deepEqual(startedBy(events), ['gone', 'poller']);
    });
  });
}

test('requestEagerStart is checked: a boolean, and not taken by signalWithStart', async () => {
  const client = new Client({ address: 'http://127.0.0.1:9' });
  try {
    await assert.rejects(client.workflow.start('hello', { taskQueue: 'q', requestEagerStart: 'yes' as never }),
      (err: unknown) => err instanceof ValidationError && err.field === 'requestEagerStart');
    await assert.rejects(client.workflow.signalWithStart('hello', { taskQueue: 'q', signal: 's', requestEagerStart: true }),
      (err: unknown) => err instanceof ValidationError && err.field === 'requestEagerStart' && /signalWithStart/.test(err.message));
  } finally {
    client.close();
  }
});
