import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import type { Command } from '../../src/history/commands.ts';
import { cmd } from './helpers.ts';

const upsert = (upsertedMemo: unknown): Command => ({ commandType: 'ModifyWorkflowProperties', attributes: { upsertedMemo } as never });

fixtureTest('ModifyWorkflowProperties merges into the memo (null removes a key), records the event, and shows in describe and list', async (f) => {
  const h = await f.engine();
  await h.start('wf-memo', { memo: { a: 1, b: 2 } });
  await h.complete(await h.pollWorkflow(), [upsert({ b: null, c: { deep: true } }), cmd.timer('1', 1000)]);
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'wf-memo' });
  assert.deepEqual(d.execution.memo, { a: 1, c: { deep: true } });
  const listed = await h.engine.listWorkflowExecutions({ workflowIdPrefix: 'wf-memo' });
  assert.deepEqual(listed.executions.map((e) => e.memo), [{ a: 1, c: { deep: true } }]);
  const modified = (await h.history('wf-memo')).find((e) => e.eventType === 'WorkflowPropertiesModified');
  assert.ok(modified?.eventType === 'WorkflowPropertiesModified');
  assert.deepEqual(modified.attributes, { upsertedMemo: { b: null, c: { deep: true } }, workflowTaskCompletedEventId: modified.eventId - 1 });
  await h.advance(1000);
  await h.complete(await h.pollWorkflow(), [upsert({ a: null, c: null }), cmd.complete('done')]);
  const closed = await h.engine.describeWorkflowExecution({ workflowId: 'wf-memo' });
  assert.equal(closed.execution.memo, undefined, 'removing every key leaves no memo');
});

fixtureTest('a ModifyWorkflowProperties without an object fails the workflow task naming the field', async (f) => {
  const h = await f.engine();
  await h.start('wf-bad-memo');
  await assert.rejects(h.complete(await h.pollWorkflow(), [upsert('x')]),
    /commands\[0\]\.attributes\.upsertedMemo must be an object/);
  const failed = (await h.history('wf-bad-memo')).find((e) => e.eventType === 'WorkflowTaskFailed');
  assert.ok(failed?.eventType === 'WorkflowTaskFailed');
  assert.equal(failed.attributes.cause, 'BadCommand');
});
