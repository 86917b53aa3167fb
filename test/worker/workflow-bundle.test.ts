/**
 * bundleWorkflowCode and WorkerOptions.workflowBundle as Temporal's docs use them (only the
 * imports changed): a bundle made ahead of time, passed as `{ code }` or written to a file and
 * passed as `{ codePath }`, runs workflows with their stacks still in the source file's lines.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, Worker } from '../../src/worker/index.ts';
import { TestEnvironment } from '../../src/testing/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { WorkflowFailedError } from '../../src/client/index.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/stacks.ts', import.meta.url));
const quiet = () => undefined;
const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet };
let env: TestEnvironment;
const dir = mkdtempSync(join(tmpdir(), 'sf-bundle-'));

before(async () => {
  env = await TestEnvironment.createLocal();
});
after(async () => {
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

test('a bundle made by bundleWorkflowCode runs, from { code } and from { codePath }, its stacks in the source lines', async () => {
  const { code } = await bundleWorkflowCode({ workflowsPath });
  assert.equal(typeof code, 'string');
  const codePath = join(dir, 'workflow-bundle.js');
  writeFileSync(codePath, code);
  for (const [name, workflowBundle] of [['code', { code }], ['codePath', { codePath }]] as const) {
    const taskQueue = `bundle-${name}`;
    const worker = await Worker.create({ connection: env.connection, taskQueue, workflowBundle, activities: { noop: async (i: number) => i }, logger });
    await worker.runUntil(async () => {
      assert.equal(await env.client.workflow.execute('manyActivities', { taskQueue, workflowId: `many-${name}`, args: [3] }), 3);
      const err = await env.client.workflow.execute('failsOrder', { taskQueue, workflowId: `fails-${name}`, args: [500] }).then(
        () => assert.fail('the workflow should fail'), (e: unknown) => e);
      assert.ok(err instanceof WorkflowFailedError);
      const stack = String((err.cause as Error).stack);
      assert.match(stack, new RegExp(`at checkOrder \\(${workflowsPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:8:30\\)`), stack);
    });
  }
});

test('workflowBundle is checked: one of code and codePath, a bundle bundleWorkflowCode made, not beside workflowsPath', async () => {
  const { code } = await bundleWorkflowCode({ workflowsPath });
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ workflowBundle: { code }, workflowsPath }, /^workflowBundle cannot be given with workflowsPath/],
    [{ workflowBundle: { code, codePath: 'x' } }, /^workflowBundle must be \{ code \} from bundleWorkflowCode or \{ codePath \}/],
    [{ workflowBundle: 'code' }, /^workflowBundle must be/],
    [{ workflowBundle: { code: 'module.exports = {}' } }, /^workflowBundle\.code must be a bundle made by bundleWorkflowCode/],
    [{ workflowBundle: { codePath: join(dir, 'missing.js') } }, /^workflowBundle\.codePath must name a readable file/],
  ];
  for (const [options, message] of cases) {
    await assert.rejects(Worker.create({ connection: env.connection, taskQueue: 'bad', logger, ...options } as never),
      (err: unknown) => err instanceof ValidationError && message.test(err.message), JSON.stringify(Object.keys(options)));
  }
  await assert.rejects(bundleWorkflowCode({ workflowsPath: '' }), (err: unknown) => err instanceof ValidationError && err.field === 'workflowsPath');
});
