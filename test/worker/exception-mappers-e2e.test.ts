import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker, type WorkerOptions } from '../../src/worker/index.ts';
import { resolveWorkerOptions } from '../../src/worker/worker-options.ts';
import { resolveActivityOptions } from '../../src/workflow/proxy-activities.ts';
import { activityInfo } from '../../src/activity/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { underMapper, type MapperCase } from '../fixtures/workflows/exception-mappers.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

/**
 * Regression: horsies' exception mapper and default error code worked only for the standalone
 * retry(); an engine activity's failure got its code from the process-wide mapper alone, so a
 * policy's autoRetryFor could not be fed per activity or per worker. The seed's order:
 * 1. the task's mapper, 2. the global (worker's) mapper, 3. the task's default code,
 * 4. the global default code, else UNHANDLED_EXCEPTION.
 */

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/exception-mappers.ts', import.meta.url));
const pgSkip = await pgSkipReason('the PostgreSQL runs of test/worker/exception-mappers-e2e.test.ts');

class TimeoutError extends Error {}
class Unlisted extends Error {}

const attempts = new Map<string, number>();
const activities = {
  async fail(key: string, kind: string): Promise<number> {
    attempts.set(key, activityInfo().attempt);
    switch (kind) {
      case 'TimeoutError': throw new TimeoutError('too slow');
      case 'TypeError': throw new TypeError('bad input');
      case 'RangeError': throw new RangeError('out of range');
      default: throw new Unlisted('unlisted');
    }
  },
};

for (const backend of ['SQLite', 'PostgreSQL'] as const) {
  describe(`exception mappers of engine activities on ${backend}`, { skip: backend === 'PostgreSQL' && pgSkip ? pgSkip : false }, () => {
    let env: TestEnvironment;
    let schema: string | undefined;
    let n = 0;
    const logger = { debug() {}, info() {}, warn() {}, error() {} };

    before(async () => {
      if (backend === 'PostgreSQL') schema = freshSchema('exception_mappers');
      env = await TestEnvironment.createTimeSkipping(schema ? { database: `${PG_URL}?schema=${schema}` } : {});
    });
    after(async () => {
      await env.teardown();
      if (schema) await dropSchema(schema);
    });

    /** Runs underMapper on a fresh queue; its outcome, the attempts made, and the workflow id. */
    async function run(name: MapperCase, kind: string, extra: Partial<WorkerOptions> = {}): Promise<[string, number, string]> {
      const taskQueue = `${backend}-mappers-${++n}`;
      const w = await Worker.create({ address: env.address, taskQueue, workflowsPath, activities, logger, ...extra });
      const outcome = await w.runUntil(env.client.workflow.execute(underMapper, { taskQueue, workflowId: taskQueue, args: [name, taskQueue, kind] }));
      return [outcome, attempts.get(taskQueue)!, taskQueue];
    }

    const global = { exceptionMapper: [[RangeError, 'TRANSIENT'], [TimeoutError, 'GLOBAL_TIMEOUT']] as const, defaultUnhandledErrorCode: 'GLOBAL_DEFAULT' };

    test('1. the task mapper wins over the worker mapper; its code is the failure\'s type and errorCode', async () => {
      assert.deepEqual((await run('taskMap', 'TimeoutError', global)).slice(0, 2), ['MaximumAttemptsReached: TIMEOUT TIMEOUT', 4]);
      const [outcome, tries, workflowId] = await run('taskMap', 'TypeError', global);
      assert.deepEqual([outcome, tries], ['NonRetryableFailure: BAD_INPUT BAD_INPUT', 1]);
      const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events as HistoryEvent[];
      const failed = events.find((e) => e.eventType === 'ActivityTaskFailed');
      assert.ok(failed?.eventType === 'ActivityTaskFailed');
      assert.equal(failed.attributes.failure.type, 'BAD_INPUT');
      assert.equal(failed.attributes.failure.errorCode, 'BAD_INPUT');
      const scheduled = events.find((e) => e.eventType === 'ActivityTaskScheduled');
      assert.ok(scheduled?.eventType === 'ActivityTaskScheduled');
      assert.deepEqual((scheduled.attributes.retryPolicy as { errorCodes?: unknown }).errorCodes,
        { exceptionMapper: { TimeoutError: 'TIMEOUT', TypeError: 'BAD_INPUT' } });
    });

    test('2. the worker mapper, for a class the task mapper does not name (by class or by name)', async () => {
      assert.deepEqual((await run('taskMapByName', 'RangeError', global)).slice(0, 2), ['MaximumAttemptsReached: TRANSIENT TRANSIENT', 4]);
      assert.deepEqual((await run('taskMapByName', 'TimeoutError', global)).slice(0, 2), ['MaximumAttemptsReached: TRANSIENT TRANSIENT', 4]);
      assert.deepEqual((await run('none', 'TimeoutError', global)).slice(0, 2), ['NonRetryableFailure: GLOBAL_TIMEOUT GLOBAL_TIMEOUT', 1]);
    });

    test('3. the task default before the worker default; 4. the worker default; else UNHANDLED_EXCEPTION', async () => {
      assert.deepEqual((await run('taskDefault', 'Unlisted', global)).slice(0, 2), ['MaximumAttemptsReached: TRANSIENT TRANSIENT', 4]);
      assert.deepEqual((await run('taskDefault', 'RangeError', global)).slice(0, 2), ['MaximumAttemptsReached: TRANSIENT TRANSIENT', 4],
        'the worker map comes before the task default');
      assert.deepEqual((await run('none', 'Unlisted', global)).slice(0, 2), ['NonRetryableFailure: GLOBAL_DEFAULT GLOBAL_DEFAULT', 1]);
      assert.deepEqual((await run('none', 'Unlisted')).slice(0, 2), ['NonRetryableFailure: Error -', 1],
        "nothing configured: the error's name stays the type and the code is UNHANDLED_EXCEPTION");
    });

    test('Temporal fields: nonRetryableErrorTypes matches the mapped code', async () => {
      assert.deepEqual((await run('temporal', 'TypeError')).slice(0, 2), ['NonRetryableFailure: BAD_INPUT BAD_INPUT', 1]);
      assert.deepEqual((await run('temporal', 'RangeError')).slice(0, 2), ['MaximumAttemptsReached: RangeError -', 4]);
    });
  });
}

test('the worker options are checked, naming the option', () => {
  const base = { address: 'http://127.0.0.1:1', taskQueue: 'q', activities };
  assert.throws(() => resolveWorkerOptions({ ...base, exceptionMapper: [[RangeError, 'notACode']] }),
    /^ValidationError: exceptionMapper\[0\]\[1\] must be an UPPER_SNAKE_CASE error code/);
  assert.throws(() => resolveWorkerOptions({ ...base, defaultUnhandledErrorCode: 'Oops' }),
    /^ValidationError: defaultUnhandledErrorCode must be an UPPER_SNAKE_CASE error code/);
});

test('proxyActivities: the mapper travels as class names in the activity\'s retry policy; bad options are named', () => {
  const resolved = resolveActivityOptions({ startToCloseTimeout: '1s', exceptionMapper: [[TimeoutError, 'TIMEOUT']], defaultUnhandledErrorCode: 'OTHER' });
  assert.deepEqual(resolved.retryPolicy, {
    initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 100_000, maximumAttempts: 0, nonRetryableErrorTypes: [],
    errorCodes: { exceptionMapper: { TimeoutError: 'TIMEOUT' }, defaultUnhandledErrorCode: 'OTHER' },
  });
  assert.throws(() => resolveActivityOptions({ startToCloseTimeout: '1s', exceptionMapper: [[TypeError, 'bad']] }),
    /^ValidationError: exceptionMapper\[0\]\[1\] must be an UPPER_SNAKE_CASE error code/);
  assert.throws(() => resolveActivityOptions({ startToCloseTimeout: '1s', exceptionMapper: { TypeError: 'TypeError' } }),
    /^ValidationError: exceptionMapper\.TypeError must be an UPPER_SNAKE_CASE error code/);
  assert.throws(() => resolveActivityOptions({ startToCloseTimeout: '1s', exceptionMapper: [[class {}, 'ANON']] }),
    /^ValidationError: exceptionMapper\[0\]\[0\] must be a named class/);
  assert.throws(() => resolveActivityOptions({ startToCloseTimeout: '1s', defaultUnhandledErrorCode: 'x' }),
    /^ValidationError: defaultUnhandledErrorCode must be an UPPER_SNAKE_CASE error code/);
});
