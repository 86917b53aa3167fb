/**
 * Activity code as Temporal's docs write it: Context.current(), sleep() and cancelled() from
 * steadfast/activity, unit-tested with MockActivityEnvironment from steadfast/testing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Context, ActivityContext, CancelledFailure, activityInfo, cancelled, heartbeat, log, sleep } from '../../src/activity/index.ts';
import { MockActivityEnvironment } from '../../src/testing/index.ts';
import { ValidationError } from '../../src/errors/index.ts';

async function processItems(items: number): Promise<number> {
  const start = (Context.current().info.heartbeatDetails as number | undefined) ?? 0;
  let done = start;
  for (let i = start; i < items; i++) {
    await Context.current().sleep(1);
    Context.current().heartbeat(i);
    done++;
  }
  return done;
}

test('MockActivityEnvironment runs an activity: heartbeats are emitted as events and info comes from the constructor', async () => {
  const env = new MockActivityEnvironment({ attempt: 2, heartbeatDetails: 1, activityType: 'processItems' });
  const beats: unknown[] = [];
  env.on('heartbeat', (d: unknown) => beats.push(d));
  assert.equal(await env.run(processItems, 4), 4);
  assert.deepEqual(beats, [1, 2, 3]);
  assert.equal(env.context.info.attempt, 2);
  assert.equal(await env.run(async () => `${activityInfo().activityType} ${activityInfo().workflowExecution.workflowId}`), 'processItems test');
  assert.equal(ActivityContext, Context);
  assert.ok(env.context instanceof Context);
});

test('cancel() aborts the signal, rejects cancelled() and a pending sleep() with a CancelledFailure', async () => {
  const env = new MockActivityEnvironment();
  const heartbeatSeen = once(env, 'heartbeat');
  const outcome = env.run(async () => {
    heartbeat('started');
    const ctx = Context.current();
    const slept = sleep('1 hour').then(() => 'slept', (err: unknown) => err);
    const raced = await Promise.race([cancelled(), new Promise<never>(() => undefined)]).catch((err: unknown) => err);
    return { raced, slept: await slept, aborted: ctx.cancellationSignal.aborted };
  });
  assert.deepEqual(await heartbeatSeen, ['started']);
  env.cancel('test');
  const { raced, slept, aborted } = await outcome;
  assert.ok(raced instanceof CancelledFailure);
  assert.equal((raced as Error).message, 'test');
  assert.ok(slept instanceof CancelledFailure);
  assert.equal(aborted, true);
  // A sleep after the cancel rejects at once, and so does cancelled() first asked for then.
  await assert.rejects(env.run(() => sleep(10)), CancelledFailure);
  const late = new MockActivityEnvironment();
  late.cancel('before');
  await assert.rejects(late.run(() => cancelled()), (err: unknown) => err instanceof CancelledFailure && err.message === 'before');
});

test('log, sleep and Context.current() outside an activity, and bad input, throw errors that say so', async () => {
  assert.throws(() => Context.current(), /only be called from an activity/);
  assert.throws(() => log.info('x'), /only be called from an activity/);
  const env = new MockActivityEnvironment();
  await assert.rejects(env.run(() => sleep(-1)), (e: unknown) => e instanceof ValidationError && /ms/.test(e.message));
  await assert.rejects(env.run(() => sleep('soon' as never)), ValidationError);
  assert.throws(() => new MockActivityEnvironment('x' as never), (e: unknown) => e instanceof ValidationError && /info/.test(e.message));
  const lines: unknown[] = [];
  const logged = new MockActivityEnvironment(undefined, { logger: { debug: () => undefined, info: (m, meta) => lines.push([m, meta?.activityId]), warn: () => undefined, error: () => undefined } });
  await logged.run(async () => log.info('hello'));
  assert.deepEqual(lines, [['hello', 'test']]);
});

test('overlapping activities each keep their own Context across awaits, while others start and end around them', async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const long = new MockActivityEnvironment({ activityId: 'long' });
  const seen: string[] = [];
  const running = long.run(async () => {
    seen.push(activityInfo().activityId);
    await gate;
    // Shorter activities started and ended meanwhile: this one's context is still current.
    await new Promise((r) => setTimeout(r, 1));
    seen.push(activityInfo().activityId);
    return Context.current().info.activityId;
  });
  for (let i = 0; i < 3; i++) {
    const short = new MockActivityEnvironment({ activityId: `short-${i}` });
    assert.equal(await short.run(async () => {
      await Promise.resolve();
      return activityInfo().activityId;
    }), `short-${i}`);
  }
  assert.throws(() => short(), /can only be called from an activity/, 'outside any activity there is no context');
  open();
  assert.equal(await running, 'long');
  assert.deepEqual(seen, ['long', 'long']);
  // Once every activity ended, there is no context; the next one has its own again.
  assert.throws(() => Context.current(), /can only be called from an activity/);
  assert.equal(await new MockActivityEnvironment({ activityId: 'next' }).run(async () => {
    await new Promise((r) => setImmediate(r));
    return activityInfo().activityId;
  }), 'next');
  assert.throws(() => Context.current(), /can only be called from an activity/);
});

function short(): Context {
  return Context.current();
}
