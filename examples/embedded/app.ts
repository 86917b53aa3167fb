import { Client } from 'steadfast/client';
import { Engine } from 'steadfast/server';
import { Worker } from 'steadfast/worker';
import * as activities from './activities.ts';

// The engine runs in this process, on a database it opens (and closes on shutdown).
const engine = await Engine.open(process.env.DATABASE ?? 'sqlite:app.sqlite');
const worker = await Worker.create({
  connection: engine,
  taskQueue: 'checkout',
  workflowsPath: new URL('./workflows.ts', import.meta.url).pathname,
  activities,
});
const client = new Client({ connection: engine });

const orderId = process.argv[2] ?? 'o-1';
const result = await worker.runUntil(async () => {
  // The first workflow task comes back with the start and runs in this process's worker.
  const handle = await client.workflow.start('checkout', {
    taskQueue: 'checkout', workflowId: `checkout-${orderId}`, args: [orderId, 4200], requestEagerStart: true,
  });
  return handle.result();
});
console.log(result);
await engine.shutdown();
