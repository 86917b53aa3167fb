import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { bundleWorkflows, WorkflowBundleError } from '../../src/worker/bundler.ts';
import { WorkflowTaskFailedError } from '../../src/worker/workflow-run.ts';
import { harness } from '../workflow/harness.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/workflows/${name}`, import.meta.url));

test('importing a Node built-in that does I/O fails at bundle time, naming the import and the file', async () => {
  await assert.rejects(bundleWorkflows(fixture('imports-fs.ts')), (err: unknown) => {
    assert.ok(err instanceof WorkflowBundleError);
    assert.match(err.message, /may not import the Node built-in 'node:fs' \(imported from .*test\/fixtures\/workflows\/imports-fs\.ts\): it does I\/O/);
    return true;
  });
});

test('importing steadfast/worker from workflow code fails at bundle time', async () => {
  await assert.rejects(bundleWorkflows(fixture('imports-worker.ts')),
    /workflow code may not import 'steadfast\/worker' \(imported from .*imports-worker\.ts\): it runs outside the workflow sandbox/);
});

test('a missing workflows file is a validation error naming workflowsPath', async () => {
  await assert.rejects(bundleWorkflows(fixture('does-not-exist.ts')), /workflowsPath must name an existing file/);
});

test('the bundle is cached per path, and the runtime is one copy whichever way it is imported', async () => {
  const a = await bundleWorkflows(fixture('relative-import.ts'));
  assert.equal(await bundleWorkflows(fixture('relative-import.ts')), a);
  // The runtime is built apart, once; the module only requires it, by its public name both ways.
  assert.equal(a.runtimeCode.match(/var Activator = class/g)?.length, 1);
  assert.equal(a.code.match(/var Activator = class/g), null);
  assert.deepEqual([...new Set(a.code.match(/require\("[^"]+"\)/g))], ['require("steadfast/workflow")']);
  const h = await harness({ workflowType: 'mixedImports' }, fixture('relative-import.ts'));
  assert.deepEqual((await h.next()).map((c) => c.commandType), ['StartTimer']);
  h.history.timerFired('1');
  assert.deepEqual(await h.next(), [{ commandType: 'CompleteWorkflowExecution', attributes: { result: 'mixedImports' } }]);
});

test('invalid activity options fail the workflow task when the module loads, naming the option', async () => {
  const h = await harness({ workflowType: 'neverRuns' }, fixture('bad-options.ts'));
  await assert.rejects(h.next(), (err: unknown) => {
    assert.ok(err instanceof WorkflowTaskFailedError);
    assert.match(err.message, /retry\.maximumAttempts must be >= 0 .*got -1/);
    return true;
  });
});

// Regression: steadfast's entry points were external to esbuild, so an import of a name they do
// not export bundled fine and every workflow task then failed with "undefined is not a function".
test('importing a name steadfast/workflow does not export fails at bundle time, naming the import and where', async () => {
  await assert.rejects(bundleWorkflows(fixture('imports-missing-name.ts')), (err: unknown) => {
    assert.ok(err instanceof WorkflowBundleError);
    assert.match(err.message, /'steadfast\/workflow' has no export named 'proxySinks': steadfast does not provide it .*\[.*imports-missing-name\.ts:6\]/);
    return true;
  });
  await assert.rejects(bundleWorkflows(fixture('imports-missing-member.ts')),
    /'steadfast\/workflow' has no export named 'proxySinks'.*\[.*imports-missing-member\.ts:7\]/);
});

test('every name the entry points export can be imported, types too', async () => {
  const bundle = await bundleWorkflows(fixture('temporal-api.ts'));
  assert.ok(bundle.code.includes('require("steadfast/workflow")'));
});
