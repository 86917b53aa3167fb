import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WithStartWorkflowOperation, WorkflowIdConflictPolicy, WorkflowUpdateFailedError } from 'steadfast/client';
import { TestEnvironment } from 'steadfast/testing';
import { Worker } from 'steadfast/worker';
import { addItem, checkout, shoppingCart } from './workflows.ts';

test('the first item starts the cart; later items go to the running cart', async () => {
  const env = await TestEnvironment.createTimeSkipping();
  try {
    const worker = await Worker.create({
      address: env.address,
      taskQueue: 'carts',
      workflowsPath: new URL('./workflows.ts', import.meta.url).pathname,
    });
    await worker.runUntil(async () => {
      const add = (item: string) => {
        const startWorkflowOperation = new WithStartWorkflowOperation(shoppingCart, {
          workflowId: 'cart-ada',
          taskQueue: 'carts',
          args: ['ada'],
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        });
        return { startWorkflowOperation, items: env.client.workflow.executeUpdateWithStart(addItem, { args: [item], startWorkflowOperation }) };
      };
      const first = add('tea');
      assert.deepEqual(await first.items, ['tea']);
      assert.deepEqual(await add('milk').items, ['tea', 'milk']);
      await assert.rejects(add(' ').items, WorkflowUpdateFailedError); // refused by the validator
      const cart = await first.startWorkflowOperation.workflowHandle();
      await cart.signal(checkout);
      assert.deepEqual(await cart.result(), { customer: 'ada', items: ['tea', 'milk'] });
    });
  } finally {
    await env.teardown();
  }
});
