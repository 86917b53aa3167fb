import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { WorkflowFailedError } from '../../src/common/errors.ts';
import type { ManualClock } from '../../src/retry/clock.ts';
import type { WorkflowHandle } from '../../src/client/index.ts';
import type { CronActivities, CronRunReport } from '../fixtures/workflows/cron.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

/*
 * Cron jobs end to end on the time-skipping environment: a real worker runs the workflow code,
 * time jumps from one fire time to the next while the test awaits the chain's result.
 */

const H = 3_600_000;
const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/cron.ts', import.meta.url));
const iso = (ms: number) => new Date(ms).toISOString();

/** Reports of the runs, by the label each chain passes as its first argument. */
class Diary {
  readonly runs = new Map<string, CronRunReport[]>();
  readonly #waiters: { label: string; n: number; resolve: () => void }[] = [];
  readonly activities: CronActivities = {
    report: async (r) => {
      const label = String(r.args[0]);
      const list = this.runs.get(label) ?? [];
      list.push(r);
      this.runs.set(label, list);
      for (const w of this.#waiters) if (w.label === label && w.n === list.length) w.resolve();
      return list.length;
    },
  };

  /** Resolves when run `n` of the chain has reported. */
  reached(label: string, n: number): Promise<void> {
    if ((this.runs.get(label)?.length ?? 0) >= n) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ label, n, resolve }));
  }

  times(label: string): string[] {
    return (this.runs.get(label) ?? []).map((r) => iso(r.time));
  }
}

/** Waits (real time, briefly) until the workflow's current run is `runId` and has nothing in flight: it waits on a condition. */
async function settled(handle: WorkflowHandle, runId: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const d = await handle.describe();
    if (d.runId === runId && d.pendingActivities.length === 0 && !d.pendingWorkflowTask) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`run ${runId} did not settle`);
}

async function threeDays(database?: string): Promise<void> {
  const env = await TestEnvironment.createTimeSkipping(database ? { database } : {});
  const diary = new Diary();
  const worker = await Worker.create({ connection: env.connection, taskQueue: 'cron', workflowsPath, activities: diary.activities });
  try {
    const start = env.now();
    const handle = await env.client.workflow.start('cronDiary', {
      taskQueue: 'cron', workflowId: 'diary', args: ['diary', [5, 9]], cronSchedule: '0 */8 * * *',
    });
    const first = await handle.describe();
    const fire1 = (Math.floor(start / (8 * H)) + 1) * 8 * H;
    assert.equal(first.cronSchedule, '0 */8 * * *');
    assert.equal(first.executionTime.toISOString(), iso(fire1), 'the first run waits for the first fire time');
    const ended = worker.runUntil(handle.result().then(() => assert.fail('the chain ends only when terminated'), (err: unknown) => err));

    await diary.reached('diary', 5);
    const fifth = diary.runs.get('diary')![4]!;
    await settled(handle, fifth.runId);
    await handle.cancel();
    await diary.reached('diary', 9);
    const ninth = diary.runs.get('diary')![8]!;
    await settled(handle, ninth.runId);
    await handle.terminate('enough');
    const err = await ended;
    assert.ok(err instanceof WorkflowFailedError);
    assert.equal(err.status, 'Terminated');

    const runs = diary.runs.get('diary')!;
    assert.deepEqual(diary.times('diary'), Array.from({ length: 9 }, (_, i) => iso(fire1 + i * 8 * H)), 'one run per fire time, 8 h apart');
    assert.ok(fire1 + 8 * 8 * H - start > 2 * 24 * H, 'over three simulated days');
    for (const r of runs) {
      assert.equal(r.cronSchedule, '0 */8 * * *');
      assert.deepEqual(r.args, ['diary', [5, 9]], 'every run gets the same input');
    }
    assert.equal(runs[0]!.lastCompletionResult, undefined);
    assert.deepEqual(runs[1]!.lastCompletionResult, { n: 1 });
    assert.deepEqual(runs[2]!.lastCompletionResult, { n: 2 });
    assert.equal(runs[2]!.lastFailure, undefined);
    assert.deepEqual(runs[3]!.lastCompletionResult, { n: 2 }, 'run 3 failed: run 4 sees run 2\'s result');
    assert.deepEqual(runs[3]!.lastFailure, { kind: 'Application', message: 'run 3 fails' });
    assert.equal(runs[4]!.lastFailure, undefined);
    assert.deepEqual(runs[5]!.lastFailure?.kind, 'Canceled', 'run 5 was canceled and the chain went on');
    assert.deepEqual(runs[5]!.lastCompletionResult, { n: 4 });
    assert.deepEqual(runs[8]!.lastCompletionResult, { n: 8 });

    // The chain as describe and history show it: one workflow id, runs linked by CronSchedule continue-as-new.
    const statuses: string[] = [];
    for (const [i, r] of runs.entries()) {
      const h = env.client.workflow.getHandle('diary', r.runId);
      const d = await h.describe();
      statuses.push(d.status);
      assert.equal(d.raw.execution.firstExecutionRunId, first.runId);
      assert.equal(d.cronSchedule, '0 */8 * * *');
      const { events } = await h.fetchHistory();
      const started = events[0]!;
      assert.ok(started.eventType === 'WorkflowExecutionStarted');
      // Each run is created as the previous one closes, with a backoff up to its fire time.
      assert.equal(d.executionTime.toISOString(), iso(fire1 + i * 8 * H));
      assert.equal(started.attributes.firstWorkflowTaskBackoffMs, fire1 + i * 8 * H - d.startTime.getTime());
      if (i > 0) assert.deepEqual(d.startTime, (await env.client.workflow.getHandle('diary', runs[i - 1]!.runId).describe()).closeTime);
      if (i > 0) assert.equal(started.attributes.initiator, 'CronSchedule');
    }
    assert.deepEqual(statuses, [...Array(8).fill('ContinuedAsNew'), 'Terminated']);
  } finally {
    await worker.shutdown();
    await env.teardown();
  }
}

/** Runs a cron chain of `cronTick` from now until its execution timeout ends it; returns the last run's result. */
async function chain(env: TestEnvironment, label: string, spec: string, timeoutH: number): Promise<string> {
  const handle = await env.client.workflow.start('cronTick', {
    taskQueue: 'cron', workflowId: label, args: [label], cronSchedule: spec, workflowExecutionTimeout: timeoutH * H,
  });
  return handle.result() as Promise<string>;
}

async function daylightSaving(database?: string): Promise<void> {
  const env = await TestEnvironment.createTimeSkipping(database ? { database } : {});
  const clock = env.clock as ManualClock;
  const diary = new Diary();
  const worker = await Worker.create({ connection: env.connection, taskQueue: 'cron', workflowsPath, activities: diary.activities });
  try {
    await worker.runUntil(async () => {
      // New York springs forward on 2099-03-08: 02:30 does not exist that day.
      await clock.set(Date.parse('2099-03-05T12:00:00Z'));
      assert.equal(await chain(env, 'ny-spring', 'CRON_TZ=America/New_York 30 2 * * *', 120), '2099-03-10T06:30:00.000Z');
      assert.deepEqual(diary.times('ny-spring'),
        ['2099-03-06T07:30:00.000Z', '2099-03-07T07:30:00.000Z', '2099-03-09T06:30:00.000Z', '2099-03-10T06:30:00.000Z']);

      // Santiago ends daylight saving at midnight starting 2099-04-05: 23:30 on 04-04 happens twice.
      await clock.set(Date.parse('2099-04-02T12:00:00Z'));
      await chain(env, 'scl-april', 'CRON_TZ=America/Santiago 30 23 * * *', 96);
      assert.deepEqual(diary.times('scl-april'), ['2099-04-03T02:30:00.000Z', '2099-04-04T02:30:00.000Z',
        '2099-04-05T02:30:00.000Z', '2099-04-05T03:30:00.000Z', '2099-04-06T03:30:00.000Z']);

      // Santiago starts daylight saving at midnight on 2099-09-06: 00:00 never happens that day.
      await clock.set(Date.parse('2099-09-03T12:00:00Z'));
      await chain(env, 'scl-september', 'CRON_TZ=America/Santiago @daily', 120);
      assert.deepEqual(diary.times('scl-september'),
        ['2099-09-04T04:00:00.000Z', '2099-09-05T04:00:00.000Z', '2099-09-07T03:00:00.000Z', '2099-09-08T03:00:00.000Z']);

      // New York falls back on 2099-11-01: the seed's 02:30 runs once, 01:30 (in the repeated hour) twice.
      await clock.set(Date.parse('2099-10-29T12:00:00Z'));
      await Promise.all([
        chain(env, 'ny-fall', 'CRON_TZ=America/New_York 30 2 * * *', 120),
        chain(env, 'ny-fall-1am', 'CRON_TZ=America/New_York 30 1 * * *', 120),
      ]);
      assert.deepEqual(diary.times('ny-fall'), ['2099-10-30T06:30:00.000Z', '2099-10-31T06:30:00.000Z',
        '2099-11-01T07:30:00.000Z', '2099-11-02T07:30:00.000Z', '2099-11-03T07:30:00.000Z']);
      assert.deepEqual(diary.times('ny-fall-1am'), ['2099-10-30T05:30:00.000Z', '2099-10-31T05:30:00.000Z',
        '2099-11-01T05:30:00.000Z', '2099-11-01T06:30:00.000Z', '2099-11-02T06:30:00.000Z', '2099-11-03T06:30:00.000Z']);
    });
  } finally {
    await worker.shutdown();
    await env.teardown();
  }
}

async function cronChild(): Promise<void> {
  const env = await TestEnvironment.createTimeSkipping();
  const worker = await Worker.create({ connection: env.connection, taskQueue: 'cron', workflowsPath, activities: new Diary().activities });
  try {
    const handle = await env.client.workflow.start('cronParent', { taskQueue: 'cron', workflowId: 'cron-parent' });
    assert.equal(await worker.runUntil(handle.result()), 5, 'the parent sees the chain end: the last of five hourly runs');
    const { events } = await handle.fetchHistory();
    const childEvents = events.filter((e) => e.eventType.startsWith('ChildWorkflowExecution')).map((e) => e.eventType);
    assert.deepEqual(childEvents, ['ChildWorkflowExecutionStarted', 'ChildWorkflowExecutionCompleted']);
    const runs: string[] = [];
    for await (const e of env.client.workflow.list({ workflowIdPrefix: 'cron-child' })) runs.push(e.status);
    assert.deepEqual(runs.sort(), [...Array(4).fill('ContinuedAsNew'), 'Completed'].sort());
  } finally {
    await worker.shutdown();
    await env.teardown();
  }
}

describe('cron jobs on SQLite', () => {
  test('a cron child is one execution to its parent, which sees it close only when the chain ends', { timeout: 60_000 }, () => cronChild());
  test('a cron job over three simulated days: fire times, backoffs, last result and failure, a canceled run, terminate', { timeout: 60_000 }, () => threeDays());
  test('daylight saving: the seed\'s 30 2 * * * in New York across both transitions, and Santiago\'s midnight', { timeout: 60_000 }, () => daylightSaving());
});

describe('cron jobs on PostgreSQL', async () => {
  const skip = await pgSkipReason('the PostgreSQL cron jobs');
  const schema = freshSchema('cron_jobs');
  after(async () => {
    if (!skip) await Promise.all([dropSchema(schema), dropSchema(`${schema}_dst`)]);
  });
  test('a cron job over three simulated days', { skip, timeout: 60_000 }, () => threeDays(`${PG_URL}?schema=${schema}`));
  test('daylight saving end to end', { skip, timeout: 60_000 }, () => daylightSaving(`${PG_URL}?schema=${schema}_dst`));
});
