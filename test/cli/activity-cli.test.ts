import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Worker } from '../../src/worker/index.ts';
import * as activities from '../fixtures/workflows/async-completion-activities.ts';
import { silentLogger } from '../helpers/logger.ts';
import { assertExit, assertOneLine, startDev } from './cli-helpers.ts';

const WORKFLOWS = fileURLToPath(new URL('../fixtures/workflows/async-completion.ts', import.meta.url));

test('steadfast activity complete and fail, by workflow id and activity id, as temporal activity', { timeout: 90_000 }, async () => {
  const { address, cli, client, close } = await startDev('steadfast-activity-cli-');
  try {
    const worker = await Worker.create({ address, taskQueue: 'cli-async', workflowsPath: WORKFLOWS, activities, logger: silentLogger });
    const paid = await client.workflow.start('charge', { taskQueue: 'cli-async', workflowId: 'cli-paid', args: ['o-1'] });
    const declined = await client.workflow.start('charge', { taskQueue: 'cli-async', workflowId: 'cli-declined', args: ['o-2'] });
    const results = await worker.runUntil(async () => {
      for (const h of [paid, declined]) {
        for (let i = 0; !activities.tokens.has(h.workflowId); i++) {
          assert.ok(i < 1000, `the activity of ${h.workflowId} started`);
          await new Promise((r) => setTimeout(r, 10));
        }
      }
      const { activityId } = (await paid.describe()).pendingActivities[0]!;
      const done = await cli('activity', 'complete', '--workflow-id', 'cli-paid', '--activity-id', activityId, '--result', '{"receipt":7}');
      assertExit(done, 0, 'activity complete');
      assert.equal(done.stdout, `Activity ${activityId} of workflow cli-paid completed.\n`);
      const failed = await cli('activity', 'fail', '-w', 'cli-declined', '--activity-id', activityId, '--reason', 'declined', '--detail', '"no funds"', '--identity', 'ops');
      assertExit(failed, 0, 'activity fail');
      return Promise.all([paid.result(), declined.result()]);
    });
    assert.deepEqual(results, [{ receipt: 7 }, 'failed:Error:declined:["no funds"]']);

    assertOneLine(await cli('activity', 'complete', '--workflow-id', 'cli-paid', '--activity-id', '1'), 1, /activity not found/, 'a closed activity');
    assertOneLine(await cli('activity', 'complete', '--workflow-id', 'cli-paid'), 2, /give --workflow-id and --activity-id$/, 'no activity id');
    assertOneLine(await cli('activity', 'complete', '-w', 'x', '--activity-id', '1', '--result', '{'), 2, /--result must be JSON/, 'bad JSON');
    assertOneLine(await cli('activity', 'pause', '-w', 'x', '--activity-id', '1'), 2, /unknown action "pause"/, 'an unknown action');
    const help = await cli('activity', '--help');
    assertExit(help, 0, 'activity --help');
    assert.match(help.stdout, /^Usage: steadfast activity <action>/);
  } finally {
    await close();
  }
});
