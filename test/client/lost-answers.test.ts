import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { Client } from '../../src/client/index.ts';
import type { WorkflowServiceMethod } from '../../src/protocol/index.ts';
import { addItem, collector, limiter, setLimit } from '../fixtures/workflows/messages.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

/**
 * The client's retries are safe because each logical call carries one request id (or update id)
 * on every try. Here the server takes each call and its answer is lost on the way back (the
 * connection is cut after the server answered): the client tries again with the same body, and
 * the server applies the call once.
 */

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/messages.ts', import.meta.url));
const pgSkip = await pgSkipReason('the PostgreSQL runs of test/client/lost-answers.test.ts');

/** A proxy before `target` that forwards every call and, when asked, cuts the connection instead of passing on one answer. */
async function lossyProxy(target: string): Promise<{ address: string; loseNextAnswer(method: WorkflowServiceMethod): void; lost: string[]; close(): Promise<void> }> {
  const url = new URL(target);
  const armed = new Set<string>();
  const lost: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\/v1\//, '');
      const upstream = request({ host: url.hostname, port: url.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          if (armed.delete(method)) {
            lost.push(method);
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          res.end(Buffer.concat(body));
        });
      });
      upstream.on('error', () => req.socket.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    address: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    loseNextAnswer: (method) => void armed.add(method),
    lost,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

for (const backend of ['SQLite', 'PostgreSQL'] as const) {
  describe(`a call whose answer was lost is applied once on ${backend}`, { skip: backend === 'PostgreSQL' && pgSkip ? pgSkip : false }, () => {
    let env: TestEnvironment;
    let schema: string | undefined;
    let proxy: Awaited<ReturnType<typeof lossyProxy>>;
    let client: Client;
    let worker: Worker;
    let running: Promise<void>;
    const taskQueue = `lost-${backend}`;

    before(async () => {
      if (backend === 'PostgreSQL') schema = freshSchema('lost_answers');
      env = await TestEnvironment.createLocal(schema ? { database: `${PG_URL}?schema=${schema}` } : {});
      proxy = await lossyProxy(env.address);
      client = new Client({ address: proxy.address, retry: { initialInterval: '10ms', maximumInterval: '50ms' } });
      worker = await Worker.create({ address: env.address, taskQueue, workflowsPath, activities: { echo: async (s: string) => s } });
      running = worker.run();
    });
    after(async () => {
      client.close();
      await worker.shutdown();
      await running;
      await proxy.close();
      await env.teardown();
      if (schema) await dropSchema(schema);
    });

    const count = async (workflowId: string, eventType: string) =>
      (await client.workflow.getHandle(workflowId).fetchHistory()).events.filter((e) => e.eventType === eventType).length;
    const runsOf = async (workflowId: string) =>
      (await env.client.workflow.listPage({ workflowIdPrefix: workflowId })).executions.filter((e) => e.workflowId === workflowId);

    test('start: the repeat returns the run the first try started', async () => {
      proxy.loseNextAnswer('startWorkflowExecution');
      const handle = await client.workflow.start(collector, { taskQueue, workflowId: `${backend}-start`, args: [0] });
      assert.deepEqual(proxy.lost, ['startWorkflowExecution']);
      const runs = await runsOf(handle.workflowId);
      assert.deepEqual(runs.map((r) => r.runId), [handle.firstExecutionRunId]);
    });

    test('signal, cancel and terminate: each recorded once', async () => {
      const handle = await client.workflow.start(collector, { taskQueue, workflowId: `${backend}-signal`, args: [0] });
      proxy.loseNextAnswer('signalWorkflowExecution');
      await handle.signal(addItem, 'a');
      proxy.loseNextAnswer('requestCancelWorkflowExecution');
      await handle.cancel();
      assert.equal(await count(handle.workflowId, 'WorkflowExecutionSignaled'), 1);
      assert.equal(await count(handle.workflowId, 'WorkflowExecutionCancelRequested'), 1);

      const other = await client.workflow.start(collector, { taskQueue, workflowId: `${backend}-terminate`, args: [60_000] });
      proxy.loseNextAnswer('terminateWorkflowExecution');
      await other.terminate('enough');
      assert.equal(await count(other.workflowId, 'WorkflowExecutionTerminated'), 1);
      assert.equal((await other.describe()).status, 'Terminated');
      assert.deepEqual(proxy.lost.slice(-3), ['signalWorkflowExecution', 'requestCancelWorkflowExecution', 'terminateWorkflowExecution']);
    });

    test('signal-with-start: the repeat starts nothing and signals nothing again', async () => {
      proxy.loseNextAnswer('signalWithStartWorkflowExecution');
      const handle = await client.workflow.signalWithStart(collector, {
        taskQueue, workflowId: `${backend}-sws`, args: [60_000], signal: addItem, signalArgs: ['x'],
      });
      assert.equal(proxy.lost.at(-1), 'signalWithStartWorkflowExecution');
      assert.deepEqual((await runsOf(handle.workflowId)).map((r) => r.runId), [handle.firstExecutionRunId]);
      assert.equal(await count(handle.workflowId, 'WorkflowExecutionSignaled'), 1);
    });

    test('update: the repeat returns the first outcome; the handler ran once', async () => {
      const handle = await client.workflow.start(limiter, { taskQueue, workflowId: `${backend}-update` });
      proxy.loseNextAnswer('updateWorkflowExecution');
      assert.equal(await handle.executeUpdate(setLimit, { args: [5] }), 0);
      assert.equal(proxy.lost.at(-1), 'updateWorkflowExecution');
      assert.equal(await count(handle.workflowId, 'WorkflowExecutionUpdateAccepted'), 1);
      assert.equal(await count(handle.workflowId, 'WorkflowExecutionUpdateCompleted'), 1);
      assert.equal(await count(handle.workflowId, 'ActivityTaskCompleted'), 1, 'the handler\'s activity ran once');
      assert.equal(await handle.executeUpdate(setLimit, { args: [6] }), 5);
    });
  });
}
