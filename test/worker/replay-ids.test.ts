import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DeterminismViolationError } from '../../src/common/errors.ts';
import { Replayer } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { backends, fixture } from '../composition/helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

const workflowsPath = fixture('replay-ids.ts');

for (const backend of backends('replay_ids')) {
  describe(`a saved history carries its run's ids on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    after(() => backend.cleanup());

    // Regression: the Replayer ran every history as workflow id "replay", so a workflow that names
    // its child after its own id produced StartChildWorkflowExecution "replay-child" and was reported
    // non-deterministic against its own history.
    test('fetchHistory() gives workflowId and runId, and the Replayer replays with them', { skip }, async () => {
      const env = await backend.env();
      try {
        const worker = await Worker.create({ address: env.address, taskQueue: 'ids', workflowsPath, logger: silentLogger });
        const handle = await env.client.workflow.start('namesItsChild', { taskQueue: 'ids', workflowId: 'parent-7' });
        assert.equal(await worker.runUntil(handle.result()), 'parent-7');
        const history = await handle.fetchHistory();
        assert.equal(history.workflowId, 'parent-7');
        assert.equal(history.runId, (await handle.describe()).runId, 'the latest run, for a handle without a run id');
        await Replayer.replayHistory(history, { workflowsPath });
        await Replayer.replayHistory(JSON.parse(JSON.stringify(history)) as typeof history, { workflowsPath });
        const [result] = await Replayer.replayHistories([history], { workflowsPath });
        assert.deepEqual([result!.workflowId, result!.error], ['parent-7', undefined]);
        // A bare event list has no ids: the workflow id must be given, or the replay differs.
        await assert.rejects(Replayer.replayHistory(history.events, { workflowsPath }), DeterminismViolationError);
        await Replayer.replayHistory(history.events, { workflowsPath, workflowId: 'parent-7' });
      } finally {
        await env.teardown();
      }
    });
  });
}
