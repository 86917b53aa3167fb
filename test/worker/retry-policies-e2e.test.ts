import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { activityInfo } from '../../src/activity/index.ts';
import { ApplicationFailure, WorkflowFailedError } from '../../src/common/index.ts';
import { CodedError, policyDelay, resolvePolicyData } from '../../src/retry/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { POLICIES, crashCase, sleeper, timeoutCase, underPolicy, type PolicyName } from '../fixtures/workflows/retry-policies.ts';
import { spawnNode } from '../helpers/processes.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/retry-policies.ts', import.meta.url));
const pgSkip = await pgSkipReason('the PostgreSQL runs of test/worker/retry-policies-e2e.test.ts');

/** One attempt as the activity saw it. */
interface Seen { attempt: number; scheduledAt: number; startedAt: number; runId: string; activityId: string }
const seen = new Map<string, Seen[]>();

const activities = {
  /** Fails attempt n with the code codes[n−1] (a CodedError, or an ApplicationFailure carrying errorCode), if any. */
  async step(key: string, codes: (string | null)[]): Promise<number> {
    const info = activityInfo();
    const rows = seen.get(key) ?? [];
    rows.push({
      attempt: info.attempt, scheduledAt: info.currentAttemptScheduledTime.getTime(), startedAt: info.startedTime.getTime(),
      runId: info.runId, activityId: info.activityId,
    });
    seen.set(key, rows);
    const code = codes[info.attempt - 1];
    if (code) {
      throw info.attempt % 2 === 1
        ? new CodedError(code, `attempt ${info.attempt}: ${code}`)
        : ApplicationFailure.create({ message: `attempt ${info.attempt}: ${code}`, type: 'Coded', errorCode: code });
    }
    return info.attempt;
  },
  /** Attempt 1 outlives its timeout (ignoring its signal) and then returns too late; later attempts return at once. */
  async hang(_key: string, hangMs: number): Promise<number> {
    if (activityInfo().attempt === 1) await new Promise((r) => setTimeout(r, hangMs));
    return activityInfo().attempt;
  },
};

/** The delay before each retry, as the engine scheduled it: next attempt's scheduled time − failed attempt's start. */
function delays(rows: Seen[]): number[] {
  return rows.slice(1).map((row, i) => row.scheduledAt - rows[i]!.startedAt);
}

function types(events: HistoryEvent[]): string[] {
  return events.map((e) => e.eventType);
}

for (const backend of ['SQLite', 'PostgreSQL'] as const) {
  describe(`retry policies and timeouts end to end on ${backend}`, { skip: backend === 'PostgreSQL' && pgSkip ? pgSkip : false }, () => {
    let env: TestEnvironment;
    let schema: string | undefined;
    let n = 0;
    const queue = (name: string) => `${backend}-${name}-${++n}`;
    const warnings: string[] = [];
    // Every failed attempt is logged by design; the warnings looked at here are the others.
    const attemptFailed = /^activity \S+ attempt \d+ failed/;
    const logger = { debug() {}, info() {}, warn: (m: string) => void (attemptFailed.test(m) || warnings.push(m)), error: (m: string) => void warnings.push(m) };
    const worker = (taskQueue: string) => Worker.create({ address: env.address, taskQueue, workflowsPath, activities, logger });

    before(async () => {
      if (backend === 'PostgreSQL') schema = freshSchema('retry_e2e');
      env = await TestEnvironment.createTimeSkipping(schema ? { database: `${PG_URL}?schema=${schema}` } : {});
    });
    after(async () => {
      await env.teardown();
      if (schema) await dropSchema(schema);
    });

    test("a ported Temporal policy in Temporal's duration spellings loads and retries at its intervals", async () => {
      const taskQueue = queue('ported');
      const key = `${taskQueue}-k`;
      const w = await worker(taskQueue);
      const result = await w.runUntil(env.client.workflow.execute(underPolicy, {
        taskQueue, args: ['temporalPorted', key, ['FLAKY', 'FLAKY', 'FLAKY']], workflowExecutionTimeout: '1 day',
      }));
      assert.equal(result, 'ok at attempt 4');
      assert.deepEqual(delays(seen.get(key)!), [30_000, 60_000, 120_000]);
    });

    test('horsies: fixed([60, 300, 900]) waits 1, 5 and 15 minutes between retries of listed codes', async () => {
      const taskQueue = queue('horsies');
      const key = `${taskQueue}-k`;
      const w = await worker(taskQueue);
      const result = await w.runUntil(env.client.workflow.execute(underPolicy, {
        taskQueue, args: ['horsiesFixed', key, ['RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'RATE_LIMITED']],
      }));
      assert.equal(result, 'ok at attempt 4');
      assert.deepEqual(delays(seen.get(key)!), [60_000, 300_000, 900_000]);
    });

    test('horsies: a failure whose code autoRetryFor does not list, or that has no code, is not retried', async () => {
      const taskQueue = queue('horsies-codes');
      const w = await worker(taskQueue);
      const [unlisted, uncoded] = await w.runUntil(Promise.all([
        env.client.workflow.execute(underPolicy, { taskQueue, args: ['horsiesFixed', `${taskQueue}-a`, ['RATE_LIMITED', 'PERMISSION_DENIED']] }),
        env.client.workflow.execute(underPolicy, { taskQueue, args: ['horsiesExponential', `${taskQueue}-b`, [null]] }),
      ]));
      assert.equal(unlisted, 'failed: NonRetryableFailure: attempt 2: PERMISSION_DENIED');
      assert.equal(seen.get(`${taskQueue}-a`)!.length, 2);
      assert.equal(uncoded, 'ok at attempt 1');
      const jittered = `${taskQueue}-c`;
      const result = await (await worker(taskQueue)).runUntil(env.client.workflow.execute(underPolicy, {
        taskQueue, args: ['horsiesExponential', jittered, ['RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED', 'INTERNAL']],
      }));
      assert.equal(result, 'failed: NonRetryableFailure: attempt 4: INTERNAL');
      const rows = seen.get(jittered)!;
      const policy = resolvePolicyData(POLICIES.horsiesExponential);
      assert.deepEqual(delays(rows), [1, 2, 3].map((a) => policyDelay(policy, a, rows[0]!.runId + rows[0]!.activityId)));
      delays(rows).forEach((d, i) => assert.ok(d >= 0.75 * 30_000 * 2 ** i && d <= 1.25 * 30_000 * 2 ** i, `retry ${i + 1}: ${d} ms`));
    });

    test('every Polly curve drives the engine, seeded by run and activity', async () => {
      const taskQueue = queue('polly');
      const w = await worker(taskQueue);
      const names: PolicyName[] = ['decorrelatedJitter', 'awsJitter', 'constantFastFirst', 'linear', 'exponentialCeiling'];
      const results = await w.runUntil(Promise.all(names.map((name) => env.client.workflow.execute(underPolicy, {
        taskQueue, args: [name, `${taskQueue}-${name}`, ['X', 'X', 'X']],
      }))));
      assert.deepEqual(results, names.map(() => 'ok at attempt 4'));
      const observed = Object.fromEntries(names.map((name) => [name, delays(seen.get(`${taskQueue}-${name}`)!)]));
      assert.deepEqual(observed.constantFastFirst, [0, 2000, 2000]);
      assert.deepEqual(observed.linear, [1000, 3000, 5000]);
      assert.deepEqual(observed.exponentialCeiling, [1000, 3000, 9000]);
      for (const name of names) {
        const rows = seen.get(`${taskQueue}-${name}`)!;
        const expected = [1, 2, 3].map((a) => policyDelay(resolvePolicyData(POLICIES[name]), a, rows[0]!.runId + rows[0]!.activityId));
        assert.deepEqual(observed[name], expected, name);
      }
      assert.ok(observed.awsJitter!.every((d) => d >= 10 && d <= 60_000), String(observed.awsJitter));
    });

    test('describe shows the curve in force on a pending activity; the policy is versioned data in history', async () => {
      const taskQueue = queue('describe');
      const w = await worker(taskQueue);
      const handle = await env.client.workflow.start(underPolicy, {
        taskQueue, workflowId: `${taskQueue}-wf`, args: ['decorrelatedJitter', `${taskQueue}-k`, ['X', 'X', 'X', 'X', 'X']],
      });
      // Nobody waits on the result, so time stands still and the activity stays in its first backoff.
      const pending = await w.runUntil((async () => {
        for (;;) {
          const d = await env.client.connection.describeWorkflowExecution({ workflowId: handle.workflowId });
          const p = d.pendingActivities[0];
          if (p && p.attempt === 2) return p;
          await new Promise((r) => setTimeout(r, 20));
        }
      })());
      assert.equal(pending.backoff.source, 'polly');
      assert.deepEqual(pending.backoff.curve, { kind: 'decorrelated-jitter', medianFirstRetryDelayMs: 1000 });
      assert.equal(pending.backoff.summary, 'polly decorrelated jitter V2, median 1s');
      assert.equal(pending.maximumAttempts, 5);
      const scheduled = (await handle.fetchHistory()).events.find((e) => e.eventType === 'ActivityTaskScheduled');
      assert.deepEqual(scheduled?.eventType === 'ActivityTaskScheduled' && scheduled.attributes.retryPolicy, {
        version: 1, source: 'polly', curve: { kind: 'decorrelated-jitter', medianFirstRetryDelayMs: 1000 }, maximumAttempts: 5,
        jitter: 0, fastFirst: false, nonRetryableErrorTypes: [],
      });
      await handle.terminate('done looking');
    });

    test('timeouts carry their type: listing it in nonRetryableErrorTypes (or its Temporal or Cadence spelling) stops the retries', async () => {
      const taskQueue = queue('timeouts');
      const w = await worker(taskQueue);
      const [startToClose, cadence, other, heartbeat, temporal] = await w.runUntil(Promise.all([
        env.client.workflow.execute(timeoutCase, { taskQueue, args: ['startToClose', 'a', 4000] }),
        env.client.workflow.execute(timeoutCase, { taskQueue, args: ['cadenceSpelling', 'b', 4000] }),
        env.client.workflow.execute(timeoutCase, { taskQueue, args: ['otherTypeListed', 'c', 4000] }),
        env.client.workflow.execute(timeoutCase, { taskQueue, args: ['heartbeat', 'd', 4000] }),
        env.client.workflow.execute(timeoutCase, { taskQueue, args: ['temporalSpelling', 'e', 4000] }),
      ]));
      assert.equal(startToClose, 'failed: NonRetryableFailure: StartToCloseTimeout');
      assert.equal(cadence, 'failed: NonRetryableFailure: StartToCloseTimeout');
      assert.equal(other, 'ok at attempt 2', 'a start-to-close timeout is retried when only HeartbeatTimeout is listed');
      assert.equal(heartbeat, 'failed: NonRetryableFailure: HeartbeatTimeout');
      assert.equal(temporal, 'failed: NonRetryableFailure: HeartbeatTimeout', "Temporal's TemporalTimeout:Heartbeat spelling matches too");
      const late = warnings.splice(0);
      assert.ok(late.length > 0 && late.every((m) => /the service refused the outcome of activity hang/.test(m)), late.join('\n'));
    });

    test('time skips to a schedule-to-start timeout while the activity waits on a queue nobody polls', async () => {
      const taskQueue = queue('unpolled');
      const w = await worker(taskQueue);
      const started = env.now();
      const result = await w.runUntil(env.client.workflow.execute(timeoutCase, { taskQueue, args: ['unpolledQueue', 'f', 0] }));
      assert.equal(result, 'failed: Timeout: ScheduleToStartTimeout');
      assert.ok(env.now() - started >= 60_000, `the clock moved ${env.now() - started} ms`);
    });

    test('a run that reaches its run timeout closes TimedOut (as Temporal does; the seed says Terminated)', async () => {
      const taskQueue = queue('run-timeout');
      const w = await worker(taskQueue);
      const handle = await env.client.workflow.start(sleeper, { taskQueue, args: ['2 hours'], workflowRunTimeout: '1 hour' });
      await assert.rejects(w.runUntil(handle.result()), (err: unknown) => err instanceof WorkflowFailedError && err.status === 'TimedOut');
      const history = types((await handle.fetchHistory()).events);
      assert.equal(history.at(-1), 'WorkflowExecutionTimedOut');
      assert.ok(!history.includes('WorkflowExecutionTerminated'));
    });

    test('kill -9 of the worker running an attempt: the attempt fails with WORKER_CRASHED, which autoRetryFor decides', { timeout: 120_000 }, async () => {
      for (const [name, expected] of [['crashRetried', 'ok at attempt 2'], ['crashNotListed', 'failed: NonRetryableFailure: HeartbeatTimeout']] as const) {
        const taskQueue = queue(name);
        const key = `${taskQueue}-k`;
        const child = spawnNode(['--import', 'tsx', 'test/fixtures/retry/crash-worker.ts'], { STEADFAST_ADDRESS: env.address, TASK_QUEUE: taskQueue });
        let w: Worker | undefined;
        try {
          await child.waitFor(/worker ready/);
          const handle = await env.client.workflow.start(crashCase, { taskQueue, args: [name, key, 0] });
          await child.waitFor(new RegExp(`${key} attempt 1 started`));
          await child.kill('SIGKILL');
          w = await worker(taskQueue);
          assert.equal(await w.runUntil(handle.result()), expected, name);
          const events = (await handle.fetchHistory()).events;
          const closed = events.find((e) => e.eventType === 'ActivityTaskTimedOut' || e.eventType === 'ActivityTaskCompleted');
          if (closed?.eventType === 'ActivityTaskTimedOut') {
            assert.equal(closed.attributes.failure.errorCode, 'WORKER_CRASHED');
            assert.equal(closed.attributes.failure.type, 'HeartbeatTimeout');
          } else {
            const started = events.find((e) => e.eventType === 'ActivityTaskStarted');
            assert.equal(started?.eventType === 'ActivityTaskStarted' && started.attributes.lastFailure?.errorCode, 'WORKER_CRASHED');
          }
        } finally {
          await child.kill('SIGKILL');
        }
      }
    });
  });
}
