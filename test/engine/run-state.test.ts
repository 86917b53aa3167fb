import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RUN_STATE_VERSION, runStateOf } from '../../src/engine/core/state.ts';
import { cmd, FEATURES, setup } from './helpers.ts';

/** A run's row as the engine wrote it before the run state had a version: no `v`, no feature slices. */
function versionOneState(state: Record<string, unknown>): Record<string, unknown> {
  const { v: _v, messages: _m, children: _c, cancelRequests: _r, ...rest } = state;
  return rest;
}

test('a row written before the run state had a version reads as the current version and takes signals, children and describe', async () => {
  const h = await setup();
  const { runId } = await h.start('wf-v1');
  const rec = (await h.store.getExecution(runId))!;
  assert.equal((rec.state as { v?: number }).v, RUN_STATE_VERSION);
  await h.store.commit({
    executions: [{ record: { ...rec, version: rec.version + 1, state: versionOneState(rec.state as Record<string, unknown>) }, events: [], expectedVersion: rec.version }],
  });
  const old = (await h.store.getExecution(runId))!;
  const read = runStateOf(old, FEATURES.slices);
  assert.equal(read.v, RUN_STATE_VERSION);
  assert.deepEqual([read.messages, read.children, read.cancelRequests],
    [{ signalCount: 0, signalRequestIds: [], externalSignals: {}, updates: {} }, {}, {}]);
  assert.equal((old.state as { v?: number }).v, undefined, 'reading migrates a copy, not the row');

  await h.engine.signalWorkflowExecution({ workflowId: 'wf-v1', signalName: 'go', args: [1], requestId: 'sig-1' });
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'wf-v1' });
  assert.deepEqual(d.pendingChildren, []);
  const after = runStateOf((await h.store.getExecution(runId))!, FEATURES.slices);
  assert.deepEqual([after.v, after.messages.signalCount, after.messages.signalRequestIds], [RUN_STATE_VERSION, 1, ['sig-1']]);
  await h.complete(await h.pollWorkflow(), [cmd.complete('done')]);
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'wf-v1' })).execution.status, 'Completed');
  await h.close();
});

test('a row of a run state version newer than the engine knows is refused, naming the versions', () => {
  assert.throws(() => runStateOf({ state: { v: RUN_STATE_VERSION + 1 } }, FEATURES.slices),
    new RegExp(`run state version ${RUN_STATE_VERSION + 1} is not one this engine reads \\(it reads 1 to ${RUN_STATE_VERSION}\\)`));
});
