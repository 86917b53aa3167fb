/**
 * Records the message histories of the replay corpus (test/histories/messages-*.json) from the
 * fixture workflows in test/fixtures/workflows/messages.ts, on a time-skipping environment.
 * Run once after a deliberate change of those fixtures: `node --import tsx scripts/record-message-histories.ts`.
 * The corpus test replays the recorded files against the current fixture code on every run.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../src/testing/index.ts';
import { Worker } from '../src/worker/index.ts';
import type { WorkflowHandle } from '../src/client/index.ts';
import { addItem, collector, finish, limiter, setLimit, signaller } from '../test/fixtures/workflows/messages.ts';

const root = new URL('../', import.meta.url);
const workflowsPath = fileURLToPath(new URL('test/fixtures/workflows/messages.ts', root));

async function save(name: string, handle: WorkflowHandle): Promise<void> {
  const history = await handle.fetchHistory();
  writeFileSync(new URL(`test/histories/${name}.json`, root), `${JSON.stringify(history, null, 2)}\n`);
  console.log(`test/histories/${name}.json: ${history.events.length} events`);
}

const env = await TestEnvironment.createTimeSkipping();
try {
  const taskQueue = 'record-messages';
  const worker = await Worker.create({ address: env.address, taskQueue, workflowsPath, activities: { echo: async (s: string) => s } });
  await worker.runUntil(async () => {
    const signals = await env.client.workflow.start(collector, { taskQueue, workflowId: 'signals', args: [60_000] });
    await signals.signal(addItem, 'a');
    await signals.signal(addItem, 'b');
    await signals.signal(finish);
    await signals.result();
    await save('messages-signals', signals);

    const target = await env.client.workflow.start(collector, { taskQueue, workflowId: 'external-target', args: [0] });
    const sender = await env.client.workflow.start(signaller, { taskQueue, workflowId: 'external-sender', args: ['external-target'] });
    await Promise.all([target.result(), sender.result()]);
    await save('messages-external-signal', sender);
    await save('messages-external-signal-target', target);

    const sws = await env.client.workflow.signalWithStart(collector, { taskQueue, workflowId: 'sws', args: [0], signal: addItem, signalArgs: ['first'] });
    await env.client.workflow.signalWithStart(collector, { taskQueue, workflowId: 'sws', args: [0], signal: addItem, signalArgs: ['second'] });
    await sws.signal(finish);
    await sws.result();
    await save('messages-signal-with-start', sws);

    const updates = await env.client.workflow.start(limiter, { taskQueue, workflowId: 'updates' });
    await updates.executeUpdate(setLimit, { args: [5] });
    await updates.executeUpdate(setLimit, { args: [-1] }).catch(() => undefined);
    await updates.executeUpdate(setLimit, { args: [13] }).catch(() => undefined);
    await updates.executeUpdate(setLimit, { args: [8] });
    await updates.signal(finish);
    await updates.result();
    await save('messages-updates', updates);
  });
} finally {
  await env.teardown();
}
