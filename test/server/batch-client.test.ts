import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestEnvironment } from '../../src/testing/index.ts';
import { startHttpServer } from '../../src/server/index.ts';
import { HttpWorkflowService, WorkflowNotFoundError } from '../../src/client/index.ts';
import { ValidationError, WorkflowExecutionAlreadyStartedError } from '../../src/common/index.ts';
import { freePort, startServerProcess } from '../helpers/processes.ts';
import { deferred, recording } from './batch-helpers.ts';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

/** Forwards every request to `target` and records its path: one entry per HTTP request. */
async function countingProxy(target: string): Promise<{ address: string; paths: string[]; close(): Promise<void> }> {
  const to = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    const up = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers, agent }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    req.pipe(up);
  });
  const address = await listen(server);
  return { address, paths, close: async () => {
    agent.destroy();
    await stop(server);
  } };
}

/** A bare HTTP server whose answers the test writes by hand. */
async function scriptedServer(handler: (req: IncomingMessage, body: any, res: ServerResponse) => void) {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => handler(req, text ? JSON.parse(text) : undefined, res));
  });
  const address = await listen(server);
  return { address, paths, close: () => stop(server) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `p`, or a rejection if it has not settled within `ms`; leaves no timer behind either way. */
async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
    })]);
  } finally {
    clearTimeout(timer);
  }
}
const isUnavailable = (address: string) => (err: any) => err?.code === 'Unavailable' && err.message.includes(address);

describe('HttpWorkflowService call batching', () => {
  let env: TestEnvironment;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;

  before(async () => {
    env = await TestEnvironment.createLocal();
    proxy = await countingProxy(env.address);
  });
  after(async () => {
    await proxy.close();
    await env.teardown();
  });

  test('calls issued in one turn go as exactly one HTTP request', async () => {
    const http = new HttpWorkflowService({ address: proxy.address });
    try {
      proxy.paths.length = 0;
      const started = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        http.startWorkflowExecution({ workflowId: `one-turn-${i}`, workflowType: 't', taskQueue: 'bc' })));
      assert.deepEqual(proxy.paths, ['/api/v1/batch']);
      assert.equal(new Set(started.map((s) => s.runId)).size, 20);
      const described = await Promise.all(started.map((_, i) => http.describeWorkflowExecution({ workflowId: `one-turn-${i}` })));
      assert.deepEqual(described.map((d) => d.execution.runId), started.map((s) => s.runId));
      assert.deepEqual(proxy.paths, ['/api/v1/batch', '/api/v1/batch']);
    } finally {
      http.close();
    }
  });

  test("each call of a batch gets its own answer or error, of the class it has today", async () => {
    const http = new HttpWorkflowService({ address: proxy.address });
    try {
      await http.startWorkflowExecution({ workflowId: 'errors-dup', workflowType: 't', taskQueue: 'bc' });
      proxy.paths.length = 0;
      const [ok, missing, invalid, duplicate, terminated] = await Promise.allSettled([
        http.startWorkflowExecution({ workflowId: 'errors-ok', workflowType: 't', taskQueue: 'bc' }),
        http.describeWorkflowExecution({ workflowId: 'errors-missing' }),
        http.startWorkflowExecution({ workflowId: 'errors-bad', workflowType: 't', taskQueue: '' }),
        http.startWorkflowExecution({ workflowId: 'errors-dup', workflowType: 't', taskQueue: 'bc', workflowIdReusePolicy: 'RejectDuplicate' }),
        http.terminateWorkflowExecution({ workflowId: 'errors-dup', reason: 'test over' }),
      ]);
      assert.deepEqual(proxy.paths, ['/api/v1/batch']);
      assert.equal(ok.status, 'fulfilled');
      assert.equal(typeof (ok as PromiseFulfilledResult<{ runId: string }>).value.runId, 'string');
      assert.equal(missing.status, 'rejected');
      assert.ok(missing.reason instanceof WorkflowNotFoundError);
      assert.equal(missing.reason.workflowId, 'errors-missing');
      assert.equal(invalid.status, 'rejected');
      assert.ok(invalid.reason instanceof ValidationError);
      assert.equal(invalid.reason.field, 'taskQueue');
      assert.equal(duplicate.status, 'rejected');
      assert.ok(duplicate.reason instanceof WorkflowExecutionAlreadyStartedError);
      assert.equal(duplicate.reason.workflowId, 'errors-dup');
      assert.equal(terminated.status, 'fulfilled');
      assert.equal((await http.describeWorkflowExecution({ workflowId: 'errors-dup' })).execution.status, 'Terminated');
    } finally {
      http.close();
    }
  });

  test('a single call still uses its plain route', async () => {
    const http = new HttpWorkflowService({ address: proxy.address });
    try {
      proxy.paths.length = 0;
      await assert.rejects(http.describeWorkflowExecution({ workflowId: 'alone' }), WorkflowNotFoundError);
      await assert.rejects(http.describeWorkflowExecution({ workflowId: 'alone-again' }), WorkflowNotFoundError);
      assert.deepEqual(proxy.paths, ['/api/v1/describeWorkflowExecution', '/api/v1/describeWorkflowExecution']);
    } finally {
      http.close();
    }
  });

  test('batchCalls: false sends one request per call', async () => {
    assert.throws(() => new HttpWorkflowService({ address: proxy.address, batchCalls: 'yes' as never }), /batchCalls must be a boolean, got "yes"/);
    const http = new HttpWorkflowService({ address: proxy.address, batchCalls: false });
    try {
      proxy.paths.length = 0;
      const all = await Promise.allSettled([0, 1, 2].map((i) => http.describeWorkflowExecution({ workflowId: `unbatched-${i}` })));
      assert.deepEqual(all.map((r) => r.status), ['rejected', 'rejected', 'rejected']);
      assert.deepEqual(proxy.paths, Array(3).fill('/api/v1/describeWorkflowExecution'));
    } finally {
      http.close();
    }
  });

  test('task polls and calls with an AbortSignal take a request of their own', async () => {
    const http = new HttpWorkflowService({ address: proxy.address });
    try {
      await http.startWorkflowExecution({ workflowId: 'own-request', workflowType: 't', taskQueue: 'bc-own' });
      proxy.paths.length = 0;
      const ac = new AbortController();
      const results = Promise.all([
        http.pollWorkflowTaskQueue({ taskQueue: 'bc-own', identity: 'test' }),
        http.getWorkflowExecutionHistory({ workflowId: 'own-request', waitForClose: true }, { signal: ac.signal }),
        http.describeWorkflowExecution({ workflowId: 'own-request' }),
        http.describeWorkflowExecution({ workflowId: 'own-request' }),
      ]);
      while (proxy.paths.length < 3) await sleep(5);
      ac.abort();
      const [task, history] = await results;
      assert.equal(task?.workflowId, 'own-request');
      assert.equal(history, null);
      assert.deepEqual([...proxy.paths].sort(), ['/api/v1/batch', '/api/v1/getWorkflowExecutionHistory', '/api/v1/pollWorkflowTaskQueue']);
      await http.terminateWorkflowExecution({ workflowId: 'own-request' });
    } finally {
      http.close();
    }
  });

  test('a batched call times out on its own; a long poll in the same batch keeps waiting', { timeout: 30_000 }, async () => {
    const rec = recording(env.connection);
    const gate = deferred<unknown>();
    rec.gates.set('slow', gate.promise);
    const server = await startHttpServer({ service: rec.service, port: 0 });
    const counting = await countingProxy(server.address);
    const http = new HttpWorkflowService({ address: counting.address, requestTimeoutMs: 300 });
    try {
      await env.connection.startWorkflowExecution({ workflowId: 'timeout-lp', workflowType: 't', taskQueue: 'bc' });
      counting.paths.length = 0;
      let pollDone = false;
      const poll = http.getWorkflowExecutionHistory({ workflowId: 'timeout-lp', waitForClose: true, closeEventOnly: true, waitTimeoutMs: 20_000 })
        .finally(() => (pollDone = true));
      const slow = http.describeWorkflowExecution({ workflowId: 'slow' });
      const missing = http.describeWorkflowExecution({ workflowId: 'timeout-missing' });
      await assert.rejects(missing, WorkflowNotFoundError);
      await assert.rejects(slow, (err: any) => err.code === 'Unavailable' && /describeWorkflowExecution: .*no answer within 300 ms/.test(err.message));
      assert.deepEqual(counting.paths, ['/api/v1/batch']);
      await sleep(50);
      assert.equal(pollDone, false, 'the long poll outlived the timeout of its batch mates');
      await env.connection.terminateWorkflowExecution({ workflowId: 'timeout-lp', reason: 'done' });
      const { events } = await poll;
      assert.deepEqual(events.map((e) => e.eventType), ['WorkflowExecutionTerminated']);
    } finally {
      gate.resolve({});
      http.close();
      await counting.close();
      await server.close();
    }
  });
});

describe('HttpWorkflowService batches and the wire', () => {
  test('lines split across chunks, and answered out of order, reach their own calls', { timeout: 30_000 }, async () => {
    const name = 'zoë 🙂';
    const lines = `{"id":1,"status":200,"result":{"name":"${name}"}}\n{"id":7,"status":200,"result":1}\n`
      + '{"id":0,"status":404,"error":{"code":"NotFound","message":"gone","workflowId":"w0"}}';
    const bytes = Buffer.from(lines, 'utf8');
    const emoji = bytes.indexOf(Buffer.from('🙂', 'utf8'));
    const cuts = [5, emoji + 2, bytes.indexOf(0x0a) + 1, bytes.length - 20, bytes.length];
    const server = await scriptedServer(async (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      let from = 0;
      for (const to of cuts) {
        res.write(bytes.subarray(from, to));
        from = to;
        await sleep(10);
      }
      res.end();
    });
    const http = new HttpWorkflowService({ address: server.address });
    try {
      const [w0, w1] = await Promise.allSettled([
        http.describeWorkflowExecution({ workflowId: 'w0' }),
        http.describeWorkflowExecution({ workflowId: 'w1' }),
      ]);
      assert.deepEqual(server.paths, ['/api/v1/batch']);
      assert.deepEqual(w1, { status: 'fulfilled', value: { name } });
      assert.equal(w0.status, 'rejected');
      assert.ok(w0.reason instanceof WorkflowNotFoundError);
      assert.equal(w0.reason.workflowId, 'w0');
    } finally {
      http.close();
      await server.close();
    }
  });

  test('a server without the batch route gets the calls one by one', { timeout: 30_000 }, async () => {
    const server = await scriptedServer((req, body, res) => {
      if (req.url === '/api/v1/batch') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'NotFound', message: 'unknown API method "batch"' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echo: body.workflowId }));
    });
    const http = new HttpWorkflowService({ address: server.address });
    try {
      const first = await Promise.all(['a', 'b'].map((workflowId) => http.describeWorkflowExecution({ workflowId })));
      assert.deepEqual(first, [{ echo: 'a' }, { echo: 'b' }]);
      assert.deepEqual(server.paths, ['/api/v1/batch', '/api/v1/describeWorkflowExecution', '/api/v1/describeWorkflowExecution']);
      const second = await Promise.all(['c', 'd'].map((workflowId) => http.describeWorkflowExecution({ workflowId })));
      assert.deepEqual(second, [{ echo: 'c' }, { echo: 'd' }]);
      assert.equal(server.paths.filter((p) => p === '/api/v1/batch').length, 1, 'the batch route is not tried again');
    } finally {
      http.close();
      await server.close();
    }
  });

  test('close() fails queued and in-flight calls with Unavailable and leaves no timers behind', { timeout: 30_000 }, async () => {
    const arrived = deferred<void>();
    const server = await scriptedServer(() => arrived.resolve());
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'Immediate').length;
    const baseline = timers();
    const http = new HttpWorkflowService({ address: server.address });
    try {
      const inFlight = [http.describeWorkflowExecution({ workflowId: 'a' }), http.describeWorkflowExecution({ workflowId: 'b' })];
      await arrived.promise;
      assert.ok(timers() > baseline, 'the batch in flight has its timeout armed');
      const queued = [http.describeWorkflowExecution({ workflowId: 'c' }), http.describeWorkflowExecution({ workflowId: 'd' })];
      http.close();
      const settled = await within(5_000, Promise.allSettled([...inFlight, ...queued]));
      for (const s of settled) {
        assert.equal(s.status, 'rejected');
        assert.ok(isUnavailable(server.address)(s.reason), String(s.reason));
      }
      assert.equal(timers(), baseline);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(server.paths, ['/api/v1/batch'], 'the queued calls were never sent');
    } finally {
      await server.close();
    }
  });

  test('an unreachable server fails every call of a batch with Unavailable', { timeout: 30_000 }, async () => {
    const http = new HttpWorkflowService({ address: 'http://127.0.0.1:1' });
    try {
      const settled = await Promise.allSettled([http.describeWorkflowExecution({ workflowId: 'a' }), http.listWorkflowExecutions({})]);
      assert.deepEqual(settled.map((s) => s.status), ['rejected', 'rejected']);
      for (const s of settled) assert.ok(isUnavailable('127.0.0.1:1')((s as PromiseRejectedResult).reason));
      assert.match((settled[1] as PromiseRejectedResult).reason.message, /^listWorkflowExecutions: cannot reach the steadfast server at http:\/\/127\.0\.0\.1:1 \(/);
    } finally {
      http.close();
    }
  });

  test('a server killed mid-batch fails the unanswered calls of the batch with Unavailable', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steadfast-batch-kill-'));
    const server = await startServerProcess(`sqlite:${join(dir, 'kill.sqlite')}`, await freePort());
    const http = new HttpWorkflowService({ address: server.address });
    try {
      await http.startWorkflowExecution({ workflowId: 'killed', workflowType: 't', taskQueue: 'bc' });
      const described = http.describeWorkflowExecution({ workflowId: 'killed' });
      const polls = Promise.allSettled([0, 1].map(() =>
        http.getWorkflowExecutionHistory({ workflowId: 'killed', waitForClose: true, waitTimeoutMs: 30_000 })));
      assert.equal((await described).execution.status, 'Running');
      await server.kill('SIGKILL');
      const settled = await polls;
      assert.deepEqual(settled.map((s) => s.status), ['rejected', 'rejected']);
      for (const s of settled) assert.ok(isUnavailable(server.address)((s as PromiseRejectedResult).reason), String((s as PromiseRejectedResult).reason));
    } finally {
      http.close();
      await server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
