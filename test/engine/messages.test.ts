import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, type EngineOptions } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import { ServiceError } from '../../src/common/errors.ts';
import type { Command } from '../../src/history/commands.ts';
import type { QueryTask } from '../../src/protocol/index.ts';
import { Harness, T0, cmd } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'steadfast-messages-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function harness(opts: Partial<EngineOptions> = {}): Promise<Harness> {
  const store = SqliteStore.open(join(dir, `messages-${++n}.db`));
  const clock = new ManualClock(T0);
  const engine = await Engine.create({ store, clock, ...opts });
  return new Harness(engine, store, clock, true);
}

const signaled = (h: Harness, id: string) => h.history(id).then((events) => events.flatMap((e) =>
  e.eventType === 'WorkflowExecutionSignaled' ? [e.attributes.args[0]] : []));

async function pollQuery(h: Harness, queue = 'q'): Promise<QueryTask> {
  const t = await h.engine.pollQueryTaskQueue({ taskQueue: queue, identity: 'worker-1', pollTimeoutMs: 3000 });
  assert.ok(t, 'expected a query task');
  return t;
}

describe('signals in the engine', () => {
  test('signals that arrive while a workflow task runs are buffered, then appended in arrival order after it completes', async () => {
    const h = await harness();
    try {
      await h.start('w1');
      const first = await h.pollWorkflow();
      for (const x of ['a', 'b', 'c']) await h.engine.signalWorkflowExecution({ workflowId: 'w1', signalName: 's', args: [x] });
      assert.deepEqual(await signaled(h, 'w1'), [], 'buffered while the task runs');
      await h.complete(first, []);
      assert.deepEqual(await signaled(h, 'w1'), ['a', 'b', 'c']);
      const types = await h.types('w1');
      assert.equal(types.indexOf('WorkflowTaskCompleted') < types.indexOf('WorkflowExecutionSignaled'), true);
      const next = await h.pollWorkflow();
      assert.deepEqual(next.history.filter((e) => e.eventType === 'WorkflowExecutionSignaled').length, 3);
    } finally {
      await h.close();
    }
  });

  test('a repeated request id is recorded once; a closed run refuses signals', async () => {
    const h = await harness();
    try {
      await h.start('w2');
      const req = { workflowId: 'w2', signalName: 's', args: ['x'], requestId: 'r-1' };
      await h.engine.signalWorkflowExecution(req);
      await h.engine.signalWorkflowExecution(req);
      await h.engine.signalWorkflowExecution({ ...req, requestId: 'r-2', args: ['y'] });
      assert.deepEqual(await signaled(h, 'w2'), ['x', 'y']);
      await h.complete(await h.pollWorkflow(), [cmd.complete('done')]);
      await assert.rejects(h.engine.signalWorkflowExecution({ ...req, requestId: 'r-3' }),
        (err: unknown) => err instanceof ServiceError && err.code === 'FailedPrecondition' && /already Completed/.test(err.message));
    } finally {
      await h.close();
    }
  });

  test('maxSignalsPerRun bounds the signals of a run, with an error naming the limit', async () => {
    const h = await harness({ messageLimits: { maxSignalsPerRun: 2 } });
    try {
      await h.start('w3');
      await h.engine.signalWorkflowExecution({ workflowId: 'w3', signalName: 's', args: [1] });
      await h.engine.signalWorkflowExecution({ workflowId: 'w3', signalName: 's', args: [2] });
      await assert.rejects(h.engine.signalWorkflowExecution({ workflowId: 'w3', signalName: 's', args: [3] }), (err: unknown) => {
        assert.ok(err instanceof ServiceError);
        assert.equal(err.code, 'ResourceExhausted');
        assert.match(err.message, /has received 2 signals, the limit per run \(maxSignalsPerRun 2\)/);
        return true;
      });
      assert.deepEqual(await signaled(h, 'w3'), [1, 2]);
    } finally {
      await h.close();
    }
  });

  test('a workflow task that would exceed maxPendingSignals to external workflows fails, naming the limit', async () => {
    const h = await harness({ limits: { maxPendingSignals: 2 } });
    try {
      await h.start('w4');
      const signal = (i: number): Command => ({
        commandType: 'SignalExternalWorkflowExecution', attributes: { signalId: String(i), workflowId: 'nobody', signalName: 's', args: [] },
      });
      await assert.rejects(h.complete(await h.pollWorkflow(), [signal(1), signal(2), signal(3)]), /maxPendingSignals/);
      const failed = (await h.history('w4')).find((e) => e.eventType === 'WorkflowTaskFailed');
      assert.ok(failed?.eventType === 'WorkflowTaskFailed');
      assert.match(failed.attributes.failure.message, /commands\[2\]\.attributes would exceed the limit of 2 pending signals to external workflows per run \(engine limit maxPendingSignals\)/);
      assert.ok(!(await h.types('w4')).includes('SignalExternalWorkflowExecutionInitiated'));
    } finally {
      await h.close();
    }
  });
});

describe('updates in the engine', () => {
  test('a rejected validation writes nothing; an accepted one writes Accepted, its completion Completed, and a repeated id gets the same outcome', async () => {
    const h = await harness();
    try {
      await h.start('u1');
      await h.complete(await h.pollWorkflow(), []);
      const before = await h.history('u1');
      const rejected = h.engine.updateWorkflowExecution({ workflowId: 'u1', updateName: 'set', args: [-1], updateId: 'bad' });
      const validation = await pollQuery(h);
      assert.deepEqual(validation.updateValidation, { updateId: 'bad', updateName: 'set', args: [-1] });
      assert.equal(validation.lastEventId, before.length);
      await h.engine.respondQueryTaskCompleted({
        taskToken: validation.taskToken, identity: 'worker-1', failure: { kind: 'Application', message: 'must be >= 0', type: 'Invalid' },
      });
      const res = await rejected;
      assert.equal(res.stage, 'Rejected');
      assert.equal(res.outcome?.failure?.message, 'must be >= 0');
      assert.deepEqual(await h.history('u1'), before, 'no event at all, not even a workflow task');
      await h.noWorkflowTask();

      const accepting = h.engine.updateWorkflowExecution({ workflowId: 'u1', updateName: 'set', args: [5], updateId: 'good' });
      await h.engine.respondQueryTaskCompleted({ taskToken: (await pollQuery(h)).taskToken, identity: 'worker-1' });
      assert.equal((await accepting).stage, 'Accepted');
      const task = await h.pollWorkflow();
      const accepted = task.history.find((e) => e.eventType === 'WorkflowExecutionUpdateAccepted');
      assert.ok(accepted?.eventType === 'WorkflowExecutionUpdateAccepted');
      assert.deepEqual(accepted.attributes.args, [5]);
      await h.complete(task, [{
        commandType: 'CompleteWorkflowExecutionUpdate', attributes: { updateId: 'good', acceptedEventId: accepted.eventId, outcome: { result: 'ok' } },
      }]);
      const done = await h.engine.pollWorkflowExecutionUpdate({ workflowId: 'u1', updateId: 'good', waitTimeoutMs: 1000 });
      assert.deepEqual(done.outcome, { result: 'ok' });
      const again = await h.engine.updateWorkflowExecution({ workflowId: 'u1', updateName: 'set', args: [99], updateId: 'good', waitForStage: 'Completed' });
      assert.equal(again.stage, 'Completed');
      assert.deepEqual(again.outcome, { result: 'ok' });
      const types = await h.types('u1');
      assert.equal(types.filter((t) => t === 'WorkflowExecutionUpdateAccepted').length, 1);
      assert.equal(types.filter((t) => t === 'WorkflowExecutionUpdateCompleted').length, 1);
    } finally {
      await h.close();
    }
  });

  test('admission refuses an update past maxInFlightUpdatesPerRun, naming the limit', async () => {
    const h = await harness({ messageLimits: { maxInFlightUpdatesPerRun: 1 } });
    try {
      await h.start('u2');
      await h.complete(await h.pollWorkflow(), []);
      const first = h.engine.updateWorkflowExecution({ workflowId: 'u2', updateName: 'set', args: [1], updateId: 'one' });
      await h.engine.respondQueryTaskCompleted({ taskToken: (await pollQuery(h)).taskToken, identity: 'worker-1' });
      assert.equal((await first).stage, 'Accepted');
      await assert.rejects(h.engine.updateWorkflowExecution({ workflowId: 'u2', updateName: 'set', args: [2], updateId: 'two' }), (err: unknown) => {
        assert.ok(err instanceof ServiceError);
        assert.equal(err.code, 'ResourceExhausted');
        assert.match(err.message, /already has 1 updates in flight, the limit per run \(maxInFlightUpdatesPerRun 1\)/);
        return true;
      });
    } finally {
      await h.close();
    }
  });

  test('a signal that arrives during validation makes the engine validate again against the newer state', async () => {
    const h = await harness();
    try {
      await h.start('u3');
      await h.complete(await h.pollWorkflow(), []);
      const update = h.engine.updateWorkflowExecution({ workflowId: 'u3', updateName: 'set', args: [1], updateId: 'u' });
      const firstValidation = await pollQuery(h);
      await h.engine.signalWorkflowExecution({ workflowId: 'u3', signalName: 's', args: ['meanwhile'] });
      await h.engine.respondQueryTaskCompleted({ taskToken: firstValidation.taskToken, identity: 'worker-1' });
      const secondValidation = await pollQuery(h);
      assert.ok(secondValidation.lastEventId > firstValidation.lastEventId, 'the second validation sees the signal');
      await h.engine.respondQueryTaskCompleted({ taskToken: secondValidation.taskToken, identity: 'worker-1' });
      assert.equal((await update).stage, 'Accepted');
    } finally {
      await h.close();
    }
  });
});

describe('queries in the engine', () => {
  test('a query waits for a running workflow task that holds buffered events, and writes nothing', async () => {
    const h = await harness();
    try {
      await h.start('q1');
      const task = await h.pollWorkflow();
      await h.engine.signalWorkflowExecution({ workflowId: 'q1', signalName: 's', args: ['x'] });
      const answer = h.engine.queryWorkflow({ workflowId: 'q1', queryType: 'state' });
      const early = await h.engine.pollQueryTaskQueue({ taskQueue: 'q', identity: 'worker-1', pollTimeoutMs: 50 });
      assert.equal(early, null, 'no query task while the signal is only buffered');
      await h.complete(task, []);
      const q = await pollQuery(h);
      const history = await h.history('q1');
      assert.equal(q.lastEventId, history.length, 'the query covers the signal');
      assert.deepEqual(q.query, { queryType: 'state', args: [] });
      await h.engine.respondQueryTaskCompleted({ taskToken: q.taskToken, identity: 'worker-1', result: { seen: ['x'] } });
      assert.deepEqual(await answer, { result: { seen: ['x'] } });
      assert.deepEqual(await h.history('q1'), history);
    } finally {
      await h.close();
    }
  });
});
