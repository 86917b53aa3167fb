/** WorkerOptions.maxActivitiesPerSecond: a worker's activity starts spaced to its rate. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { rateLimitedPoll } from '../../src/worker/activity-rate.ts';
import { Worker } from '../../src/worker/index.ts';
import { TestEnvironment } from '../../src/testing/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import type { Clock } from '../../src/retry/clock.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/stacks.ts', import.meta.url));
const quiet = () => undefined;
const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet };

test('polls go one at a time, one task each, 1000 / perSecond ms after the last that brought a task', async () => {
  let now = 10_000;
  const slept: number[] = [];
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
  } as unknown as Clock;
  const asked: number[] = [];
  let empty = false;
  const poll = rateLimitedPoll(4, clock, async (_opts, maxTasks) => {
    asked.push(maxTasks);
    return empty ? null : 'task';
  });
  assert.deepEqual(await Promise.all([poll({}, 8), poll({}, 8), poll({}, 3)]), ['task', 'task', 'task']);
  assert.deepEqual(slept, [250, 250], 'the first goes at once, each next one a turn after the task before');
  assert.deepEqual(asked, [1, 1, 1]);
  now += 1_000;
  empty = true;
  assert.equal(await poll({}, 5), null);
  assert.equal(await poll({}, 5), null);
  assert.deepEqual(slept, [250, 250], 'after a quiet second, and after empty polls, a poll goes at once');
});

test('a worker with maxActivitiesPerSecond starts its activities no faster; the option is checked', async () => {
  const env = await TestEnvironment.createLocal();
  try {
    await assert.rejects(Worker.create({ connection: env.connection, taskQueue: 'r', workflowsPath, logger, maxActivitiesPerSecond: 0 }),
      (err: unknown) => err instanceof ValidationError && err.message === 'maxActivitiesPerSecond must be a number greater than 0, got 0');
    const worker = await Worker.create({
      connection: env.connection, taskQueue: 'rated', workflowsPath, logger, maxActivitiesPerSecond: 10,
      activities: { noop: async (i: number) => i },
    });
    const handle = await env.client.workflow.start('manyActivities', { taskQueue: 'rated', workflowId: 'rated', args: [6] });
    assert.equal(await worker.runUntil(handle.result()), 6);
    const started = (await handle.fetchHistory()).events.filter((e) => e.eventType === 'ActivityTaskStarted').map((e) => Date.parse(String(e.eventTime)));
    assert.equal(started.length, 6);
    const span = Math.max(...started) - Math.min(...started);
    // Six starts at 10 a second are at least five gaps of 100 ms apart (a slower machine only widens them).
    assert.ok(span >= 450, `six activity starts within ${span} ms at 10 a second`);
  } finally {
    await env.teardown();
  }
});
