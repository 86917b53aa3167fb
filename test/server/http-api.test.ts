import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TestEnvironment } from '../../src/testing/index.ts';
import {
  Client, HttpWorkflowService, WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowNotFoundError,
} from '../../src/client/index.ts';
import { ApplicationFailure, ValidationError } from '../../src/common/index.ts';
import { rawRequest } from './batch-helpers.ts';
import type { UndeliveredTaskReturn } from '../../src/engine/index.ts';

describe('HTTP API', () => {
  let env: TestEnvironment;
  let http: HttpWorkflowService;
  let client: Client;

  before(async () => {
    env = await TestEnvironment.createLocal();
    http = new HttpWorkflowService({ address: env.address });
    client = new Client({ address: env.address });
  });
  after(async () => {
    client.close();
    http.close();
    await env.teardown();
  });

  test('a workflow started, run and completed entirely over HTTP', async () => {
    const handle = await client.workflow.start('greet', { taskQueue: 'http-q', workflowId: 'greet-1', args: ['ada'] });
    const task = await http.pollWorkflowTaskQueue({ taskQueue: 'http-q', identity: 'scripted' });
    assert.ok(task);
    assert.equal(task.workflowType, 'greet');
    assert.deepEqual(task.history.map((e) => e.eventType), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
    const started = task.history[0]!;
    assert.equal(started.eventType, 'WorkflowExecutionStarted');
    await http.respondWorkflowTaskCompleted({
      taskToken: task.taskToken, identity: 'scripted',
      commands: [{ commandType: 'CompleteWorkflowExecution', attributes: { result: 'hello ada' } }],
    });
    assert.equal(await handle.result(), 'hello ada');
    const d = await handle.describe();
    assert.equal(d.status, 'Completed');
    const { events } = await handle.fetchHistory();
    assert.deepEqual(events.map((e) => e.eventId), events.map((_, i) => i + 1));
  });

  test('a failed workflow surfaces as WorkflowFailedError with the application failure as cause', async () => {
    const handle = await client.workflow.start('doomed', { taskQueue: 'http-q', workflowId: 'doomed-1' });
    const task = await http.pollWorkflowTaskQueue({ taskQueue: 'http-q', identity: 'scripted' });
    assert.ok(task);
    await http.respondWorkflowTaskCompleted({
      taskToken: task.taskToken, identity: 'scripted',
      commands: [{ commandType: 'FailWorkflowExecution', attributes: { failure: { kind: 'Application', message: 'no stock', type: 'OutOfStock', nonRetryable: true } } }],
    });
    await assert.rejects(handle.result(), (err: unknown) => {
      assert.ok(err instanceof WorkflowFailedError);
      assert.equal(err.status, 'Failed');
      assert.ok(err.cause instanceof ApplicationFailure);
      assert.equal(err.cause.type, 'OutOfStock');
      return true;
    });
  });

  test('bad input comes back as a ValidationError naming the field', async () => {
    await assert.rejects(
      client.workflow.start('greet', { taskQueue: '', workflowId: 'x' }),
      (err: unknown) => err instanceof ValidationError && /taskQueue/.test(err.message),
    );
    await assert.rejects(
      http.startWorkflowExecution({ workflowId: 'w', workflowType: 't', taskQueue: 'q', workflowExecutionTimeoutMs: -5 }),
      (err: unknown) => err instanceof ValidationError && /workflowExecutionTimeout/.test(err.message),
    );
  });

  test('errors keep their class across the wire', async () => {
    await client.workflow.start('greet', { taskQueue: 'http-q2', workflowId: 'dup-1', args: ['x'] });
    await assert.rejects(
      client.workflow.start('greet', { taskQueue: 'http-q2', workflowId: 'dup-1', args: ['x'] }),
      (err: unknown) => err instanceof WorkflowExecutionAlreadyStartedError && err.workflowId === 'dup-1',
    );
    await assert.rejects(client.workflow.getHandle('no-such-workflow').describe(), WorkflowNotFoundError);
    await client.workflow.getHandle('dup-1').terminate('test over');
  });

  test('malformed requests get 400/404/405 with a message', async () => {
    const bad = await rawRequest(env.address, '/api/v1/startWorkflowExecution', '{not json');
    assert.equal(bad.status, 400);
    assert.match(bad.json.error.message, /not valid JSON/);
    const arr = await rawRequest(env.address, '/api/v1/startWorkflowExecution', '[1,2]');
    assert.equal(arr.status, 400);
    assert.match(arr.json.error.message, /JSON object/);
    const unknown = await rawRequest(env.address, '/api/v1/launchMissiles', '{}');
    assert.equal(unknown.status, 404);
    assert.match(unknown.json.error.message, /unknown API method "launchMissiles"/);
    const missing = await rawRequest(env.address, '/api/v1/startWorkflowExecution', '{}');
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error.code, 'InvalidArgument');
    assert.ok(missing.json.error.field);
  });

  test('a long poll ends with null when its caller aborts', async () => {
    const ac = new AbortController();
    const poll = http.pollWorkflowTaskQueue({ taskQueue: 'empty-queue', identity: 'x' }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    assert.equal(await poll, null);
  });
});

describe('tasks whose poller left', () => {
  test('a poller that goes away just as a task arrives does not hold the task until its timeout', async () => {
    const env = await TestEnvironment.createLocal();
    const http = new HttpWorkflowService({ address: env.address });
    try {
      const ac = new AbortController();
      const gone = http.pollWorkflowTaskQueue({ taskQueue: 'left', identity: 'gone' }, { signal: ac.signal });
      await new Promise((r) => setTimeout(r, 30));
      ac.abort();
      await gone;
      // No pause: the server may not have seen the connection close when the task arrives.
      await env.client.workflow.start('x', { taskQueue: 'left', workflowId: 'left-1' });
      const task = await http.pollWorkflowTaskQueue({ taskQueue: 'left', identity: 'alive', pollTimeoutMs: 3000 });
      assert.ok(task, 'the live poller got the task without waiting out the 10 s task timeout');
    } finally {
      http.close();
      await env.teardown();
    }
  });

  test('a returned workflow task is handed out again at once; a returned activity attempt keeps its attempt', async () => {
    const env = await TestEnvironment.createLocal();
    const engine = env.connection;
    try {
      await env.client.workflow.start('x', { taskQueue: 'given-back', workflowId: 'given-back-1' });
      const first = await engine.pollWorkflowTaskQueue({ taskQueue: 'given-back', identity: 'a' });
      assert.ok(first);
      await (engine as unknown as UndeliveredTaskReturn).returnUndeliveredTask(first);
      const again = await engine.pollWorkflowTaskQueue({ taskQueue: 'given-back', identity: 'b', pollTimeoutMs: 1000 });
      assert.ok(again);
      assert.equal(again.attempt, 2);
      await engine.respondWorkflowTaskCompleted({
        taskToken: again.taskToken, identity: 'b',
        commands: [{ commandType: 'ScheduleActivityTask', attributes: { activityId: '1', activityType: 'a', args: [], startToCloseTimeoutMs: 60_000 } }],
      });
      const activity = await engine.pollActivityTaskQueue({ taskQueue: 'given-back', identity: 'a' });
      assert.ok(activity);
      await (engine as unknown as UndeliveredTaskReturn).returnUndeliveredTask(activity);
      const activityAgain = await engine.pollActivityTaskQueue({ taskQueue: 'given-back', identity: 'b', pollTimeoutMs: 1000 });
      assert.ok(activityAgain);
      assert.equal(activityAgain.attempt, 1);
      await engine.respondActivityTaskCompleted({ taskToken: activityAgain.taskToken, identity: 'b', result: 1 });
      const types = (await env.client.workflow.getHandle('given-back-1').fetchHistory()).events.map((e) => e.eventType);
      assert.deepEqual(types.slice(0, 4), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskTimedOut']);
      assert.ok(types.includes('ActivityTaskCompleted'));
    } finally {
      await env.teardown();
    }
  });
});

describe('HTTP API shutdown', () => {
  test('closing the server ends open long polls with their empty answer', async () => {
    const env = await TestEnvironment.createLocal();
    // Closed only once the poll is in the engine: closed before it arrives, the poll would be
    // refused at the door and retried as Unavailable instead.
    const engine = env.connection as unknown as { pollActivityTaskQueue: (...a: unknown[]) => Promise<unknown> };
    const original = engine.pollActivityTaskQueue.bind(engine);
    let arrived!: () => void;
    const inEngine = new Promise<void>((r) => (arrived = r));
    engine.pollActivityTaskQueue = (...a) => {
      arrived();
      return original(...a);
    };
    const http = new HttpWorkflowService({ address: env.address });
    const poll = http.pollActivityTaskQueue({ taskQueue: 'nothing-here', identity: 'x' });
    await inEngine;
    await env.teardown();
    assert.equal(await poll, null);
    http.close();
  });

  test('an unreachable server is reported as Unavailable, naming the address', async () => {
    const http = new HttpWorkflowService({ address: 'http://127.0.0.1:1' });
    await assert.rejects(http.describeWorkflowExecution({ workflowId: 'x' }), (err: any) => err.code === 'Unavailable' && /127\.0\.0\.1:1/.test(err.message));
    http.close();
  });
});
