/**
 * The listeners an activity adds to its cancellation signal run inside the activity's context,
 * and a listener's throw is the activity's mistake: logged, never the end of the worker.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/retry/clock.ts';
import { activityInfo, cancellationSignal } from '../../src/activity/index.ts';
import type { Logger } from '../../src/worker/logger.ts';
import { Worker } from '../../src/worker/index.ts';
import { FakeService, activityTask } from '../worker/fake-service.ts';

async function until(check: () => boolean, clock: ManualClock): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) {
    await clock.advance(0);
    await new Promise((r) => setImmediate(r));
  }
  assert.ok(check(), 'condition not reached');
}

// Regression: the start-to-close timer aborted the signal outside the activity's context, so
// activityInfo() in an abort listener threw IllegalStateError, and a listener's throw was an
// uncaught exception that ended the worker's process.
test('abort listeners of an activity see its activityInfo(), and one that throws is logged while the worker runs on', async () => {
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => void uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  const errors: { message: string; meta: unknown }[] = [];
  const logger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (message, meta) => void errors.push({ message, meta }) };
  const clock = new ManualClock(0);
  const service = new FakeService();
  const seen: string[] = [];
  let started = false;
  const worker = await Worker.create({
    connection: service.asService(), taskQueue: 'q', clock, logger, activities: {
      async stuck() {
        started = true;
        const signal = cancellationSignal();
        signal.addEventListener('abort', () => seen.push(`listener: ${activityInfo().activityType} ${activityInfo().workflowExecution.workflowId}`));
        signal.onabort = () => seen.push(`onabort: attempt ${activityInfo().attempt}`);
        signal.addEventListener('abort', () => {
          throw new Error('a listener of mine is broken');
        });
        signal.addEventListener('abort', async () => {
          await Promise.resolve();
          throw new Error('an async listener of mine is broken');
        });
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      },
      async quick() {
        const i = activityInfo();
        return {
          workflowExecution: i.workflowExecution, activityType: i.activityType, heartbeatDetails: i.heartbeatDetails,
          currentAttemptScheduledTimestampMs: i.currentAttemptScheduledTimestampMs, scheduledTimestampMs: i.scheduledTimestampMs,
          namespaces: [i.activityNamespace, i.workflowNamespace], isLocal: i.isLocal, token: i.taskToken instanceof Uint8Array && Buffer.from(i.base64TaskToken, 'base64').equals(i.taskToken),
        };
      },
    },
  });
  const running = worker.run();
  try {
    service.activityTasks.push(activityTask('stuck', [], { startToCloseTimeoutMs: 1000 }));
    await until(() => started, clock);
    await clock.advance(1000);
    await service.responsesReach(1);
    assert.equal(service.responses[0]!.method, 'respondActivityTaskFailed');
    assert.match((service.responses[0]!.req as { failure: { message: string } }).failure.message, /start-to-close timeout/);
    assert.deepEqual(seen, ['listener: stuck wf-1', 'onabort: attempt 1']);
    await until(() => errors.length >= 2, clock);
    assert.deepEqual(errors.map((e) => e.message).sort(), [
      'activity stuck (1): a listener of its cancellation signal threw: a listener of mine is broken',
      'activity stuck (1): a listener of its cancellation signal threw: an async listener of mine is broken',
    ]);
    service.activityTasks.push(activityTask('quick', [], {
      attempt: 3, heartbeatDetails: { page: 7 }, currentAttemptScheduledTime: '2024-01-01T00:05:00.000Z', runId: 'run-9',
    }));
    await service.responsesReach(2);
    assert.equal(service.responses[1]!.method, 'respondActivityTaskCompleted');
    // Temporal's Info fields.
    assert.deepEqual((service.responses[1]!.req as { result: unknown }).result, {
      workflowExecution: { workflowId: 'wf-1', runId: 'run-9' }, activityType: 'quick', heartbeatDetails: { page: 7 },
      currentAttemptScheduledTimestampMs: Date.parse('2024-01-01T00:05:00.000Z'), scheduledTimestampMs: Date.parse('2024-01-01T00:00:00.000Z'),
      namespaces: ['default', 'default'], isLocal: false, token: true,
    });
    assert.equal(worker.state, 'running');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(uncaught, [], 'nothing reached the process');
  } finally {
    await worker.shutdown();
    await running;
    process.off('uncaughtException', onUncaught);
  }
});
