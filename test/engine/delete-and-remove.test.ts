/** deleteWorkflowExecution and removeSearchAttributes, on both stores. */
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/errors/index.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { engineStores } from './stores.ts';
import { cmd } from './helpers.ts';

const stores = await engineStores('delete and remove', 'sf_delete');

/** The service error code a call answered (a ValidationError is the server's InvalidArgument). */
const code = async (p: Promise<unknown>) => p.then(() => 'ok', (err: unknown) =>
  (err instanceof ValidationError ? 'InvalidArgument' : (err as { code?: string }).code ?? String(err)));

for (const s of stores) {
  fixtureTest(`${s.name}: deleting a running run terminates it, then removes it with its history and visibility record`, { skip: s.skip }, async (f) => {
    const h = await f.engine(await s.open(f));
    await h.start('wf-running');
    await h.complete(await h.pollWorkflow(), [cmd.timer('t', 60_000)]);
    await h.start('wf-other');
    await h.engine.deleteWorkflowExecution({ workflowId: 'wf-running' });
    assert.equal(await code(h.engine.describeWorkflowExecution({ workflowId: 'wf-running' })), 'NotFound');
    assert.equal(await code(h.engine.getWorkflowExecutionHistory({ workflowId: 'wf-running' })), 'NotFound');
    assert.equal((await h.engine.countWorkflowExecutions({ query: "WorkflowId = 'wf-running'" })).count, 0);
    // The timer of the deleted run does not fire into nothing: advancing past it leaves the other run alone.
    await h.advance(61_000);
    assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'wf-other' })).execution.status, 'Running');
    assert.equal(await code(h.engine.deleteWorkflowExecution({ workflowId: 'wf-running' })), 'NotFound');
    // The id is free again.
    await h.start('wf-running');
    assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'wf-running' })).execution.status, 'Running');
  });

  fixtureTest(`${s.name}: a closed run is deleted as it is; other runs of the workflow id stay`, { skip: s.skip }, async (f) => {
    const h = await f.engine(await s.open(f));
    const first = await h.start('wf-closed');
    await h.complete(await h.pollWorkflow(), [cmd.complete('one')]);
    await h.start('wf-closed');
    await h.engine.deleteWorkflowExecution({ workflowId: 'wf-closed', runId: first.runId });
    assert.equal(await code(h.engine.describeWorkflowExecution({ workflowId: 'wf-closed', runId: first.runId })), 'NotFound');
    assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'wf-closed' })).execution.status, 'Running');
  });

  fixtureTest(`${s.name}: removing a search attribute empties its values and frees its slot for another`, { skip: s.skip }, async (f) => {
    const h = await f.engine(await s.open(f));
    await h.engine.createSearchAttribute({ namespace: 'default', name: 'CustomerId', type: 'Keyword' });
    await h.start('wf-sa', { searchAttributes: { CustomerId: 'c-1' } });
    assert.equal((await h.engine.countWorkflowExecutions({ query: "CustomerId = 'c-1'" })).count, 1);
    assert.equal(await code(h.engine.removeSearchAttributes({ names: ['CustomerId', 'Nope'] })), 'NotFound');
    assert.equal(await code(h.engine.removeSearchAttributes({ names: ['WorkflowType'] })), 'InvalidArgument');
    assert.deepEqual((await h.engine.listSearchAttributes({})).custom.map((a) => a.name), ['CustomerId'], 'nothing removed by a refused call');
    await h.engine.removeSearchAttributes({ names: ['CustomerId'] });
    assert.deepEqual((await h.engine.listSearchAttributes({})).custom, []);
    assert.equal(await code(h.engine.countWorkflowExecutions({ query: "CustomerId = 'c-1'" })), 'InvalidArgument');
    await h.engine.createSearchAttribute({ namespace: 'default', name: 'Region', type: 'Keyword' });
    assert.equal((await h.engine.countWorkflowExecutions({ query: "Region = 'c-1'" })).count, 0, 'the freed slot holds no old value');
  });
}
