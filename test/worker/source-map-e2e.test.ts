import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { WorkflowFailedError } from '../../src/client/index.ts';

/** Stacks leave the sandbox in the workflow file's own lines, with steadfast's frames left out. */
const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/stacks.ts', import.meta.url));

describe('stack traces of workflow code name the workflow file and its lines', () => {
  let env: TestEnvironment;
  let worker: Worker;
  let running: Promise<void>;

  before(async () => {
    env = await TestEnvironment.createTimeSkipping();
    worker = await Worker.create({
      connection: env.connection, taskQueue: 'stacks', workflowsPath,
      logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    running = worker.run();
  });
  after(async () => {
    await worker.shutdown();
    await running;
    await env.teardown();
  });

  test('a workflow failure: its stack reads the helper and the workflow at their lines, nothing else', async () => {
    const handle = await env.client.workflow.start('failsOrder', { taskQueue: 'stacks', workflowId: 'fails-1', args: [500] });
    const err = await handle.result().then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof WorkflowFailedError, String(err));
    const stack = (err.cause as Error).stack!;
    const frames = stack.split('\n').filter((l) => /^\s+at /.test(l));
    assert.deepEqual(frames, [
      `    at checkOrder (${workflowsPath}:8:30)`,
      `    at failsOrder (${workflowsPath}:15:3)`,
    ], stack);
    const history = (await handle.fetchHistory()).events;
    const failed = history.find((e) => e.eventType === 'WorkflowExecutionFailed')!;
    assert.match(JSON.stringify(failed.attributes), /stacks\.ts:8:30/);
  });

  test('__stack_trace of a stuck workflow names the condition in the helper and the awaiting workflow line', async () => {
    const handle = await env.client.workflow.start('stuckOrder', { taskQueue: 'stacks', workflowId: 'stuck-1' });
    let stack = '';
    for (let i = 0; i < 500 && !stack.includes('stacks.ts'); i++) {
      stack = await handle.query<string, []>('__stack_trace').catch(() => '');
      if (!stack.includes('stacks.ts')) await new Promise((r) => setTimeout(r, 20));
    }
    const frames = stack.split('\n').filter((l) => /^\s+at /.test(l));
    assert.match(frames[0]!, new RegExp(`^ {4}at waitForRelease \\(${workflowsPath.replace(/[.]/g, '\\.')}:21:\\d+\\)$`), stack);
    assert.ok(frames.some((f) => f.includes(`${workflowsPath}:26:`)), stack);
    assert.ok(frames.every((f) => f.includes(workflowsPath)), `only the workflow file's frames:\n${stack}`);
    await handle.signal('release');
    await handle.result();
  });

  test('a failing workflow task: describe shows the bug at its line', async () => {
    const handle = await env.client.workflow.start('buggyOrder', { taskQueue: 'stacks', workflowId: 'buggy-1' });
    let stack: string | undefined;
    for (let i = 0; i < 500 && !stack; i++) {
      stack = (await handle.describe()).pendingWorkflowTask?.lastFailure?.stack;
      if (!stack) await new Promise((r) => setTimeout(r, 20));
    }
    assert.match(stack ?? '', new RegExp(`at buggyOrder \\(${workflowsPath.replace(/[.]/g, '\\.')}:31:\\d+\\)`), stack);
    await handle.terminate('done');
  });
});

describe('__temporal_workflow_metadata answers the handlers set, as Temporal does', () => {
  test('the type, the signal, query and update names, and currentDetails', async () => {
    const env = await TestEnvironment.createTimeSkipping();
    const worker = await Worker.create({
      connection: env.connection, taskQueue: 'meta', workflowsPath,
      logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const running = worker.run();
    try {
      const handle = await env.client.workflow.start('stuckOrder', { taskQueue: 'meta', workflowId: 'meta-1' });
      let meta: { definition: { type: string; signalDefinitions: unknown[]; queryDefinitions: unknown[]; updateDefinitions: unknown[] }; currentDetails: string } | undefined;
      for (let i = 0; i < 500 && !meta?.definition.signalDefinitions.length; i++) {
        meta = await handle.query<typeof meta, []>('__temporal_workflow_metadata').catch(() => undefined);
        if (!meta?.definition.signalDefinitions.length) await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(meta, {
        definition: {
          type: 'stuckOrder',
          queryDefinitions: [{ name: '__stack_trace' }, { name: '__temporal_workflow_metadata' }],
          signalDefinitions: [{ name: 'release' }],
          updateDefinitions: [],
        },
        currentDetails: '',
      });
      await handle.signal('release');
      await handle.result();
    } finally {
      await worker.shutdown();
      await running;
      await env.teardown();
    }
  });
});
