import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import type { Logger } from '../../src/common/logger.ts';

function infoLogger(): Logger & { lines: { message: string; meta?: Record<string, unknown> | undefined }[] } {
  const lines: { message: string; meta?: Record<string, unknown> | undefined }[] = [];
  const none = () => undefined;
  return { lines, debug: none, warn: none, error: none, info: (message: string, meta?: Record<string, unknown>) => lines.push({ message, meta }) } as never;
}

test('a worker logs who it is at start and at shutdown: queue, identity, build id, activities', async () => {
  const env = await TestEnvironment.createLocal();
  try {
    const logger = infoLogger();
    const w = await Worker.create({
      connection: env.connection, taskQueue: 'who', identity: 'w-1', buildId: 'b-42', logger,
      activities: { charge: async () => 1, refund: async () => 2 }, maxTaskQueueActivitiesPerSecond: 5,
    });
    await w.runUntil(async () => {
      const d = await env.connection.describeTaskQueue({ taskQueue: 'who' });
      assert.ok(d.activity.pollers.some((p) => p.identity === 'w-1'));
    });
    const who = { namespace: 'default', taskQueue: 'who', identity: 'w-1', buildId: 'b-42', workflowsPath: null, activities: ['charge', 'refund'], maxTaskQueueActivitiesPerSecond: 5 };
    assert.deepEqual(logger.lines.filter((l) => l.message.startsWith('worker ')), [{ message: 'worker started', meta: who }, { message: 'worker stopped', meta: who }]);
  } finally {
    await env.teardown();
  }
});

test('maxTaskQueueActivitiesPerSecond and buildId are checked', async () => {
  const base = { address: 'http://127.0.0.1:1', taskQueue: 'q', activities: { a: async () => 1 } };
  for (const bad of [0, -1, Number.NaN, '5']) {
    await assert.rejects(Worker.create({ ...base, maxTaskQueueActivitiesPerSecond: bad as never }),
      (e: unknown) => e instanceof ValidationError && /maxTaskQueueActivitiesPerSecond must be a number greater than 0/.test(e.message));
  }
  await assert.rejects(Worker.create({ ...base, buildId: 5 as never }), (e: unknown) => e instanceof ValidationError && /buildId/.test(e.message));
});
