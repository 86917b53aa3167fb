import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { activityInfo } from '../../src/activity/index.ts';
import { ApplicationFailure } from '../../src/common/index.ts';
import { underReasons } from '../fixtures/workflows/error-reasons.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/error-reasons.ts', import.meta.url));
const pgSkip = await pgSkipReason('the PostgreSQL runs of test/worker/error-reasons-e2e.test.ts');

const attempts = new Map<string, number>();

const activities = {
  /** Fails every attempt with the error `kind` names; succeeds never. */
  async fail(key: string, kind: string): Promise<number> {
    attempts.set(key, activityInfo().attempt);
    switch (kind) {
      case 'TypeError': {
        const value = undefined as unknown as { field: { deeper: number } };
        return value.field.deeper;
      }
      case 'RangeError': throw new RangeError('bad length');
      case 'Error': throw new Error('plain');
      default: throw ApplicationFailure.create({ message: 'custom', type: kind });
    }
  },
};

for (const backend of ['SQLite', 'PostgreSQL'] as const) {
  describe(`Cadence's error reasons stop activity retries on ${backend}`, { skip: backend === 'PostgreSQL' && pgSkip ? pgSkip : false }, () => {
    let env: TestEnvironment;
    let schema: string | undefined;
    let n = 0;
    const logger = { debug() {}, info() {}, warn() {}, error() {} };

    before(async () => {
      if (backend === 'PostgreSQL') schema = freshSchema('error_reasons');
      env = await TestEnvironment.createTimeSkipping(schema ? { database: `${PG_URL}?schema=${schema}` } : {});
    });
    after(async () => {
      await env.teardown();
      if (schema) await dropSchema(schema);
    });

    /** Runs underReasons on a fresh queue; returns its outcome and the attempts the activity saw. */
    async function run(name: 'panic' | 'generic', kind: string): Promise<[string, number]> {
      const taskQueue = `${backend}-reasons-${++n}`;
      const w = await Worker.create({ address: env.address, taskQueue, workflowsPath, activities, logger });
      const outcome = await w.runUntil(env.client.workflow.execute(underReasons, { taskQueue, args: [name, taskQueue, kind] }));
      return [outcome, attempts.get(taskQueue)!];
    }

    test('cadenceInternal:Panic: an activity that throws a TypeError is not retried', async () => {
      assert.deepEqual(await run('panic', 'TypeError'), ['NonRetryableFailure: TypeError', 1]);
      assert.deepEqual(await run('panic', 'RangeError'), ['NonRetryableFailure: RangeError', 1]);
      assert.deepEqual(await run('panic', 'Error'), ['MaximumAttemptsReached: Error', 4]);
    });

    test('cadenceInternal:Generic: a plain Error is not retried; a panic and a custom error are', async () => {
      assert.deepEqual(await run('generic', 'Error'), ['NonRetryableFailure: Error', 1]);
      assert.deepEqual(await run('generic', 'TypeError'), ['MaximumAttemptsReached: TypeError', 4]);
      assert.deepEqual(await run('generic', 'CardDeclined'), ['MaximumAttemptsReached: CardDeclined', 4]);
    });
  });
}
