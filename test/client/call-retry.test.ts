import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, HttpWorkflowService, ServiceError, WorkflowNotFoundError } from '../../src/client/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { startHttpServer, type HttpServer } from '../../src/server/index.ts';
import { freePort } from '../helpers/processes.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import { cmd, setup } from '../engine/helpers.ts';

/** Short waits so a test rides through a gap of a few hundred milliseconds in many attempts. */
const FAST = { initialInterval: '10ms', maximumInterval: '50ms' } as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const unavailable = (err: unknown) => err instanceof ServiceError && err.code === 'Unavailable';

describe('client calls while the server is unavailable', () => {
  test('a start issued while no server listens goes through once the server is up, and starts one run', async () => {
    const h = await setup();
    const port = await freePort();
    const client = new Client({ address: `http://127.0.0.1:${port}`, retry: FAST });
    let server: HttpServer | undefined;
    try {
      const started = client.workflow.start('order', { taskQueue: 'q', workflowId: 'late-1', args: [] });
      const signalled = started.then((handle) => handle.signal('go', 1));
      await sleep(300);
      server = await startHttpServer({ service: h.engine, port });
      const handle = await started;
      await signalled;
      const runs = (await h.engine.listWorkflowExecutions({ workflowIdPrefix: 'late-' })).executions;
      assert.deepEqual(runs.map((r) => r.runId), [handle.firstExecutionRunId]);
      assert.equal((await h.types('late-1')).filter((t) => t === 'WorkflowExecutionSignaled').length, 1);
    } finally {
      client.close();
      await server?.close();
      await h.close();
    }
  });

  test('schedule reads ride through a gap too; schedule writes are not repeated', async () => {
    const h = await setup();
    const port = await freePort();
    const client = new Client({ address: `http://127.0.0.1:${port}`, retry: FAST });
    let server: HttpServer | undefined;
    try {
      const described = client.schedule.getHandle('no-such-schedule').describe().catch((e: unknown) => e);
      await sleep(300);
      server = await startHttpServer({ service: h.engine, port });
      const answer = await described;
      assert.ok(answer instanceof ServiceError && answer.code === 'NotFound', `answered by the server once it is up: ${String(answer)}`);
      await server.close();
      server = undefined;
      await assert.rejects(client.schedule.getHandle('no-such-schedule').delete(), (err: unknown) =>
        unavailable(err) && /cannot reach the steadfast server/.test((err as Error).message) && !/attempts/.test((err as Error).message));
    } finally {
      client.close();
      await server?.close();
      await h.close();
    }
  });

  test('result() resumes its wait on the same run when the server goes away and comes back', async () => {
    const h = await setup();
    const port = await freePort();
    let server = await startHttpServer({ service: h.engine, port });
    const client = new Client({ address: server.address, retry: FAST });
    try {
      const handle = await client.workflow.start('order', { taskQueue: 'q', workflowId: 'wait-1', args: [] });
      let settled = false;
      const result = handle.result().finally(() => (settled = true));
      await sleep(50);
      await server.close();
      await sleep(200);
      assert.equal(settled, false, 'result() keeps waiting while the server is down');
      server = await startHttpServer({ service: h.engine, port });
      await h.complete(await h.pollWorkflow(), [cmd.complete('done')]);
      assert.equal(await result, 'done');
    } finally {
      client.close();
      await server.close();
      await h.close();
    }
  });

  test('with the default options a call rides through a 60-second outage, and gives up after 90 s of one (time moved, not waited for)', async () => {
    const h = await setup();
    const port = await freePort();
    const clock = new ManualClock(0);
    const service = new HttpWorkflowService({ address: `http://127.0.0.1:${port}`, retry: {}, clock });
    let server: HttpServer | undefined;
    /** Lets the refused attempt fail, then moves the clock to the end of its backoff wait. */
    const step = async () => {
      for (let i = 0; i < 200 && clock.pendingSleeps() === 0; i++) await sleep(1);
      const due = clock.nextDue();
      if (due !== undefined) await clock.set(due);
    };
    try {
      const seen: { outcome?: unknown } = {};
      const call = service.describeWorkflowExecution({ workflowId: 'w' }).then((v) => (seen.outcome = v), (e: unknown) => (seen.outcome = e));
      while (clock.now() < 60_000) await step();
      assert.ok(!('outcome' in seen), 'still trying after 60 s');
      server = await startHttpServer({ service: h.engine, port });
      await step();
      await call;
      assert.ok(seen.outcome instanceof WorkflowNotFoundError, `answered by the server once it is back: ${String(seen.outcome)}`);
      await server.close();
      server = undefined;

      const start = clock.now();
      let failure: unknown;
      const doomed = service.describeWorkflowExecution({ workflowId: 'w' }).catch((e: unknown) => (failure = e));
      while (failure === undefined && clock.now() - start < 200_000) await step();
      await doomed;
      assert.ok(unavailable(failure));
      const tried = Number(/unavailable for ([\d.]+)s/.exec((failure as Error).message)?.[1]);
      assert.ok(tried >= 90 && tried <= 96, `gave up between 90 s and 90 s + one capped wait, after ${tried} s`);
    } finally {
      service.close();
      await server?.close();
      await h.close();
    }
  });

  test('a call that stays unavailable fails with Unavailable, saying how long and how often it tried', async () => {
    const client = new Client({ address: `http://127.0.0.1:${await freePort()}`, retry: { ...FAST, timeout: '300ms' } });
    try {
      await assert.rejects(client.workflow.getHandle('w').describe(), (err: unknown) => {
        assert.ok(unavailable(err));
        assert.match((err as Error).message,
          /^describeWorkflowExecution: the steadfast server at http:\/\/127\.0\.0\.1:\d+ was unavailable for \d+\.\ds over \d+ attempts: connect ECONNREFUSED/);
        return true;
      });
    } finally {
      client.close();
    }
  });

  test('maximumAttempts bounds the attempts', async () => {
    const client = new Client({ address: `http://127.0.0.1:${await freePort()}`, retry: { ...FAST, maximumAttempts: 3 } });
    try {
      await assert.rejects(client.workflow.getHandle('w').describe(), /over 3 attempts: connect ECONNREFUSED/);
    } finally {
      client.close();
    }
  });

  test('retry: false fails on the first refused connection', async () => {
    const client = new Client({ address: `http://127.0.0.1:${await freePort()}`, retry: false });
    try {
      await assert.rejects(client.workflow.getHandle('w').describe(), (err: unknown) =>
        unavailable(err) && /cannot reach the steadfast server/.test((err as Error).message) && !/attempts/.test((err as Error).message));
    } finally {
      client.close();
    }
  });

  test('an answer that is not Unavailable is not retried and keeps its class', async () => {
    const h = await setup();
    const server = await startHttpServer({ service: h.engine, port: 0 });
    const client = new Client({ address: server.address, retry: { ...FAST, maximumAttempts: 2 } });
    try {
      await assert.rejects(client.workflow.getHandle('missing').describe(), WorkflowNotFoundError);
    } finally {
      client.close();
      await server.close();
      await h.close();
    }
  });

  test('a query the server answered Unavailable (no worker answered in time) is not repeated', async () => {
    const h = await setup();
    const server = await startHttpServer({ service: h.engine, port: 0 });
    const client = new Client({ address: server.address, retry: FAST });
    try {
      const handle = await client.workflow.start('order', { taskQueue: 'q', workflowId: 'q-1', args: [] });
      await assert.rejects(handle.queryWithOptions('state', { timeout: '200ms' }), (err: unknown) =>
        unavailable(err) && /got no answer within 200 ms/.test((err as Error).message) && !/attempts/.test((err as Error).message));
    } finally {
      client.close();
      await server.close();
      await h.close();
    }
  });

  test('close() ends a call that is waiting to retry', async () => {
    const client = new Client({ address: `http://127.0.0.1:${await freePort()}`, retry: { initialInterval: '1s' } });
    const call = client.workflow.getHandle('w').describe();
    await sleep(50);
    client.close();
    await assert.rejects(call, (err: unknown) => unavailable(err) && /the client was closed/.test((err as Error).message));
  });

  test('retry options are validated, errors naming the option', () => {
    const address = 'http://127.0.0.1:7233';
    const cases: [unknown, string][] = [
      ['yes', 'retry'],
      [{ timeout: -1 }, 'retry.timeout'],
      [{ timeout: 'soon' }, 'retry.timeout'],
      [{ initialInterval: 'x' }, 'retry.initialInterval'],
      [{ backoffCoefficient: 0.5 }, 'retry.backoffCoefficient'],
      [{ maximumAttempts: -1 }, 'retry.maximumAttempts'],
      [{ jitter: 2 }, 'retry.jitter'],
      [{ attempts: 3 }, 'retry.attempts'],
    ];
    for (const [retry, field] of cases) {
      assert.throws(() => new Client({ address, retry: retry as never }), (err: unknown) => {
        assert.ok(err instanceof ValidationError, `${JSON.stringify(retry)}: ${String(err)}`);
        assert.equal(err.field, field);
        return true;
      });
    }
  });
});
