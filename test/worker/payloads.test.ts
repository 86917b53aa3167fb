import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ApplicationFailure, heartbeat } from '../../src/activity/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { fixtureTest } from '../helpers/fixture.ts';

fixtureTest('an activity result JSON cannot carry fails the attempt for good, naming it; bad heartbeat details throw; bad failure details are left out', async (f) => {
  const env = await f.env();
  const calls = { bigResult: 0, badHeartbeat: 0, badDetails: 0 };
  const worker = await Worker.create({
    address: env.address, taskQueue: 'payloads', logger: { debug() {}, info() {}, warn() {}, error() {} },
    workflowsPath: fileURLToPath(new URL('../fixtures/workflows/payloads.ts', import.meta.url)),
    activities: {
      async bigResult() {
        calls.bigResult++;
        return { amount: 10n };
      },
      async badHeartbeat() {
        calls.badHeartbeat++;
        heartbeat({ progress: () => 1 });
      },
      async badDetails() {
        calls.badDetails++;
        throw ApplicationFailure.nonRetryable('card declined', 'CardDeclined', { limit: 10n });
      },
    },
  });
  const result = await worker.runUntil(env.client.workflow.execute('activityPayloads', { taskQueue: 'payloads' }));
  assert.deepEqual(result, [
    ['PayloadError', 'result of activity bigResult.amount is a BigInt, which JSON cannot carry; convert it to a string or a number'],
    ['ValidationError', 'heartbeat details.progress is a function (progress), which JSON cannot carry'],
    ['CardDeclined', 'card declined (its details were left out: failure.details[0].limit is a BigInt, which JSON cannot carry; convert it to a string or a number)'],
  ]);
  // Non-retryable: one attempt, though the policy allows three; the heartbeat error is an ordinary failure.
  assert.deepEqual(calls, { bigResult: 1, badHeartbeat: 3, badDetails: 1 });
});
