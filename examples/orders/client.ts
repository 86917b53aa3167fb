import { Client, WorkflowFailedError } from 'steadfast/client';
import { order } from './workflows.ts';

const client = new Client({ address: process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233' });
const orderId = process.argv[2] ?? `o-${Date.now()}`;
const handle = await client.workflow.start(order, { taskQueue: 'orders', workflowId: `order-${orderId}`, args: [orderId, 4200] });
console.log(`started order-${orderId}; waiting for the payment (retries take about 3 s)...`);
try {
  console.log(`paid: ${await handle.result()}`);
} catch (err) {
  if (!(err instanceof WorkflowFailedError)) throw err;
  console.log(`order failed: ${(err.cause as Error).message}`);
  process.exitCode = 1;
} finally {
  client.close();
}
