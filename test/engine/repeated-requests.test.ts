import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError } from '../../src/common/errors.ts';
import { cmd, setup } from './helpers.ts';

/*
 * The client repeats a call whose answer it lost (the server restarted mid-call) with the same
 * request id. The first try may have been applied, and the run may even have closed because of
 * it before the repeat arrives: the repeat must then succeed without applying anything again.
 */

const refused = (err: unknown) => err instanceof ServiceError && err.code === 'FailedPrecondition';

describe('a repeated request is applied once', () => {
  test('start: the repeat returns the first run, also after that run closed', async () => {
    const h = await setup();
    try {
      const first = await h.start('s1', { requestId: 'start-1' });
      assert.equal(first.started, true);
      await h.complete(await h.pollWorkflow(), [cmd.complete('done')]);
      const again = await h.start('s1', { requestId: 'start-1' });
      assert.deepEqual(again, { runId: first.runId, started: false });
      const runs = (await h.engine.listWorkflowExecutions({ workflowIdPrefix: 's1' })).executions;
      assert.equal(runs.length, 1);
    } finally {
      await h.close();
    }
  });

  test('signal: the repeat succeeds after the run closed, and is not recorded twice; a new request is refused', async () => {
    const h = await setup();
    try {
      await h.start('g1');
      const req = { workflowId: 'g1', signalName: 's', args: ['x'], requestId: 'sig-1' };
      await h.engine.signalWorkflowExecution(req);
      await h.complete(await h.pollWorkflow(), [cmd.complete('done')]);
      await h.engine.signalWorkflowExecution(req);
      const signals = (await h.types('g1')).filter((t) => t === 'WorkflowExecutionSignaled');
      assert.equal(signals.length, 1);
      await assert.rejects(h.engine.signalWorkflowExecution({ ...req, requestId: 'sig-2' }), refused);
    } finally {
      await h.close();
    }
  });

  test('signal-with-start: the repeat of a signal to a run that closed since does not start a new run', async () => {
    const h = await setup();
    try {
      const { runId } = await h.start('sw1');
      const req = { workflowId: 'sw1', workflowType: 'order', taskQueue: 'q', signalName: 's', signalArgs: [1], requestId: 'sws-1' };
      assert.deepEqual(await h.engine.signalWithStartWorkflowExecution(req), { runId, started: false });
      await h.complete(await h.pollWorkflow(), [cmd.complete('done')]);
      assert.deepEqual(await h.engine.signalWithStartWorkflowExecution(req), { runId, started: false });
      assert.equal((await h.engine.listWorkflowExecutions({ workflowIdPrefix: 'sw1' })).executions.length, 1);
      const other = await h.engine.signalWithStartWorkflowExecution({ ...req, requestId: 'sws-2' });
      assert.equal(other.started, true, 'a new request starts a new run');
    } finally {
      await h.close();
    }
  });

  test('cancel: the repeat succeeds after the run closed as Canceled, with one cancel request in history', async () => {
    const h = await setup();
    try {
      await h.start('c1');
      await h.complete(await h.pollWorkflow(), []);
      await h.engine.requestCancelWorkflowExecution({ workflowId: 'c1', requestId: 'cancel-1' });
      await h.engine.requestCancelWorkflowExecution({ workflowId: 'c1', requestId: 'cancel-1' });
      await h.complete(await h.pollWorkflow(), [{ commandType: 'CancelWorkflowExecution', attributes: {} }]);
      await h.engine.requestCancelWorkflowExecution({ workflowId: 'c1', requestId: 'cancel-1' });
      const types = await h.types('c1');
      assert.equal(types.filter((t) => t === 'WorkflowExecutionCancelRequested').length, 1);
      assert.equal(types.at(-1), 'WorkflowExecutionCanceled');
      await assert.rejects(h.engine.requestCancelWorkflowExecution({ workflowId: 'c1', requestId: 'cancel-2' }), refused);
    } finally {
      await h.close();
    }
  });

  test('terminate: the repeat succeeds and terminates once; another request for the closed run is refused', async () => {
    const h = await setup();
    try {
      await h.start('t1');
      await h.engine.terminateWorkflowExecution({ workflowId: 't1', reason: 'stop', requestId: 'term-1' });
      await h.engine.terminateWorkflowExecution({ workflowId: 't1', reason: 'stop', requestId: 'term-1' });
      assert.equal((await h.types('t1')).filter((t) => t === 'WorkflowExecutionTerminated').length, 1);
      await assert.rejects(h.engine.terminateWorkflowExecution({ workflowId: 't1', reason: 'stop', requestId: 'term-2' }), refused);
      await assert.rejects(h.engine.terminateWorkflowExecution({ workflowId: 't1', reason: 'stop' }), refused);
    } finally {
      await h.close();
    }
  });

  test('update: the repeat of an update id after the run closed returns the first outcome and accepts nothing again', async () => {
    const h = await setup();
    try {
      await h.start('u1');
      await h.complete(await h.pollWorkflow(), []);
      const req = { workflowId: 'u1', updateName: 'set', args: [1], updateId: 'upd-1' };
      const first = h.engine.updateWorkflowExecution(req);
      const validation = await h.engine.pollQueryTaskQueue({ taskQueue: 'q', identity: 'worker-1', pollTimeoutMs: 3000 });
      assert.ok(validation);
      await h.engine.respondQueryTaskCompleted({ taskToken: validation.taskToken, identity: 'worker-1' });
      assert.equal((await first).stage, 'Accepted');
      const task = await h.pollWorkflow();
      const accepted = task.history.find((e) => e.eventType === 'WorkflowExecutionUpdateAccepted');
      assert.ok(accepted);
      await h.complete(task, [
        { commandType: 'CompleteWorkflowExecutionUpdate', attributes: { updateId: 'upd-1', acceptedEventId: accepted.eventId, outcome: { result: 'set' } } },
        cmd.complete('done'),
      ]);
      const again = await h.engine.updateWorkflowExecution(req);
      assert.equal(again.stage, 'Completed');
      assert.deepEqual(again.outcome, { result: 'set' });
      assert.equal((await h.types('u1')).filter((t) => t === 'WorkflowExecutionUpdateAccepted').length, 1);
    } finally {
      await h.close();
    }
  });
});

