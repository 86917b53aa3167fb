import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../src/retry/clock.ts';
import { activityInfo, cancellationSignal, CompleteAsyncError, heartbeat } from '../../src/activity/index.ts';
import type { Logger } from '../../src/worker/logger.ts';
import { silentLogger } from '../helpers/logger.ts';
import { Worker } from '../../src/worker/index.ts';
import { HistoryBuilder } from '../workflow/history-builder.ts';
import { FakeService, activityTask } from './fake-service.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/workflows/${name}`, import.meta.url));

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

async function until(check: () => boolean, clock?: ManualClock): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) {
    if (clock) await clock.advance(0);
    await new Promise((r) => setImmediate(r));
  }
  assert.ok(check(), 'condition not reached');
}

describe('Worker options', () => {
  const connection = new FakeService().asService();
  test('every option is validated and errors name it', async () => {
    await assert.rejects(Worker.create({ connection, taskQueue: '', activities: { a: async () => 1 } }), /taskQueue must be a non-empty string, got ""/);
    await assert.rejects(Worker.create({ connection, address: 'http://x:1', taskQueue: 'q', activities: {} }), /exactly one of address and connection must be given, got both/);
    await assert.rejects(Worker.create({ connection, taskQueue: 'q' }), /a worker needs workflowsPath \(or workflowBundle\), activities, or both; none was given/);
    await assert.rejects(Worker.create({ connection, taskQueue: 'q', activities: { a: async () => 1 }, maxConcurrentActivityTaskExecutions: 0 }),
      /maxConcurrentActivityTaskExecutions must be >= 1, got 0/);
    await assert.rejects(Worker.create({ connection, taskQueue: 'q', activities: { a: async () => 1 }, shutdownGraceTime: 'soon' as never }),
      /shutdownGraceTime is not a valid duration: "soon"/);
    await assert.rejects(Worker.create({ connection, taskQueue: 'q', activities: { a: async () => 1 }, maxConcurrentActivityTaskPolls: 0 }),
      /maxConcurrentActivityTaskPolls must be >= 1, got 0/);
    await assert.rejects(Worker.create({ connection, taskQueue: 'q', activities: { a: async () => 1 }, maxConcurrentWorkflowTaskPolls: 1.5 }),
      /maxConcurrentWorkflowTaskPolls must be an integer/);
    await assert.rejects(Worker.create({ connection, taskQueue: 'q', activities: { a: async () => 1 }, reuseV8Context: 'yes' } as never),
      /reuseV8Context must be true or false, got "yes"/);
    await assert.rejects(Worker.create({ connection, taskQueue: 'q', activities: { a: async () => 1 }, reuseContext: false } as never),
      /reuseContext was renamed reuseV8Context, Temporal's name for the same option: write reuseV8Context, got false/);
    await assert.rejects(Worker.create({ connection, taskQueue: 'q', activities: { a: async () => 1 }, pollers: 3 } as never),
      /pollers is not a worker option/);
    await assert.rejects(Worker.create({ connection, taskQueue: 'q', workflowsPath: fixture('imports-fs.ts') }), /may not import the Node built-in 'node:fs'/);
  });

  test('defaults', async () => {
    const w = await Worker.create({ connection, taskQueue: 'q', activities: { a: async () => 1 } });
    assert.equal(w.options.maxConcurrentActivityTaskExecutions, 100);
    assert.equal(w.options.maxConcurrentWorkflowTaskExecutions, 40);
    assert.equal(w.options.maxCachedWorkflows, 1000);
    assert.equal(w.options.reuseV8Context, true);
    assert.equal(w.options.maxConcurrentWorkflowTaskPolls, 10);
    assert.equal(w.options.maxConcurrentActivityTaskPolls, 10);
    assert.equal(w.options.shutdownGraceTimeMs, 10_000);
    assert.equal(w.options.namespace, 'default');
    await w.shutdown();
  });

  test('maxConcurrentActivityTaskPolls long polls are kept open, never more than the execution slots', async () => {
    const service = new FakeService();
    const w = await Worker.create({ connection: service.asService(), logger: silentLogger, taskQueue: 'q', activities: { a: async () => 1 }, maxConcurrentActivityTaskPolls: 3 });
    const running = w.run();
    await until(() => service.activityTasks.waiters.length === 3);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.equal(service.polls, 3);
    await w.shutdown();
    await running;
    const capped = new FakeService();
    const w2 = await Worker.create({
      connection: capped.asService(), logger: silentLogger, taskQueue: 'q', activities: { a: async () => 1 }, maxConcurrentActivityTaskPolls: 5, maxConcurrentActivityTaskExecutions: 2,
    });
    const running2 = w2.run();
    await until(() => capped.activityTasks.waiters.length === 2);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.equal(capped.polls, 2);
    await w2.shutdown();
    await running2;
  });
});

describe('activities', () => {
  test('an activity runs with its info and its result is reported; shutdown ends in-flight long polls', async () => {
    const service = new FakeService();
    const worker = await Worker.create({
      connection: service.asService(), logger: silentLogger, taskQueue: 'q', activities: { async double(n: number) { return `${n * 2} on attempt ${activityInfo().attempt}`; } },
    });
    const running = worker.run();
    service.activityTasks.push(activityTask('double', [21], { attempt: 3 }));
    await service.responsesReach(1);
    assert.deepEqual(service.responses[0]!.method, 'respondActivityTaskCompleted');
    assert.equal((service.responses[0]!.req as { result: unknown }).result, '42 on attempt 3');
    await worker.shutdown();
    await running;
    assert.equal(worker.state, 'stopped');
  });

  test('heartbeats are throttled to 0.8 × the heartbeat timeout, deliver the latest details, and reach a failure', async () => {
    const clock = new ManualClock(0);
    const service = new FakeService();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const worker = await Worker.create({
      connection: service.asService(), logger: silentLogger, taskQueue: 'q', clock, activities: {
        async crunch() {
          assert.equal(activityInfo().heartbeatDetails, 4);
          heartbeat(5);
          heartbeat(6);
          heartbeat(7);
          await gate;
          heartbeat(8);
          throw new Error('lost at 8');
        },
      },
    });
    const running = worker.run();
    service.activityTasks.push(activityTask('crunch', [], { heartbeatTimeoutMs: 1000, heartbeatDetails: 4 }));
    await until(() => service.heartbeats.length === 1);
    assert.deepEqual(service.heartbeats.map((h) => h.details), [5]);
    await clock.advance(799);
    assert.equal(service.heartbeats.length, 1);
    await clock.advance(1);
    assert.deepEqual(service.heartbeats.map((h) => h.details), [5, 7]);
    release();
    await service.responsesReach(1);
    const failed = service.responses[0]!;
    assert.equal(failed.method, 'respondActivityTaskFailed');
    assert.equal((failed.req as { lastHeartbeatDetails: unknown }).lastHeartbeatDetails, 8);
    assert.equal((failed.req as { failure: { message: string } }).failure.message, 'lost at 8');
    await worker.shutdown();
    await running;
  });

  test('an activity that throws CompleteAsyncError is reported neither completed nor failed, and frees its slot', async () => {
    const service = new FakeService();
    const { logger, lines } = recordingLogger();
    const tokens: Uint8Array[] = [];
    const worker = await Worker.create({
      connection: service.asService(), logger, taskQueue: 'q', maxConcurrentActivityTaskExecutions: 1, activities: {
        async later() {
          tokens.push(activityInfo().taskToken);
          throw new CompleteAsyncError();
        },
        async now() {
          return 'done';
        },
      },
    });
    const running = worker.run();
    const task = activityTask('later', []);
    service.activityTasks.push(task);
    service.activityTasks.push(activityTask('now', []));
    // The one slot serves the second task only once the first one's is free.
    await service.responsesReach(1);
    assert.deepEqual(service.responses.map((r) => r.method), ['respondActivityTaskCompleted']);
    assert.deepEqual(tokens.map((t) => Buffer.from(t).toString('utf8')), [task.taskToken]);
    assert.deepEqual(lines.filter((l) => l.level === 'error' || l.level === 'warn'), []);
    await worker.shutdown();
    await running;
    assert.equal(service.responses.length, 1, 'nothing was reported for the attempt left open');
  });

  test('a cancel request in a heartbeat response aborts the cancellation signal and reports Canceled', async () => {
    const service = new FakeService();
    const task = activityTask('waitForCancel', [], { heartbeatTimeoutMs: 10_000 });
    service.cancelRequested.add(task.taskToken);
    const worker = await Worker.create({
      connection: service.asService(), logger: silentLogger, taskQueue: 'q', activities: {
        async waitForCancel() {
          heartbeat('started');
          const signal = cancellationSignal();
          await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
        },
      },
    });
    const running = worker.run();
    service.activityTasks.push(task);
    await service.responsesReach(1);
    assert.equal(service.responses[0]!.method, 'respondActivityTaskCanceled');
    await worker.shutdown();
    await running;
  });

  test('shutdown waits the grace time for running activities, then aborts them; they fail, not cancel', async () => {
    const clock = new ManualClock(0);
    const service = new FakeService();
    let started = false;
    const worker = await Worker.create({
      connection: service.asService(), taskQueue: 'q', clock, shutdownGraceTime: '5s', logger: recordingLogger().logger, activities: {
        async slow() {
          started = true;
          const signal = cancellationSignal();
          await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
        },
      },
    });
    const running = worker.run();
    service.activityTasks.push(activityTask('slow', []));
    await until(() => started);
    const stopped = worker.shutdown();
    await until(() => worker.state === 'stopping');
    await clock.advance(4999);
    assert.equal(service.responses.length, 0);
    await clock.advance(1);
    await stopped;
    await running;
    assert.equal(service.responses[0]!.method, 'respondActivityTaskFailed');
    assert.match((service.responses[0]!.req as { failure: { message: string } }).failure.message, /Worker shutting down/);
  });

  test('an unknown activity type fails the attempt, naming what is registered', async () => {
    const service = new FakeService();
    const worker = await Worker.create({ connection: service.asService(), logger: silentLogger, taskQueue: 'q', activities: { a: async () => 1, b: async () => 2 } });
    const running = worker.run();
    service.activityTasks.push(activityTask('c', []));
    await service.responsesReach(1);
    assert.match((service.responses[0]!.req as { failure: { message: string } }).failure.message,
      /activity type "c" is not registered on this worker; registered: a, b/);
    await worker.shutdown();
    await running;
  });
});

test('an unreachable server is logged once, polls back off, and the recovery is logged once', async () => {
  const clock = new ManualClock(0);
  const service = new FakeService();
  const { logger, lines } = recordingLogger();
  service.down = true;
  const worker = await Worker.create({
    connection: service.asService(), taskQueue: 'q', clock, logger, activities: { a: async () => 1 }, maxConcurrentActivityTaskPolls: 1,
  });
  const running = worker.run();
  for (let i = 0; i < 30; i++) await clock.advance(1000);
  const pollsDuringOutage = service.polls;
  assert.ok(pollsDuringOutage >= 6 && pollsDuringOutage < 40, `${pollsDuringOutage} polls in 30 s of outage`);
  assert.equal(lines.filter((l) => l.level === 'warn').length, 1);
  assert.match(lines.find((l) => l.level === 'warn')!.message, /cannot reach the steadfast service .*ECONNREFUSED/);
  service.down = false;
  for (let i = 0; i < 15; i++) await clock.advance(1000);
  service.activityTasks.push(activityTask('a', []));
  await service.responsesReach(1);
  assert.equal(service.responses[0]!.method, 'respondActivityTaskCompleted');
  // A long poll answers when a task arrives, so the recovery shows with the first task.
  assert.equal(lines.filter((l) => l.level === 'info' && /reachable again/.test(l.message)).length, 1);
  assert.equal(lines.filter((l) => l.level === 'warn').length, 1);
  await worker.shutdown();
  await running;
});

describe('workflow tasks', () => {
  function task(h: HistoryBuilder, events: HistoryBuilder['events'], previousStartedEventId: number, attempt = 1) {
    return {
      taskToken: `wt-${h.events.length}-${attempt}`, namespace: 'default', workflowId: 'wf-1', runId: 'run-1', workflowType: h.options.workflowType,
      taskQueue: 'q', attempt, previousStartedEventId, startedEventId: h.events.length, history: events,
    };
  }

  async function twoTasks(maxCachedWorkflows: number) {
    const service = new FakeService();
    const worker = await Worker.create({ connection: service.asService(), logger: silentLogger, taskQueue: 'q', workflowsPath: fixture('nondeterminism-v1.ts'), maxCachedWorkflows });
    const running = worker.run();
    const h = new HistoryBuilder({ workflowType: 'timerThenActivity', args: ['ada'] });
    service.workflowTasks.push(task(h, h.startTask(), 0));
    await service.responsesReach(1);
    const first = service.responses[0]!.req as { commands: [] };
    const previous = h.events.length;
    h.completeTask(first.commands).advance(60_000).timerFired('1');
    service.histories.set('wf-1', h.events.concat());
    const events = h.startTask();
    service.histories.set('wf-1', h.events.concat());
    service.workflowTasks.push(task(h, events, previous));
    await service.responsesReach(2);
    await worker.shutdown();
    await running;
    return { worker, second: service.responses[1]!.req as { commands: { commandType: string }[] } };
  }

  test('a poller sends the completion of the task it got before it polls again', async () => {
    const service = new FakeService();
    const worker = await Worker.create({
      connection: service.asService(), logger: silentLogger, taskQueue: 'q', workflowsPath: fixture('nondeterminism-v1.ts'), maxConcurrentWorkflowTaskPolls: 1,
    });
    const running = worker.run();
    const h = new HistoryBuilder({ workflowType: 'timerThenActivity', args: ['ada'] });
    service.workflowTasks.push(task(h, h.startTask(), 0));
    await service.responsesReach(1);
    assert.deepEqual({ method: service.responses[0]!.method, polls: service.responses[0]!.polls }, { method: 'respondWorkflowTaskCompleted', polls: 1 });
    await until(() => service.polls === 2);
    await worker.shutdown();
    await running;
  });

  test('a cached run answers the next task from its new events only', async () => {
    const { worker, second } = await twoTasks(10);
    assert.deepEqual(second.commands.map((c) => c.commandType), ['ScheduleActivityTask']);
    assert.deepEqual(worker.workflowStats, { cacheHits: 1, replays: 1, cached: 1, continued: 0, continuedRefused: 0, eagerActivities: 0, ranAhead: 0, droppedAhead: 0 });
  });

  test('without a cache the full history is fetched page by page and replayed to the same state', async () => {
    const { worker, second } = await twoTasks(0);
    assert.deepEqual(second.commands.map((c) => c.commandType), ['ScheduleActivityTask']);
    assert.deepEqual(worker.workflowStats, { cacheHits: 0, replays: 2, cached: 0, continued: 0, continuedRefused: 0, eagerActivities: 0, ranAhead: 0, droppedAhead: 0 });
  });

  test('non-determinism fails the workflow task with cause NonDeterminism; fixed code then carries on', async () => {
    const service = new FakeService();
    const h = new HistoryBuilder({ workflowType: 'timerThenActivity', args: ['ada'] });
    h.startTask();
    h.completeTask([{ commandType: 'StartTimer', attributes: { timerId: '1', startToFireTimeoutMs: 60_000 } }]).advance(60_000).timerFired('1');
    h.startTask();
    service.histories.set('wf-1', h.events);
    const broken = await Worker.create({ connection: service.asService(), taskQueue: 'q', workflowsPath: fixture('nondeterminism-v2.ts'), logger: recordingLogger().logger });
    const r1 = broken.run();
    service.workflowTasks.push(task(h, h.events.slice(4), 3));
    await service.responsesReach(1);
    await broken.shutdown();
    await r1;
    const failed = service.responses[0]!;
    assert.equal(failed.method, 'respondWorkflowTaskFailed');
    const req = failed.req as { cause: string; failure: { message: string } };
    assert.equal(req.cause, 'NonDeterminism');
    assert.match(req.failure.message, /history has event 5 TimerStarted \{ timerId: "1" \}, but the code produced ScheduleActivityTask/);

    const fixed = await Worker.create({ connection: service.asService(), logger: silentLogger, taskQueue: 'q', workflowsPath: fixture('nondeterminism-v1.ts') });
    const r2 = fixed.run();
    service.workflowTasks.push(task(h, h.events.slice(4), 3, 2));
    await service.responsesReach(2);
    await fixed.shutdown();
    await r2;
    assert.equal(service.responses[1]!.method, 'respondWorkflowTaskCompleted');
    assert.deepEqual((service.responses[1]!.req as { commands: { commandType: string }[] }).commands.map((c) => c.commandType), ['ScheduleActivityTask']);
  });
});

