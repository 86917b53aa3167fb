import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { Client, QueryFailedError, ServiceError, WorkflowUpdateFailedError, WorkflowUpdateStage } from '../../src/client/index.ts';
import { ApplicationFailure } from '../../src/common/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import {
  activityQuery, addItem, badQuery, collector, finish, itemsQuery, limiter, limitQuery, setLimit, signaller, throwingQuery,
} from '../fixtures/workflows/messages.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/messages.ts', import.meta.url));
const activities = { echo: async (s: string) => s };
const pgSkip = await pgSkipReason('the PostgreSQL runs of test/worker/messages-e2e.test.ts');

function types(events: HistoryEvent[]): string[] {
  return events.map((e) => e.eventType);
}

for (const backend of ['SQLite', 'PostgreSQL'] as const) {
  describe(`signals, queries and updates end to end on ${backend}`, { skip: backend === 'PostgreSQL' && pgSkip ? pgSkip : false }, () => {
    let env: TestEnvironment;
    let schema: string | undefined;
    let n = 0;
    const queue = (name: string) => `${backend}-${name}-${++n}`;
    const worker = (taskQueue: string) => Worker.create({ address: env.address, taskQueue, workflowsPath, activities });

    before(async () => {
      if (backend === 'PostgreSQL') schema = freshSchema('messages_e2e');
      env = await TestEnvironment.createTimeSkipping(schema ? { database: `${PG_URL}?schema=${schema}` } : {});
    });
    after(async () => {
      await env.teardown();
      if (schema) await dropSchema(schema);
    });

    test('signals are persisted before the call returns, kept in order, deduplicated by request id, and buffered until a handler is set', async () => {
      const taskQueue = queue('signals');
      const handle = await env.client.workflow.start(collector, { taskQueue, workflowId: `${taskQueue}-wf`, args: [60_000] });
      await handle.signal(addItem, 'a');
      await handle.signal(addItem, 'b');
      const repeated = { workflowId: handle.workflowId, signalName: 'addItem', args: ['c'], requestId: 'request-c' };
      await env.client.connection.signalWorkflowExecution(repeated);
      await env.client.connection.signalWorkflowExecution(repeated);
      // No worker has run yet: the signals are in history because the calls returned.
      const signaled = (await handle.fetchHistory()).events.filter((e) => e.eventType === 'WorkflowExecutionSignaled');
      assert.deepEqual(signaled.map((e) => e.eventType === 'WorkflowExecutionSignaled' && e.attributes.args), [['a'], ['b'], ['c']]);
      await handle.signal(finish);
      const w = await worker(taskQueue);
      // The handlers are set only after a 60 s sleep: every signal waited in the buffer.
      assert.deepEqual(await w.runUntil(handle.result()), ['a', 'b', 'c']);
    });

    test('a workflow signals another through getExternalWorkflowHandle; a missing target fails the signal', async () => {
      const taskQueue = queue('external');
      const target = await env.client.workflow.start(collector, { taskQueue, workflowId: `${taskQueue}-target`, args: [0] });
      const sender = await env.client.workflow.start(signaller, { taskQueue, workflowId: `${taskQueue}-sender`, args: [target.workflowId] });
      const w = await worker(taskQueue);
      const [got, sent] = await w.runUntil(Promise.all([target.result(), sender.result()]));
      assert.deepEqual(got, ['from-workflow']);
      assert.match(sent, /^missing: no open run of workflow .*-target-missing/);
      const senderTypes = types((await sender.fetchHistory()).events);
      assert.equal(senderTypes.filter((t) => t === 'SignalExternalWorkflowExecutionInitiated').length, 3);
      assert.equal(senderTypes.filter((t) => t === 'ExternalWorkflowExecutionSignaled').length, 2);
      assert.equal(senderTypes.filter((t) => t === 'SignalExternalWorkflowExecutionFailed').length, 1);
      const received = (await target.fetchHistory()).events.find((e) => e.eventType === 'WorkflowExecutionSignaled');
      assert.equal(received?.eventType === 'WorkflowExecutionSignaled' && received.attributes.externalWorkflowExecution?.workflowId, sender.workflowId);
    });

    test('signal-with-start starts the workflow with the signal, then signals the running run', async () => {
      const taskQueue = queue('sws');
      const workflowId = `${taskQueue}-wf`;
      const first = await env.client.workflow.signalWithStart(collector, { taskQueue, workflowId, args: [0], signal: addItem, signalArgs: ['first'] });
      const second = await env.client.workflow.signalWithStart(collector, { taskQueue, workflowId, args: [0], signal: addItem, signalArgs: ['second'] });
      assert.equal(second.firstExecutionRunId, first.firstExecutionRunId);
      const history = types((await first.fetchHistory()).events);
      assert.deepEqual(history.slice(0, 4), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowExecutionSignaled', 'WorkflowExecutionSignaled']);
      await first.signal(finish);
      const w = await worker(taskQueue);
      assert.deepEqual(await w.runUntil(first.result()), ['first', 'second']);
    });

    test('queries reflect every signal confirmed before them, answer for completed runs, and report handlers that emit commands', async () => {
      const taskQueue = queue('queries');
      const handle = await env.client.workflow.start(collector, { taskQueue, workflowId: `${taskQueue}-wf`, args: [0] });
      const w = await worker(taskQueue);
      await w.runUntil(async () => {
        const expected: string[] = [];
        for (const item of ['q1', 'q2', 'q3', 'q4']) {
          await handle.signal(addItem, item);
          expected.push(item);
          assert.deepEqual(await handle.query(itemsQuery), expected);
        }
        await assert.rejects(handle.query(badQuery), (err: unknown) => {
          assert.ok(err instanceof QueryFailedError);
          assert.match(err.message, /query handler "sleepsInQuery" must be read-only, but it emitted StartTimer/);
          return true;
        });
        await assert.rejects(handle.query(activityQuery), /must be read-only, but it emitted ScheduleActivityTask/);
        await assert.rejects(handle.query(throwingQuery), /query handler broke/);
        await assert.rejects(handle.query('nope'), /no query handler named "nope"; registered: __stack_trace, items/);
        const stack = await handle.query<string, []>('__stack_trace');
        assert.match(stack, /condition 1/);
        assert.match(stack, /collector/);
        const before = (await handle.fetchHistory()).events.length;
        await handle.signal(finish);
        assert.deepEqual(await handle.result(), expected);
        assert.deepEqual(await handle.query(itemsQuery), expected);
        const history = (await handle.fetchHistory()).events;
        assert.ok(!types(history).includes('TimerStarted'), 'the query that slept wrote nothing');
        assert.ok(!types(history).includes('ActivityTaskScheduled'), 'the query that scheduled an activity wrote nothing');
        assert.ok(history.length > before);
      });
    });

    test('a query with no worker polling fails after its timeout with a clear error', async () => {
      const taskQueue = queue('no-worker');
      const handle = await env.client.workflow.start(collector, { taskQueue, workflowId: `${taskQueue}-wf`, args: [0] });
      await assert.rejects(handle.queryWithOptions(itemsQuery, { timeout: 150 }), (err: unknown) => {
        assert.ok(err instanceof ServiceError);
        assert.equal(err.code, 'Unavailable');
        assert.match(err.message, new RegExp(`got no answer within 150 ms: no worker answered; is a worker polling task queue "${taskQueue}"`));
        return true;
      });
      await handle.terminate();
    });

    test('the HTTP client sends signals, signal-with-start, queries and updates', async () => {
      const taskQueue = queue('http');
      const http = new Client({ address: env.address });
      try {
        const handle = await http.workflow.signalWithStart(limiter, { taskQueue, workflowId: `${taskQueue}-wf`, signal: 'unknownSignal', signalArgs: [1] });
        const w = await worker(taskQueue);
        await w.runUntil(async () => {
          assert.equal(await handle.executeUpdate(setLimit, { args: [4], updateId: 'http-1' }), 0);
          await assert.rejects(handle.executeUpdate(setLimit, { args: [-4] }), WorkflowUpdateFailedError);
          assert.equal(await handle.query(limitQuery), 4);
          await handle.signal(finish);
          assert.equal(await handle.result(), 4);
        });
      } finally {
        http.close();
      }
    });

    test('updates are validated without a trace when rejected, accepted, executed, completed, and deduplicated by id', async () => {
      const taskQueue = queue('updates');
      const handle = await env.client.workflow.start(limiter, { taskQueue, workflowId: `${taskQueue}-wf` });
      const w = await worker(taskQueue);
      await w.runUntil(async () => {
        assert.equal(await handle.executeUpdate(setLimit, { args: [5] }), 0);
        const lengthBefore = (await handle.fetchHistory()).events.length;
        await assert.rejects(handle.executeUpdate(setLimit, { args: [-1] }), (err: unknown) => {
          assert.ok(err instanceof WorkflowUpdateFailedError);
          assert.equal(err.stage, 'Rejected');
          assert.ok(err.cause instanceof ApplicationFailure);
          assert.equal(err.cause.type, 'InvalidLimit');
          assert.match(err.message, /rejected by its validator: limit must be >= 0, got -1/);
          return true;
        });
        assert.equal((await handle.fetchHistory()).events.length, lengthBefore, 'a rejected update writes no event');
        await assert.rejects(handle.executeUpdate(setLimit, { args: [13] }), (err: unknown) => {
          assert.ok(err instanceof WorkflowUpdateFailedError);
          assert.equal(err.stage, 'Completed');
          assert.equal((err.cause as ApplicationFailure).type, 'Unlucky');
          return true;
        });
        assert.equal(await handle.executeUpdate(setLimit, { args: [9], updateId: 'same-id' }), 5);
        assert.equal(await handle.executeUpdate(setLimit, { args: [100], updateId: 'same-id' }), 5, 'a repeated update id returns the first outcome');
        const started = await handle.startUpdate(setLimit, { args: [11] });
        assert.equal(await started.result(), 9);
        assert.equal(await handle.query(limitQuery), 11);
        await handle.signal(finish);
        assert.equal(await handle.result(), 11);
      });
      const events = (await handle.fetchHistory()).events;
      const accepted = events.filter((e) => e.eventType === 'WorkflowExecutionUpdateAccepted');
      const completed = events.filter((e) => e.eventType === 'WorkflowExecutionUpdateCompleted');
      assert.equal(accepted.length, 4, 'updates 5, 13, same-id and 11; the rejected one and the repeat are absent');
      assert.equal(completed.length, 4);
      assert.equal(accepted.filter((e) => e.eventType === 'WorkflowExecutionUpdateAccepted' && e.attributes.updateId === 'same-id').length, 1);
    });

    // startUpdate refused `waitForStage`, which Temporal's startUpdate requires.
    test("startUpdate takes Temporal's waitForStage: WorkflowUpdateStage.ACCEPTED, and refuses a stage it cannot return at", async () => {
      const taskQueue = queue('update-stage');
      const w = await worker(taskQueue);
      const handle = await env.client.workflow.start(limiter, { taskQueue, workflowId: `stage-${taskQueue}` });
      await w.runUntil(async () => {
        const first = await handle.startUpdate(setLimit, { args: [3], waitForStage: WorkflowUpdateStage.ACCEPTED });
        assert.equal(await first.result(), 0);
        assert.equal(first.workflowRunId, first.runId);
        const second = await handle.startUpdate(setLimit, { args: [4], waitForStage: 'ACCEPTED', updateId: 'stage-2' });
        assert.equal(second.updateId, 'stage-2');
        assert.equal(await second.result(), 3);
        await assert.rejects(handle.startUpdate(setLimit, { args: [5], waitForStage: 'COMPLETED' as never }),
          /^ValidationError: waitForStage must be ACCEPTED in startUpdate, as in Temporal \(executeUpdate waits for the update to complete\), got "COMPLETED"$/);
        await assert.rejects(handle.startUpdate(setLimit, { args: [5], waitForStage: WorkflowUpdateStage.ADMITTED as never }), /waitForStage must be ACCEPTED/);
        await assert.rejects(handle.startUpdate(setLimit, { args: [5], waitForStage: 'SOON' as never }), /waitForStage must be one of Admitted, Accepted, Completed/);
        await assert.rejects(handle.executeUpdate(setLimit, { args: [5], waitForStage: 'ACCEPTED' } as never), /waitForStage is not an update option/);
        await handle.signal(finish);
        assert.equal(await handle.result(), 4);
      });
    });
  });
}
