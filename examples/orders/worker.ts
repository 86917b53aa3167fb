import { Worker } from 'steadfast/worker';
import * as activities from './activities.ts';

const worker = await Worker.create({
  address: process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233',
  taskQueue: 'orders',
  workflowsPath: new URL('./workflows.ts', import.meta.url).pathname,
  activities,
});
console.log('orders worker polling task queue "orders" (Ctrl+C to stop)');
process.once('SIGINT', () => void worker.shutdown());
process.once('SIGTERM', () => void worker.shutdown());
await worker.run();
