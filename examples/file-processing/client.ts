import { Client } from 'steadfast/client';
import { fileProcessing } from './workflows.ts';

const client = new Client({ address: process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233' });
const handle = await client.workflow.start(fileProcessing, { taskQueue: 'files', args: ['report.csv'] });
console.log('processing report.csv; the first attempt fails halfway and the retry resumes...');
console.log(`items processed by the final attempt: ${await handle.result()}`);
const { events } = await handle.fetchHistory();
const started = events.find((e) => e.eventType === 'ActivityTaskStarted');
console.log(`attempts: ${started?.eventType === 'ActivityTaskStarted' ? started.attributes.attempt : '?'}`);
client.close();
