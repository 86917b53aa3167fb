/**
 * Type-level tests of the client: `tsc --noEmit` (npm run typecheck) fails if any
 * `@ts-expect-error` line below stops being an error, i.e. if starting a workflow with wrong
 * arguments, or reading its result as the wrong type, would compile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, type WorkflowHandle } from '../../src/client/index.ts';
import { order } from '../../examples/orders/workflows.ts';

async function noArgs(): Promise<number> {
  return 1;
}

export async function typeChecks(client: Client): Promise<void> {
  const handle: WorkflowHandle<typeof order> = await client.workflow.start(order, { taskQueue: 'q', args: ['o-1', 100] });
  const paid: string = await handle.result();
  void paid;
  const direct: string = await client.workflow.execute(order, { taskQueue: 'q', args: ['o-1', 100] });
  void direct;
  await client.workflow.start(noArgs, { taskQueue: 'q' });
  // @ts-expect-error order takes (string, number)
  await client.workflow.start(order, { taskQueue: 'q', args: [100, 'o-1'] });
  // @ts-expect-error order's arguments are required
  await client.workflow.start(order, { taskQueue: 'q' });
  // @ts-expect-error the result of order is a string
  const wrong: number = await client.workflow.execute(order, { taskQueue: 'q', args: ['o-1', 1] });
  void wrong;
  // @ts-expect-error taskQueue is required
  await client.workflow.start(order, { args: ['o-1', 1] });
  // @ts-expect-error the reuse policy is one of four names
  await client.workflow.start(order, { taskQueue: 'q', args: ['o-1', 1], workflowIdReusePolicy: 'Sometimes' });
  // @ts-expect-error durations are numbers of ms or strings
  await client.workflow.start(order, { taskQueue: 'q', args: ['o-1', 1], workflowExecutionTimeout: true });
  const bulk = await client.workflow.bulk({ query: "WorkflowType = 'order'", operation: { type: 'signal', signalName: 'go', args: [1] } });
  const failed: number = bulk.failed;
  void failed;
  await client.workflow.bulk({ query: "WorkflowType = 'order'", operation: { type: 'reset', resetType: 'LastWorkflowTask' } });
  // @ts-expect-error a bulk signal needs its signalName
  await client.workflow.bulk({ query: "WorkflowType = 'order'", operation: { type: 'signal' } });
  // @ts-expect-error a bulk reset goes to the first or last workflow task
  await client.workflow.bulk({ query: "WorkflowType = 'order'", operation: { type: 'reset', resetType: 'Middle' } });
  // @ts-expect-error terminate takes no signal name
  await client.workflow.bulk({ query: "WorkflowType = 'order'", operation: { type: 'terminate', signalName: 'go' } });
  // @ts-expect-error pause is not a bulk operation
  await client.workflow.bulk({ query: "WorkflowType = 'order'", operation: { type: 'pause' } });
  // @ts-expect-error the query is required
  await client.workflow.bulk({ operation: { type: 'cancel' } });
}

test('a Client needs an address or a connection, and says which', () => {
  // @ts-expect-error neither address nor connection
  assert.throws(() => new Client({}), /address must be given \(or a connection\)/);
  assert.throws(() => new Client({ address: 'ftp://x' }), /address must use http:\/\//);
});
