import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from '../../src/worker/index.ts';
import type { Logger } from '../../src/worker/logger.ts';
import { startHttpServer, type HttpServer } from '../../src/server/index.ts';
import { freePort } from '../helpers/processes.ts';
import { cmd, setup, type Harness } from '../engine/helpers.ts';
import { ServiceError } from '../../src/common/errors.ts';
import type { WorkflowService } from '../../src/protocol/index.ts';
import * as crashActivities from '../fixtures/crash/activities.ts';
import { heartbeat } from '../../src/activity/index.ts';

const CRASH_WORKFLOWS = new URL('../fixtures/crash/workflows.ts', import.meta.url).pathname;

/** The engine, with its first `failures` answers to `method` lost as if the server were down. */
function losing(h: Harness, method: 'respondWorkflowTaskCompleted' | 'recordActivityTaskHeartbeat', failures: number): WorkflowService {
  let left = failures;
  return new Proxy(h.engine, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      const fn = typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      if (prop !== method) return fn;
      return (req: unknown) => left-- > 0
        ? Promise.reject(new ServiceError('Unavailable', `${method}: cannot reach the steadfast server (connect ECONNREFUSED)`))
        : (fn as (r: unknown) => unknown)(req);
    },
  }) as WorkflowService;
}

/** The engine, answering every call to `method` Unavailable, noting the engine clock's time of each try. */
function unreachableFor(h: Harness, method: 'respondActivityTaskCompleted' | 'respondWorkflowTaskCompleted', tries: number[]): WorkflowService {
  return new Proxy(h.engine, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      const fn = typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      if (prop !== method) return fn;
      return () => {
        tries.push(h.clock.now());
        return Promise.reject(new ServiceError('Unavailable', `${method}: cannot reach the steadfast server (connect ECONNREFUSED)`));
      };
    },
  }) as WorkflowService;
}

/** Moves the engine's (and the worker's) clock a second at a time until `check` holds. */
async function advanceUntil(h: Harness, check: () => boolean, what: string, maxSeconds = 60): Promise<void> {
  for (let i = 0; i < maxSeconds && !check(); i++) {
    await h.advance(1_000);
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.ok(check(), `timed out waiting for ${what}`);
}

/** Shuts a worker on the harness's clock down, moving the clock so its report retries end. */
async function shutdownOnClock(h: Harness, worker: Worker, running: Promise<void>): Promise<void> {
  let done = false;
  const stopped = worker.shutdown().then(() => running).finally(() => (done = true));
  for (let i = 0; i < 120 && !done; i++) {
    await h.advance(1_000);
    await new Promise((r) => setTimeout(r, 5));
  }
  await stopped;
}

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const add = (level: string) => (m: string) => void lines.push(`${level} ${m}`);
  return { lines, debug: add('debug'), info: add('info'), warn: add('warn'), error: add('error') };
}

/** An activity that records each run and finishes when the test opens its gate. */
function gatedActivity() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const runs: number[] = [];
  return {
    runs, running, open,
    async charge(id: string) {
      runs.push(runs.length + 1);
      started();
      await gate;
      return `charged ${id}`;
    },
  };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** Runs `fn` with a worker over HTTP whose `charge` activity waits until opened, then stops everything. */
async function withGatedWorker(fn: (c: { h: Harness; logger: ReturnType<typeof capture>; act: ReturnType<typeof gatedActivity> }) => Promise<void>): Promise<void> {
  const h = await setup();
  const server = await startHttpServer({ service: h.engine, port: 0 });
  const logger = capture();
  const act = gatedActivity();
  const worker = await Worker.create({ address: server.address, taskQueue: 'q', activities: { charge: act.charge }, logger });
  const running = worker.run();
  try {
    await fn({ h, logger, act });
  } finally {
    await worker.shutdown();
    await running;
    await server.close();
    await h.close();
  }
}

async function scheduleActivity(h: Harness, workflowId: string): Promise<void> {
  await h.start(workflowId);
  await h.complete(await h.pollWorkflow(), [cmd.activity('act-1')]);
}

describe('the worker keeps the reports it could not deliver', () => {
  test('an activity outcome finished while the server is down is reported once it is back; the activity runs once', async () => {
    const h = await setup();
    const port = await freePort();
    let server: HttpServer = await startHttpServer({ service: h.engine, port });
    const logger = capture();
    const act = gatedActivity();
    const worker = await Worker.create({ address: server.address, taskQueue: 'q', activities: { charge: act.charge }, logger });
    const running = worker.run();
    try {
      await scheduleActivity(h, 'r1');
      await act.running;
      await server.close();
      act.open();
      await waitFor(() => logger.lines.some((l) => /could not report the outcome of activity charge \(act-1\) yet/.test(l)), 'the first failed report');
      server = await startHttpServer({ service: h.engine, port });
      await waitFor(async () => (await h.types('r1')).includes('ActivityTaskCompleted'), 'the outcome in history');
      const completed = (await h.history('r1')).find((e) => e.eventType === 'ActivityTaskCompleted');
      assert.equal((completed?.attributes as { result?: unknown }).result, 'charged act-1');
      assert.deepEqual(act.runs, [1], 'the activity ran once');
      await waitFor(() => logger.lines.some((l) => /^info reported the outcome of activity charge \(act-1\) after the service came back/.test(l)),
        'the recovery in the log');
    } finally {
      await worker.shutdown();
      await running;
      await server.close();
      await h.close();
    }
  });

  test('an outcome the service refuses as stale is logged once and dropped, not retried', () => withGatedWorker(async ({ h, logger, act }) => {
    await scheduleActivity(h, 'r2');
    await act.running;
    // Past the 10 s start-to-close timeout on the engine's clock: attempt 1 is superseded.
    await h.advance(11_000);
    act.open();
    await waitFor(() => logger.lines.some((l) => /refused the outcome of activity charge \(act-1\); dropped/.test(l)), 'the refusal');
    await h.advance(5_000); // past the retry backoff of attempt 2
    await waitFor(async () => (await h.types('r2')).includes('ActivityTaskCompleted'), 'attempt 2 completing');
    const refusals = logger.lines.filter((l) => /refused the outcome/.test(l));
    assert.equal(refusals.length, 1, refusals.join('\n'));
    assert.match(refusals[0]!, /^warn .*attempt 1 is stale/);
    assert.ok(!logger.lines.some((l) => /could not report/.test(l)), 'a refusal is not retried');
    assert.deepEqual(act.runs, [1, 2]);
  }));

  test('a workflow task answer the service could not take is sent again and the run goes on without a task timeout', async () => {
    const h = await setup();
    const logger = capture();
    const worker = await Worker.create({
      connection: losing(h, 'respondWorkflowTaskCompleted', 2), taskQueue: 'wq', workflowsPath: CRASH_WORKFLOWS, activities: crashActivities, logger,
    });
    try {
      const { runId } = await h.engine.startWorkflowExecution({ workflowId: 'wt-1', workflowType: 'twoSteps', taskQueue: 'wq', args: [5] });
      await worker.runUntil(async () => {
        const { events } = await h.engine.getWorkflowExecutionHistory({ workflowId: 'wt-1', runId, closeEventOnly: true, waitForClose: true });
        assert.equal(events[0]?.eventType, 'WorkflowExecutionCompleted');
        assert.equal((events[0]?.attributes as { result?: unknown }).result, 11);
      });
      const types = await h.types('wt-1');
      assert.ok(!types.includes('WorkflowTaskTimedOut') && !types.includes('WorkflowTaskFailed'), types.join(', '));
      assert.equal(logger.lines.filter((l) => /could not report the completion of workflow task 3 of wt-1 yet/.test(l)).length, 1);
      assert.ok(logger.lines.some((l) => /^info reported the completion of workflow task 3 of wt-1 after the service came back/.test(l)));
    } finally {
      await h.close();
    }
  });

  test('a heartbeat the service could not take is sent again with the latest details', async () => {
    const h = await setup();
    const logger = capture();
    const act = gatedActivity();
    const worker = await Worker.create({
      connection: losing(h, 'recordActivityTaskHeartbeat', 2), taskQueue: 'q', logger,
      activities: { charge: async (id: string) => { heartbeat('halfway'); return act.charge(id); } },
    });
    const running = worker.run();
    try {
      await scheduleActivity(h, 'hb-1');
      await act.running;
      await waitFor(async () => (await h.engine.describeWorkflowExecution({ workflowId: 'hb-1' })).pendingActivities[0]?.heartbeatDetails === 'halfway',
        'the heartbeat recorded');
      await waitFor(() => logger.lines.some((l) => /^info reported a heartbeat after the service came back/.test(l)), 'the recovery in the log');
      assert.equal(logger.lines.filter((l) => /could not report a heartbeat yet/.test(l)).length, 1);
      act.open();
      await waitFor(async () => (await h.types('hb-1')).includes('ActivityTaskCompleted'), 'the outcome in history');
    } finally {
      await worker.shutdown();
      await running;
      await h.close();
    }
  });

  test('an activity outcome the service never takes is tried until the attempt\'s start-to-close deadline, then given up and logged', async () => {
    const h = await setup();
    const logger = capture();
    const tries: number[] = [];
    let ranAt = 0;
    const worker = await Worker.create({
      connection: unreachableFor(h, 'respondActivityTaskCompleted', tries), taskQueue: 'q', logger, clock: h.clock,
      activities: { charge: async (id: string) => { ranAt = h.clock.now(); return `charged ${id}`; } },
    });
    const running = worker.run();
    try {
      await h.start('dl-1');
      await h.complete(await h.pollWorkflow(), [cmd.activity('act-1', { retryPolicy: { maximumAttempts: 1 } as never })]);
      await waitFor(() => tries.length > 0, 'the first try');
      const gaveUp = () => logger.lines.some((l) => /^warn gave up reporting the outcome of activity charge \(act-1\) after \d+ tries: the service stayed unavailable until the attempt's deadline/.test(l));
      await advanceUntil(h, gaveUp, 'the worker to give up');
      const deadline = ranAt + 10_000;
      assert.ok(tries.length >= 5, `tried again and again (${tries.length} tries)`);
      assert.ok(tries.every((t) => t <= deadline), `no try after the 10 s start-to-close deadline: ${tries.map((t) => t - ranAt).join(', ')}`);
      assert.ok(tries.at(-1)! >= deadline - 3_000, `tried until close to the deadline, last at +${tries.at(-1)! - ranAt} ms`);
      assert.equal(logger.lines.filter((l) => /could not report the outcome of activity charge \(act-1\) yet/.test(l)).length, 1, 'the delay is logged once');
      const triesAtGiveUp = tries.length;
      await h.advance(10_000);
      assert.equal(tries.length, triesAtGiveUp, 'nothing is tried after giving up');
    } finally {
      await shutdownOnClock(h, worker, running);
      await h.close();
    }
  });

  test('a workflow task answer the service never takes is tried until the workflow task timeout, then given up', async () => {
    const h = await setup();
    const logger = capture();
    const tries: number[] = [];
    const worker = await Worker.create({
      connection: unreachableFor(h, 'respondWorkflowTaskCompleted', tries), taskQueue: 'wq', workflowsPath: CRASH_WORKFLOWS,
      activities: crashActivities, logger, clock: h.clock,
    });
    const running = worker.run();
    try {
      const startedAt = h.clock.now();
      await h.engine.startWorkflowExecution({ workflowId: 'wt-dl', workflowType: 'twoSteps', taskQueue: 'wq', args: [5], workflowTaskTimeoutMs: 4_000 });
      await waitFor(() => tries.length > 0, 'the first try');
      const gaveUp = () => logger.lines.some((l) => /^warn gave up reporting the completion of workflow task 3 of wt-dl after \d+ tries/.test(l));
      await advanceUntil(h, gaveUp, 'the worker to give up', 20);
      const firstTaskTries = tries.filter((t) => t <= startedAt + 4_000);
      assert.ok(firstTaskTries.length >= 3, `tried again within the 4 s workflow task timeout (${firstTaskTries.length} tries)`);
      assert.ok(firstTaskTries.at(-1)! >= startedAt + 2_000, `tried until close to the timeout, last at +${firstTaskTries.at(-1)! - startedAt} ms`);
      await advanceUntil(h, () => tries.some((t) => t > startedAt + 4_000), 'the next workflow task', 10);
      assert.ok((await h.types('wt-dl')).includes('WorkflowTaskTimedOut'), 'the service timed the task out and scheduled another');
    } finally {
      await shutdownOnClock(h, worker, running);
      await h.close();
    }
  });

  test('an outcome for a run that closed meanwhile is refused, logged once and dropped', () => withGatedWorker(async ({ h, logger, act }) => {
    await scheduleActivity(h, 'closed-1');
    await act.running;
    await h.engine.terminateWorkflowExecution({ workflowId: 'closed-1', reason: 'closed while the activity ran' });
    act.open();
    await waitFor(() => logger.lines.some((l) => /the service refused the outcome of activity charge \(act-1\); dropped/.test(l)), 'the refusal');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(logger.lines.filter((l) => /refused the outcome/.test(l)).length, 1);
    assert.ok(!logger.lines.some((l) => /could not report/.test(l)), 'a refusal is not retried');
    assert.ok(!(await h.types('closed-1')).includes('ActivityTaskCompleted'));
  }));
});
