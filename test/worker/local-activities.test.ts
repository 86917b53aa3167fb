import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { Engine } from '../../src/engine/index.ts';
import { PostgresStore, SqliteStore, type Store } from '../../src/store/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { Client, WorkflowFailedError } from '../../src/client/index.ts';
import { Replayer } from '../../src/testing/index.ts';
import { CancelledFailure } from '../../src/common/failure.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import { silentLogger } from '../helpers/logger.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import * as activities from '../fixtures/local-activities.ts';

const WORKFLOWS = fileURLToPath(new URL('../fixtures/workflows/local-activities.ts', import.meta.url));
const pgSkip = await pgSkipReason('local activities on PostgreSQL');
const schemas: string[] = [];
after(async () => {
  if (!pgSkip) for (const s of schemas) await dropSchema(s);
});

type Kind = 'sqlite' | 'postgres';

async function openStore(kind: Kind, dir: string): Promise<Store> {
  if (kind === 'sqlite') return SqliteStore.open(join(dir, 'local.sqlite'));
  const schema = freshSchema('sf_local');
  schemas.push(schema);
  return PostgresStore.open(PG_URL, { schema, poolSize: 4 });
}

/** An engine on `kind`, a worker of the fixture workflows and a client; closed after `body`. */
async function withWorker(
  kind: Kind, body: (client: Client, engine: Engine, worker: Worker) => Promise<void>,
  workerOptions: { maxConcurrentLocalActivityExecutions?: number; maxConcurrentWorkflowTaskPolls?: number } = {},
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-local-'));
  const store = await openStore(kind, dir);
  const engine = await Engine.create({ store });
  try {
    const worker = await Worker.create({
      connection: engine, taskQueue: 'local', workflowsPath: WORKFLOWS, activities, logger: silentLogger, ...workerOptions,
    });
    const client = new Client({ connection: engine });
    await worker.runUntil(() => body(client, engine, worker));
  } finally {
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function historyOf(engine: Engine, workflowId: string): Promise<HistoryEvent[]> {
  return (await engine.getWorkflowExecutionHistory({ workflowId, pageSize: 1000 })).events;
}

const markers = (events: HistoryEvent[]) => events.filter((e) => e.eventType === 'MarkerRecorded' && e.attributes.markerName === 'core_local_activity');
const types = (events: HistoryEvent[]) => new Set(events.map((e) => e.eventType));

for (const kind of ['sqlite', 'postgres'] as const) {
  const skip = kind === 'postgres' ? pgSkip : undefined;

  test(`${kind}: a local activity's result is recorded as a core_local_activity marker, with no activity events`, { skip }, async () => {
    await withWorker(kind, async (client, engine) => {
      const handle = await client.workflow.start('greetLocal', { workflowId: `greet-${kind}`, taskQueue: 'local', args: [`ada-${kind}`] });
      assert.equal(await handle.result(), `hello ada-${kind} (local: true)`);
      const events = await historyOf(engine, `greet-${kind}`);
      assert.equal(markers(events).length, 1);
      const [marker] = markers(events);
      assert.equal(marker?.eventType === 'MarkerRecorded' && marker.attributes.details.activityType, 'greet');
      for (const t of ['ActivityTaskScheduled', 'ActivityTaskStarted', 'ActivityTaskCompleted']) assert.ok(!types(events).has(t as never), t);
      // One workflow task: the local activity ran inside it.
      assert.equal(events.filter((e) => e.eventType === 'WorkflowTaskStarted').length, 1);
      // Replay uses the marker: the activity does not run again, and the history replays.
      const before = activities.calls.get(`greet:ada-${kind}`);
      await Replayer.replayHistory(events, { workflowsPath: WORKFLOWS });
      assert.equal(activities.calls.get(`greet:ada-${kind}`), before);
      assert.equal(before, 1);
    });
  });

  test(`${kind}: five local activities in sequence take one workflow task`, { skip }, async () => {
    await withWorker(kind, async (client, engine) => {
      assert.equal(await client.workflow.execute('fiveLocal', { workflowId: `five-${kind}`, taskQueue: 'local' }), 's0,s1,s2,s3,s4');
      const events = await historyOf(engine, `five-${kind}`);
      assert.equal(markers(events).length, 5);
      assert.equal(events.filter((e) => e.eventType === 'WorkflowTaskStarted').length, 1);
      await Replayer.replayHistory(events, { workflowsPath: WORKFLOWS });
    });
  });

  test(`${kind}: a retry whose wait reaches localRetryThreshold goes through a durable timer and a new attempt`, { skip }, async () => {
    await withWorker(kind, async (client, engine) => {
      const key = `timer-${kind}`;
      assert.equal(await client.workflow.execute('retriedViaTimer', { workflowId: key, taskQueue: 'local', args: [key, 2] }), 3);
      const events = await historyOf(engine, key);
      // Two failed attempts recorded with their backoff, each followed by a timer; then the result.
      const m = markers(events).map((e) => (e.eventType === 'MarkerRecorded' ? e.attributes : undefined)!);
      assert.deepEqual(m.map((a) => [a.details.attempt, a.details.backoffMs, a.failure !== undefined]), [[1, 50, true], [2, 50, true], [3, undefined, false]]);
      assert.equal(events.filter((e) => e.eventType === 'TimerFired').length, 2);
      await Replayer.replayHistory(events, { workflowsPath: WORKFLOWS });
      assert.equal(activities.calls.get(key), 3);
    });
  });
}

test('retries shorter than localRetryThreshold happen in the worker, inside one workflow task', async () => {
  await withWorker('sqlite', async (client, engine) => {
    assert.equal(await client.workflow.execute('retriedInWorker', { workflowId: 'in-worker', taskQueue: 'local', args: ['in-worker', 3] }), 4);
    const events = await historyOf(engine, 'in-worker');
    assert.equal(markers(events).length, 1);
    assert.ok(!types(events).has('TimerStarted'));
    assert.equal(events.filter((e) => e.eventType === 'WorkflowTaskStarted').length, 1);
  });
});

test('a local activity that fails for good rejects with an ActivityFailure whose cause is its error', async () => {
  await withWorker('sqlite', async (client, engine) => {
    assert.equal(await client.workflow.execute('failing', { workflowId: 'failing', taskQueue: 'local' }), 'fail/MaximumAttemptsReached/boom');
    assert.equal(activities.calls.get('fail:boom'), 2);
    const events = await historyOf(engine, 'failing');
    const [marker] = markers(events);
    assert.ok(marker?.eventType === 'MarkerRecorded' && marker.attributes.failure?.kind === 'Activity');
    await Replayer.replayHistory(events, { workflowsPath: WORKFLOWS });
  });
});

test('a local activity past its startToCloseTimeout fails with a TimeoutFailure cause', async () => {
  await withWorker('sqlite', async (client) => {
    assert.equal(await client.workflow.execute('timingOut', { workflowId: 'timeout', taskQueue: 'local' }), 'MaximumAttemptsReached/StartToClose');
  });
});

test('a local activity longer than the workflow task timeout keeps the task alive (a new task is asked for before it times out)', async () => {
  await withWorker('sqlite', async (client, engine) => {
    const handle = await client.workflow.start('slowLocal', { workflowId: 'long', taskQueue: 'local', args: ['long', 4500], workflowTaskTimeout: '2s' });
    assert.equal(await handle.result(), 'slept 4500');
    const events = await historyOf(engine, 'long');
    assert.ok(!types(events).has('WorkflowTaskTimedOut'), 'no workflow task timed out');
    assert.ok(events.filter((e) => e.eventType === 'WorkflowTaskCompleted').length >= 3, 'the task was heartbeated');
    assert.equal(markers(events).length, 1);
    assert.equal(activities.calls.get('long'), 1);
    await Replayer.replayHistory(events, { workflowsPath: WORKFLOWS });
  });
});

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`on ${kind}, a heartbeated task stays with the worker running the local activity, though another worker polls the queue`, { skip: kind === 'postgres' && pgSkip }, async () => {
    await withWorker(kind, async (client, engine) => {
      // The other worker waits with more polls than the one that runs the local activity, so a
      // heartbeat's task left on the queue would mostly go there.
      const other = await Worker.create({
        connection: engine, taskQueue: 'local', workflowsPath: WORKFLOWS, activities, logger: silentLogger, identity: 'other-worker', maxConcurrentWorkflowTaskPolls: 8,
      });
      await other.runUntil(async () => {
        const key = `sticky-${kind}`;
        const handle = await client.workflow.start('slowLocal', { workflowId: key, taskQueue: 'local', args: [key, 5000], workflowTaskTimeout: '2s' });
        assert.equal(await handle.result(), 'slept 5000');
        const events = await historyOf(engine, key);
        assert.ok(!types(events).has('WorkflowTaskTimedOut'), 'no workflow task timed out');
        assert.ok(events.filter((e) => e.eventType === 'WorkflowTaskCompleted').length >= 4, 'the task was heartbeated three times');
        assert.equal(activities.calls.get(key), 1, 'the local activity ran once: no other worker took a heartbeat\'s task and ran it again');
        const starters = new Set(events.flatMap((e) => (e.eventType === 'WorkflowTaskStarted' ? [e.attributes.identity] : [])));
        assert.equal(starters.size, 1, `every workflow task started by one worker, got ${[...starters].join(', ')}`);
        assert.equal(markers(events).length, 1);
      });
    }, { maxConcurrentWorkflowTaskPolls: 1 });
  });
}

test('cancelling the run cancels its running local activity', async () => {
  await withWorker('sqlite', async (client, engine) => {
    const handle = await client.workflow.start('slowLocal', { workflowId: 'cancel', taskQueue: 'local', args: ['cancel', 60_000], workflowTaskTimeout: '1s' });
    // Asked once the local activity runs (the worker has it).
    for (let i = 0; i < 500 && !activities.calls.get('cancel'); i++) await new Promise((r) => setTimeout(r, 10));
    await handle.cancel();
    await assert.rejects(handle.result(), (err: unknown) => err instanceof WorkflowFailedError && err.cause instanceof CancelledFailure);
    assert.ok(activities.cancelled.has('cancel'), 'the activity saw its cancellation signal');
    const events = await historyOf(engine, 'cancel');
    const [marker] = markers(events);
    assert.ok(marker?.eventType === 'MarkerRecorded' && marker.attributes.failure?.kind === 'Activity');
    await Replayer.replayHistory(events, { workflowsPath: WORKFLOWS });
  });
});

test('maxConcurrentLocalActivityExecutions bounds the local activities running at once', async () => {
  await withWorker('sqlite', async (client) => {
    activities.concurrency.peak = 0;
    assert.deepEqual(await client.workflow.execute('parallelLocal', { workflowId: 'parallel', taskQueue: 'local' }), [10, 20, 30, 40]);
    assert.equal(activities.concurrency.peak, 2);
  }, { maxConcurrentLocalActivityExecutions: 2 });
});

test('a replay whose code calls a different local activity than the marker recorded fails as non-deterministic', async () => {
  await withWorker('sqlite', async (client, engine) => {
    assert.match(await client.workflow.execute<(n: string) => Promise<string>>('mixed', { workflowId: 'mixed', taskQueue: 'local', args: ['m'] }), /^hello m \(local: true\);1$/);
    const events = await historyOf(engine, 'mixed');
    assert.equal(markers(events).length, 2);
    await Replayer.replayHistory(events, { workflowsPath: WORKFLOWS });
    // The same history read as another workflow type's: its code makes no such calls.
    const started = events[0]!;
    const other = [{ ...started, attributes: { ...started.attributes, workflowType: 'fiveLocal' } } as HistoryEvent, ...events.slice(1)];
    await assert.rejects(Replayer.replayHistory(other, { workflowsPath: WORKFLOWS }), /non-deterministic|Nondeterminism|DeterminismViolation/i);
  });
});

test('proxyLocalActivities validates its options, naming the field', async () => {
  const { resolveLocalActivityOptions } = await import('../../src/workflow/proxy-local-activities.ts');
  assert.throws(() => resolveLocalActivityOptions({}), /startToCloseTimeout/);
  assert.throws(() => resolveLocalActivityOptions({ startToCloseTimeout: '1s', localRetryThreshold: -1 }), /localRetryThreshold/);
  assert.throws(() => resolveLocalActivityOptions({ startToCloseTimeout: '1s', taskQueue: 'x' } as never), /taskQueue/);
  assert.equal(resolveLocalActivityOptions({ startToCloseTimeout: '1s' }).localRetryThresholdMs, 60_000);
});

/**
 * Starts cancelledLocal with `type`, sends `stop` once the activity runs, waits until the call
 * settled in the workflow, runs `settled` then, and returns the run's result and history.
 */
async function cancelWith(
  client: Client, engine: Engine, key: string, type: string, settled: () => void = () => undefined,
): Promise<{ result: string; events: HistoryEvent[] }> {
  const handle = await client.workflow.start('cancelledLocal', { workflowId: key, taskQueue: 'local', args: [key, type], workflowTaskTimeout: '1s' });
  for (let i = 0; i < 1000 && !activities.calls.get(key); i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(activities.calls.get(key), 1, 'the local activity runs');
  await handle.signal('stop');
  for (let i = 0; i < 1000 && await handle.query('settled') === ''; i++) await new Promise((r) => setTimeout(r, 10));
  settled();
  await handle.signal('release');
  const result = await handle.result() as string;
  const events = await historyOf(engine, key);
  await Replayer.replayHistory(events, { workflowsPath: WORKFLOWS });
  return { result, events };
}

test('cancellationType TRY_CANCEL (the default) settles the call at once and aborts the running local activity', async () => {
  await withWorker('sqlite', async (client, engine) => {
    const { result, events } = await cancelWith(client, engine, 'la-try', 'TRY_CANCEL');
    assert.equal(result, 'cancelled');
    for (let i = 0; i < 500 && !activities.cancelled.has('la-try'); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(activities.cancelled.has('la-try'), 'the activity saw its cancellation signal');
    const [marker] = markers(events);
    assert.ok(marker?.eventType === 'MarkerRecorded' && marker.attributes.failure?.kind === 'Activity');
  });
});

test('cancellationType WAIT_CANCELLATION_COMPLETED aborts the local activity and settles with how it ended', async () => {
  await withWorker('sqlite', async (client, engine) => {
    const { result, events } = await cancelWith(client, engine, 'la-wait', 'WAIT_CANCELLATION_COMPLETED');
    // The activity saw the abort and finished anyway: the call settles with its result.
    assert.equal(result, 'completed: after cancel');
    assert.ok(activities.cancelled.has('la-wait'));
    assert.ok(activities.finished.has('la-wait'));
    const [marker] = markers(events);
    assert.ok(marker?.eventType === 'MarkerRecorded' && marker.attributes.details.result === 'after cancel');
  });
});

test('cancellationType ABANDON settles the call at once and leaves the local activity running', async () => {
  await withWorker('sqlite', async (client, engine) => {
    const { result, events } = await cancelWith(client, engine, 'la-abandon', 'ABANDON', () => {
      assert.ok(!activities.cancelled.has('la-abandon'), 'no cancellation reached the activity');
    });
    assert.equal(result, 'cancelled');
    const [marker] = markers(events);
    assert.ok(marker?.eventType === 'MarkerRecorded' && marker.attributes.failure?.kind === 'Activity');
  });
});

test('a local activity that waits longer than scheduleToStartTimeout for a slot fails with a ScheduleToStart timeout, not retried', async () => {
  await withWorker('sqlite', async (client, engine) => {
    assert.equal(await client.workflow.execute('queuedLocal', { workflowId: 'queued', taskQueue: 'local' }), 'slept 1000; second: Timeout/ScheduleToStart');
    assert.equal(activities.calls.get('queued-second'), undefined, 'the second call never ran');
    await Replayer.replayHistory(await historyOf(engine, 'queued'), { workflowsPath: WORKFLOWS });
  }, { maxConcurrentLocalActivityExecutions: 1 });
});

test('local activity options: scheduleToStartTimeout is clamped to scheduleToCloseTimeout and cancellationType is checked', async () => {
  const { resolveLocalActivityOptions } = await import('../../src/workflow/proxy-local-activities.ts');
  assert.equal(resolveLocalActivityOptions({ scheduleToCloseTimeout: '2s', scheduleToStartTimeout: '5s' }).scheduleToStartTimeoutMs, 2000);
  assert.equal(resolveLocalActivityOptions({ scheduleToCloseTimeout: '2s' }).scheduleToStartTimeoutMs, 2000);
  assert.equal(resolveLocalActivityOptions({ startToCloseTimeout: '2s' }).scheduleToStartTimeoutMs, undefined);
  assert.throws(() => resolveLocalActivityOptions({ startToCloseTimeout: '1s', scheduleToStartTimeout: 0 }), /scheduleToStartTimeout/);
  assert.throws(() => resolveLocalActivityOptions({ startToCloseTimeout: '1s', cancellationType: 'NOPE' as never }), /cancellationType/);
});

test('describe shows a local activity that outlasts most of its task\'s timeout, with its attempt, until it ends', async () => {
  await withWorker('sqlite', async (client) => {
    const handle = await client.workflow.start('slowLocal', { workflowId: 'described', taskQueue: 'local', args: ['described', 4000], workflowTaskTimeout: '1s' });
    // The first heartbeat (at 80% of the task's second) reports the call.
    let shown: Awaited<ReturnType<typeof handle.describe>>['pendingLocalActivities'] = [];
    for (let i = 0; i < 500 && shown.length === 0; i++) {
      shown = (await handle.describe()).pendingLocalActivities;
      if (shown.length === 0) await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(shown.length, 1, 'the running local activity is described');
    const [la] = shown;
    assert.equal(la!.activityType, 'slow');
    assert.equal(la!.activityId, '1');
    assert.equal(la!.attempt, 1);
    assert.ok(la!.lastStartedTime, 'the attempt\'s start is known');
    assert.ok(la!.lastWorkerIdentity.length > 0);
    assert.equal(await handle.result(), 'slept 4000');
    assert.deepEqual((await handle.describe()).pendingLocalActivities, []);
  });
});
