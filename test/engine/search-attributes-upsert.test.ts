import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import type { Command } from '../../src/history/commands.ts';
import { cmd } from './helpers.ts';

const upsert = (searchAttributes: unknown): Command => ({ commandType: 'UpsertWorkflowSearchAttributes', attributes: { searchAttributes } as never });

fixtureTest('only a completion that carries search attributes reads the namespace\'s registrations', async (f) => {
  const h = await f.engine();
  await h.engine.createSearchAttribute({ namespace: 'default', name: 'CustomerId', type: 'Keyword' });
  let reads = 0;
  const list = h.store.listSearchAttributes.bind(h.store);
  h.store.listSearchAttributes = (namespace) => {
    reads++;
    return list(namespace);
  };
  await h.start('wf-plain', { searchAttributes: { CustomerId: 'c1' } });
  reads = 0;
  await h.complete(await h.pollWorkflow(), [cmd.timer('1', 1000)]);
  await h.advance(1000);
  await h.complete(await h.pollWorkflow(), [cmd.activity('a')]);
  assert.equal(reads, 0, 'a run that does not upsert pays no read per transition');
  await h.start('wf-upsert');
  reads = 0;
  await h.complete(await h.pollWorkflow(), [upsert({ CustomerId: ['c2'] }), cmd.timer('1', 1000)]);
  assert.equal(reads, 1);
  assert.deepEqual((await h.engine.describeWorkflowExecution({ workflowId: 'wf-upsert' })).execution.searchAttributes, { CustomerId: 'c2' });
});

fixtureTest('a reset run has the start\'s attributes with the upserts before the reset point, not those after', async (f) => {
  const h = await f.engine();
  await h.engine.createSearchAttribute({ namespace: 'default', name: 'CustomerId', type: 'Keyword' });
  await h.engine.createSearchAttribute({ namespace: 'default', name: 'Stage', type: 'Int' });
  await h.start('wf-reset', { searchAttributes: { CustomerId: 'c1' } });
  await h.complete(await h.pollWorkflow(), [upsert({ Stage: 1 }), cmd.timer('1', 1000)]);
  await h.advance(1000);
  await h.complete(await h.pollWorkflow(), [upsert({ Stage: 2, CustomerId: null }), cmd.timer('2', 1000)]);
  const before = await h.engine.describeWorkflowExecution({ workflowId: 'wf-reset' });
  assert.deepEqual(before.execution.searchAttributes, { Stage: 2 });
  const { runId } = await h.engine.resetWorkflowExecution({ workflowId: 'wf-reset', resetType: 'LastWorkflowTask', reason: 'redo' });
  const after = await h.engine.describeWorkflowExecution({ workflowId: 'wf-reset', runId });
  assert.deepEqual(after.execution.searchAttributes, { CustomerId: 'c1', Stage: 1 });
  const listed = await h.engine.listWorkflowExecutions({ query: 'Stage = 1' });
  assert.deepEqual(listed.executions.map((e) => e.runId), [runId]);
});

fixtureTest('an upsert without an object of attributes fails the task naming the option', async (f) => {
  const h = await f.engine();
  await h.start('wf-bad');
  await assert.rejects(h.complete(await h.pollWorkflow(), [upsert(['x'])]), /upsertSearchAttributes must be an object of attribute name to value/);
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'wf-bad' });
  assert.equal(d.execution.status, 'Running');
  assert.equal(d.pendingWorkflowTask?.lastFailure?.cause, 'BadCommand');
});

fixtureTest('continue-as-new with searchAttributes {} starts the next run without any; without the option it keeps them', async (f) => {
  const h = await f.engine();
  await h.engine.createSearchAttribute({ namespace: 'default', name: 'CustomerId', type: 'Keyword' });
  await h.start('wf-can', { searchAttributes: { CustomerId: 'c1' } });
  const can = (attributes: Record<string, unknown>): Command => ({ commandType: 'ContinueAsNewWorkflowExecution', attributes: { args: [], ...attributes } });
  await h.complete(await h.pollWorkflow(), [can({})]);
  const second = await h.engine.describeWorkflowExecution({ workflowId: 'wf-can' });
  assert.deepEqual(second.execution.searchAttributes, { CustomerId: 'c1' });
  await h.complete(await h.pollWorkflow(), [can({ searchAttributes: {} })]);
  const third = await h.engine.describeWorkflowExecution({ workflowId: 'wf-can' });
  assert.notEqual(third.execution.runId, second.execution.runId);
  assert.equal(third.execution.searchAttributes, undefined);
});
