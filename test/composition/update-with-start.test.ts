/**
 * Update-with-start as Temporal's docs use it (the lazily started shopping cart), on SQLite and
 * PostgreSQL: a new run answers the update from its first workflow task; USE_EXISTING sends it
 * to the running run; FAIL refuses and writes nothing; a validator's rejection leaves the run
 * started; a fault between the start and the admission leaves neither; an operation is used once.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client, WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, WorkflowIdConflictPolicy, WorkflowNotFoundError, WorkflowUpdateFailedError,
  WorkflowUpdateStage, type WithStartWorkflowOptions, type WorkflowClientInterceptor,
} from '../../src/client/index.ts';
import { ValidationError } from '../../src/common/index.ts';
import { faults, FaultInjectedError } from '../../src/common/fault-points.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { addItem, checkout, noHandlers, shoppingCart } from '../fixtures/workflows/shopping-cart.ts';
import { silentLogger } from '../helpers/logger.ts';
import { backends, onBackend, fixture, types } from './helpers.ts';

const WORKFLOWS = fixture('shopping-cart.ts');

function count(events: HistoryEvent[], type: string): number {
  return events.filter((e) => e.eventType === type).length;
}

for (const backend of backends('update_with_start')) {
  describe(`update-with-start on ${backend.name}`, async () => {
    const s = await onBackend(backend);
    const { skip } = s;
    const queue = (name: string) => s.queue(`uws-${name}`);
    const worker = (taskQueue: string) => Worker.create({ connection: s.env.connection, taskQueue, workflowsPath: WORKFLOWS, logger: silentLogger });
    const cart = (taskQueue: string, workflowId: string, policy: WithStartWorkflowOptions['workflowIdConflictPolicy'] = 'USE_EXISTING') =>
      new WithStartWorkflowOperation(shoppingCart, { workflowId, taskQueue, args: ['ann'], workflowIdConflictPolicy: policy });

    test('a new run: the first workflow task runs the update; USE_EXISTING then updates the running run and starts none', { skip }, async () => {
      const taskQueue = queue('new');
      const workflowId = `cart-${taskQueue}`;
      const w = await worker(taskQueue);
      await w.runUntil(async () => {
        const op = cart(taskQueue, workflowId);
        const items = await s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['apple'], startWorkflowOperation: op });
        assert.deepEqual(items, ['apple']);
        const handle = await op.workflowHandle();
        assert.equal(handle.workflowId, workflowId);
        const events = (await handle.fetchHistory()).events;
        assert.deepEqual(types(events).slice(0, 6), [
          'WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowExecutionUpdateAdmitted', 'WorkflowTaskStarted', 'WorkflowTaskCompleted',
          'WorkflowExecutionUpdateCompleted',
        ], 'the start and the admission are one transition; the first workflow task completes the update');

        const again = cart(taskQueue, workflowId, WorkflowIdConflictPolicy.USE_EXISTING);
        const more = await s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['pear'], startWorkflowOperation: again });
        assert.deepEqual(more, ['apple', 'pear']);
        assert.equal((await again.workflowHandle()).firstExecutionRunId, handle.firstExecutionRunId, 'the running run took the update');
        assert.equal((await s.env.client.workflow.count(`WorkflowId = '${workflowId}'`)).count, 1, 'USE_EXISTING started no run');

        await handle.signal(checkout);
        assert.deepEqual(await handle.result(), { owner: 'ann', items: ['apple', 'pear'] });
      });
    });

    test('startUpdateWithStart returns at ACCEPTED; the handle gives the result; a repeated update id answers the first update', { skip }, async () => {
      const taskQueue = queue('start');
      const workflowId = `cart-${taskQueue}`;
      const w = await worker(taskQueue);
      await w.runUntil(async () => {
        const op = WithStartWorkflowOperation.create(shoppingCart, {
          workflowId, taskQueue, args: ['bo'], workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        });
        const update = await s.env.client.workflow.startUpdateWithStart(addItem, {
          args: ['fig'], updateId: 'fig-1', waitForStage: WorkflowUpdateStage.ACCEPTED, startWorkflowOperation: op,
        });
        assert.equal(update.updateId, 'fig-1');
        assert.equal(update.workflowId, workflowId);
        assert.deepEqual(await update.result(), ['fig']);
        const repeat = await s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['fig'], updateId: 'fig-1', startWorkflowOperation: cart(taskQueue, workflowId) });
        assert.deepEqual(repeat, ['fig'], 'the same update id is the same update');
        const handle = await op.workflowHandle();
        assert.equal(count((await handle.fetchHistory()).events, 'WorkflowExecutionUpdateAdmitted'), 1);
        await handle.signal(checkout);
        assert.deepEqual(await handle.result(), { owner: 'bo', items: ['fig'] });
      });
    });

    test('no worker yet: the call answers Admitted when its wait ends; polling for ACCEPTED then waits for the first workflow task', { skip }, async () => {
      const taskQueue = queue('admitted');
      const workflowId = `cart-${taskQueue}`;
      const res = await s.env.connection.updateWithStartWorkflowExecution({
        workflowId, workflowType: 'shoppingCart', taskQueue, args: ['eve'], workflowIdConflictPolicy: 'UseExisting',
        updateName: 'addItem', updateArgs: ['lime'], updateId: 'lime-1', timeoutMs: 20,
      });
      assert.equal(res.started, true);
      assert.equal(res.update.stage, 'Admitted', 'no workflow task has delivered the update');
      const w = await worker(taskQueue);
      await w.runUntil(async () => {
        const polled = await s.env.connection.pollWorkflowExecutionUpdate({ workflowId, updateId: 'lime-1', waitForStage: 'Accepted', waitTimeoutMs: 10_000 });
        assert.ok(polled.stage === 'Accepted' || polled.stage === 'Completed', `stage ${polled.stage}`);
        const handle = s.env.client.workflow.getHandle(workflowId);
        await handle.signal(checkout);
        assert.deepEqual(await handle.result(), { owner: 'eve', items: ['lime'] });
      });
    });

    test('FAIL with a running run: WorkflowExecutionAlreadyStartedError, workflowHandle() rejects, and no update is recorded', { skip }, async () => {
      const taskQueue = queue('fail');
      const workflowId = `cart-${taskQueue}`;
      const running = await s.env.client.workflow.start(shoppingCart, { workflowId, taskQueue, args: ['cy'] });
      const before = (await running.fetchHistory()).events.length;
      const op = cart(taskQueue, workflowId, 'FAIL');
      await assert.rejects(s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['kiwi'], startWorkflowOperation: op }),
        (err: unknown) => err instanceof WorkflowExecutionAlreadyStartedError && err.workflowId === workflowId);
      await assert.rejects(op.workflowHandle(), WorkflowExecutionAlreadyStartedError);
      const events = (await running.fetchHistory()).events;
      assert.equal(events.length, before, 'nothing written to the running run');
      assert.equal(count(events, 'WorkflowExecutionUpdateAdmitted'), 0);
      assert.equal((await s.env.client.workflow.count(`WorkflowId = '${workflowId}'`)).count, 1);
      await running.terminate('test over');
    });

    test('a validator that rejects fails the update with WorkflowUpdateFailedError and leaves the started run', { skip }, async () => {
      const taskQueue = queue('rejected');
      const workflowId = `cart-${taskQueue}`;
      const w = await worker(taskQueue);
      await w.runUntil(async () => {
        const op = cart(taskQueue, workflowId);
        await assert.rejects(s.env.client.workflow.executeUpdateWithStart(addItem, { args: [''], startWorkflowOperation: op }),
          (err: unknown) => err instanceof WorkflowUpdateFailedError && /non-empty string/.test(String((err as Error & { cause?: Error }).cause?.message ?? err.message)));
        const handle = await op.workflowHandle();
        assert.equal((await handle.describe()).status, 'Running');
        const items = await handle.executeUpdate(addItem, { args: ['plum'] });
        assert.deepEqual(items, ['plum'], 'the rejected item was never added');
        await handle.signal(checkout);
        assert.deepEqual(await handle.result(), { owner: 'ann', items: ['plum'] });
        // A replay validates the admitted update again and refuses it again: the same commands.
        await Worker.runReplayHistory({ workflowsPath: WORKFLOWS }, await handle.fetchHistory());
      });
    });

    test('an admitted update with no handler by the end of its first workflow task is rejected', { skip }, async () => {
      const taskQueue = queue('no-handler');
      const workflowId = `nh-${taskQueue}`;
      const w = await worker(taskQueue);
      await w.runUntil(async () => {
        const op = new WithStartWorkflowOperation(noHandlers, { workflowId, taskQueue, workflowIdConflictPolicy: 'FAIL' });
        await assert.rejects(s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['x'], startWorkflowOperation: op }),
          (err: unknown) => err instanceof WorkflowUpdateFailedError);
        const handle = await op.workflowHandle();
        await handle.signal(checkout);
        assert.equal(await handle.result(), 'done');
      });
    });

    test('a reset re-applies an admitted update after the reset point; the new run validates and runs it again', { skip }, async () => {
      const taskQueue = queue('reset');
      const workflowId = `cart-${taskQueue}`;
      const w = await worker(taskQueue);
      await w.runUntil(async () => {
        assert.deepEqual(await s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['apple'], startWorkflowOperation: cart(taskQueue, workflowId) }), ['apple']);
        assert.deepEqual(await s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['pear'], startWorkflowOperation: cart(taskQueue, workflowId) }),
          ['apple', 'pear']);
        const { runId } = await s.env.connection.resetWorkflowExecution({ workflowId, resetType: 'FirstWorkflowTask', reason: 'redo' });
        const reset = s.env.client.workflow.getHandle(workflowId, runId);
        await reset.signal(checkout);
        assert.deepEqual(await reset.result(), { owner: 'ann', items: ['apple', 'pear'] });
        assert.equal(count((await reset.fetchHistory()).events, 'WorkflowExecutionUpdateAdmitted'), 2);
      });
    });

    test('atomic: a fault between the start and the admission, or in the store commit, leaves neither', { skip }, async () => {
      const taskQueue = queue('atomic');
      const workflowId = `cart-${taskQueue}`;
      for (const point of ['engine.start.admit', 'store.commit'] as const) {
        faults.arm(point, { throw: true });
        try {
          await assert.rejects(s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['nut'], startWorkflowOperation: cart(taskQueue, workflowId) }),
            (err: unknown) => err instanceof FaultInjectedError && err.point === point);
        } finally {
          faults.disarm();
        }
        await assert.rejects(s.env.client.workflow.getHandle(workflowId).describe(), WorkflowNotFoundError, `${point}: no run was started`);
      }
      // On the running run: the admission faults, and its history is as it was.
      const running = await s.env.client.workflow.start(shoppingCart, { workflowId, taskQueue, args: ['di'] });
      const before = (await running.fetchHistory()).events.length;
      faults.arm('engine.start.admit', { throw: true });
      try {
        await assert.rejects(s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['nut'], startWorkflowOperation: cart(taskQueue, workflowId) }),
          FaultInjectedError);
      } finally {
        faults.disarm();
      }
      assert.equal((await running.fetchHistory()).events.length, before, 'no update admitted');
      // With TERMINATE_EXISTING: the running run is not terminated when the admission faults.
      faults.arm('engine.start.admit', { throw: true });
      try {
        await assert.rejects(s.env.client.workflow.executeUpdateWithStart(addItem, {
          args: ['nut'], startWorkflowOperation: cart(taskQueue, workflowId, 'TERMINATE_EXISTING'),
        }), FaultInjectedError);
      } finally {
        faults.disarm();
      }
      assert.equal((await running.describe()).status, 'Running');
      assert.equal((await s.env.client.workflow.count(`WorkflowId = '${workflowId}'`)).count, 1);
      await running.terminate('test over');
    });

    test('an operation is used by one call only; bad input names the field', { skip }, async () => {
      const taskQueue = queue('input');
      const workflowId = `cart-${taskQueue}`;
      const op = cart(taskQueue, workflowId, 'FAIL');
      const w = await worker(taskQueue);
      await w.runUntil(async () => {
        assert.deepEqual(await s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['a'], startWorkflowOperation: op }), ['a']);
      });
      await assert.rejects(s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['b'], startWorkflowOperation: op }), /already been executed/);
      const field = (name: string) => (err: unknown) => err instanceof ValidationError && err.field === name;
      assert.throws(() => new WithStartWorkflowOperation(shoppingCart, { workflowId, taskQueue } as never), field('workflowIdConflictPolicy'));
      assert.throws(() => new WithStartWorkflowOperation(shoppingCart, { taskQueue, workflowIdConflictPolicy: 'FAIL' } as never), field('workflowId'));
      assert.throws(() => new WithStartWorkflowOperation(shoppingCart, { workflowId, taskQueue, workflowIdConflictPolicy: 'FAIL', colour: 1 } as never),
        /colour/);
      await assert.rejects(s.env.client.workflow.startUpdateWithStart(addItem, {
        args: ['c'], waitForStage: 'COMPLETED' as never, startWorkflowOperation: cart(taskQueue, workflowId),
      }), field('waitForStage'));
      await assert.rejects(s.env.client.workflow.executeUpdateWithStart(addItem, { args: ['c'], startWorkflowOperation: {} as never }),
        field('startWorkflowOperation'));
      await assert.rejects(s.env.client.workflow.executeUpdateWithStart(addItem, { args: 'c' as never, startWorkflowOperation: cart(taskQueue, workflowId) }),
        field('args'));
      await assert.rejects(s.env.connection.updateWithStartWorkflowExecution({ workflowId, workflowType: 'shoppingCart', taskQueue, updateName: 'addItem' }),
        field('workflowIdConflictPolicy'));
      await assert.rejects(s.env.connection.updateWithStartWorkflowExecution({
        workflowId, workflowType: 'shoppingCart', taskQueue, updateName: 'addItem', workflowIdConflictPolicy: 'Fail', cronSchedule: '@hourly',
      }), field('cronSchedule'));
      await assert.rejects(s.env.connection.updateWithStartWorkflowExecution({
        workflowId, workflowType: 'shoppingCart', taskQueue, updateName: 7 as never, workflowIdConflictPolicy: 'Fail',
      }), field('updateName'));
    });

    test('over HTTP, a client interceptor sees startUpdateWithStart with the start and the update', { skip }, async () => {
      const taskQueue = queue('interceptor');
      const workflowId = `cart-${taskQueue}`;
      const seen: string[] = [];
      const interceptor: WorkflowClientInterceptor = {
        startUpdateWithStart: async (input, next) => {
          seen.push(`${input.workflowType}:${input.workflowStartOptions.workflowId}:${input.updateName}:${JSON.stringify(input.updateArgs)}`);
          const out = await next(input);
          seen.push(`run ${out.workflowExecution.runId === undefined ? 'none' : 'known'}`);
          return out;
        },
      };
      // Over HTTP: the call is a route of the server like its siblings.
      const client = new Client({ address: s.env.address, interceptors: { workflow: [interceptor] } });
      const w = await worker(taskQueue);
      await w.runUntil(async () => {
        const op = cart(taskQueue, workflowId);
        assert.deepEqual(await client.workflow.executeUpdateWithStart(addItem, { args: ['yam'], startWorkflowOperation: op }), ['yam']);
        await (await op.workflowHandle()).signal(checkout);
      });
      client.close();
      assert.deepEqual(seen, [`shoppingCart:${workflowId}:addItem:["yam"]`, 'run known']);
    });
  });
}
