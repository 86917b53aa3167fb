import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { Engine } from '../../src/engine/index.ts';
import { startHttpServer, type ServerLogger } from '../../src/server/index.ts';
import { PostgresStore } from '../../src/store/index.ts';
import { connectionLoss, StoreConflictError, StoreUnavailableError } from '../../src/store/errors.ts';
import type { WorkflowService } from '../../src/protocol/index.ts';
import { freePort } from '../helpers/processes.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { rawRequest } from './batch-helpers.ts';

const quiet = { warn: () => undefined, error: () => undefined };

function recordingLogger(): ServerLogger & { lines: { message: string; meta?: Record<string, unknown> }[] } {
  const lines: { message: string; meta?: Record<string, unknown> }[] = [];
  return { lines, error: (message, meta) => lines.push({ message, ...(meta ? { meta } : {}) }) };
}

test('a 500 carries an error id and no internal text; the log has the detail under that id (single and batch routes)', async () => {
  const secret = 'duplicate key value violates unique constraint "secret_index"';
  const service = {
    describeWorkflowExecution: async () => {
      throw new Error(secret);
    },
  } as unknown as WorkflowService;
  const logger = recordingLogger();
  const http = await startHttpServer({ service, port: 0, logger });
  try {
    const single = await rawRequest(http.address, '/api/v1/describeWorkflowExecution', JSON.stringify({ workflowId: 'w' }));
    assert.equal(single.status, 500);
    assert.equal(single.json.error.code, 'Internal');
    assert.ok(!JSON.stringify(single.json).includes('secret'), JSON.stringify(single.json));
    const id = single.json.error.errorId as string;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(single.json.error.message, new RegExp(`error id ${id}`));
    const batch = await rawRequest(http.address, '/api/v1/batch',
      JSON.stringify({ calls: [{ id: 1, method: 'describeWorkflowExecution', body: { workflowId: 'w' } }] }));
    assert.equal(batch.status, 200);
    const line = batch.json as { status: number; error: { errorId: string; message: string } };
    assert.equal(line.status, 500);
    assert.ok(!line.error.message.includes('secret'));
    assert.notEqual(line.error.errorId, id);
    for (const errorId of [id, line.error.errorId]) {
      const logged = logger.lines.find((l) => l.meta?.errorId === errorId);
      assert.ok(logged, `the log has error ${errorId}`);
      assert.ok(logged.message.includes(secret), logged.message);
      assert.ok(logged.message.includes(errorId));
    }
  } finally {
    await http.close();
  }
});

const skip = await pgSkipReason('the PostgreSQL connection-loss tests');

/** A TCP proxy to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
async function pgProxy(): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const target = new URL(PG_URL);
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = () => new Promise<void>((resolve) => {
    server = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => {
          sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  };
  await listen();
  const url = new URL(PG_URL);
  url.host = `127.0.0.1:${port}`;
  return { url: url.toString(), cut, restore: listen, close: cut };
}

test('a lost database connection is 503 Unavailable, and the server answers again once it is back', { skip }, async () => {
  const schema = freshSchema('conn_loss');
  const proxy = await pgProxy();
  const store = await PostgresStore.open(proxy.url, { schema, poolSize: 2 });
  const engine = await Engine.create({ store, logger: quiet });
  const logger = recordingLogger();
  const http = await startHttpServer({ service: engine, port: 0, logger });
  const describeW = () => rawRequest(http.address, '/api/v1/describeWorkflowExecution', JSON.stringify({ workflowId: 'w-1' }));
  try {
    const started = await rawRequest(http.address, '/api/v1/startWorkflowExecution',
      JSON.stringify({ workflowId: 'w-1', workflowType: 'wf', taskQueue: 'q' }));
    assert.equal(started.status, 200);
    await proxy.cut();
    for (const method of ['describeWorkflowExecution', 'startWorkflowExecution'] as const) {
      const res = await rawRequest(http.address, `/api/v1/${method}`, JSON.stringify({ workflowId: 'w-2', workflowType: 'wf', taskQueue: 'q' }));
      assert.equal(res.status, 503, JSON.stringify(res.json));
      assert.equal(res.json.error.code, 'Unavailable');
      assert.match(res.json.error.message, /^the database is unavailable \(.+\); retry the call$/);
    }
    assert.equal(logger.lines.length, 0, 'a 503 is not an internal error');
    await proxy.restore();
    let back = await describeW();
    for (let i = 0; i < 50 && back.status !== 200; i++) back = await describeW();
    assert.equal(back.status, 200, JSON.stringify(back.json));
    assert.equal(back.json.execution.status, 'Running');
  } finally {
    await http.close();
    await engine.shutdown();
    await store.close();
    await proxy.close();
    await dropSchema(schema);
  }
});

test('pg_terminate_backend, a refused connection and a terminated socket are each a StoreUnavailableError', { skip }, async () => {
  const victim = new pg.Client({ connectionString: PG_URL });
  victim.on('error', () => undefined);
  await victim.connect();
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const errors: unknown[] = [];
  try {
    const pid = (await victim.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    // The terminated backend's own error (57P01) arrives on a query that is running when it is killed.
    const running = victim.query('SELECT pg_sleep(5)').catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    errors.push(await running);
    errors.push(await victim.query('SELECT 1').catch((e: unknown) => e));
    const port = await freePort();
    const refused = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/test` });
    errors.push(await refused.connect().catch((e: unknown) => e));
  } finally {
    await victim.end().catch(() => undefined);
    await admin.end();
  }
  assert.equal((errors[0] as { code?: string }).code, '57P01');
  for (const err of errors) {
    const mapped = connectionLoss(err);
    assert.ok(mapped instanceof StoreUnavailableError, `not mapped: ${String(err)}`);
    assert.equal(mapped.code, 'Unavailable');
    assert.equal(mapped.cause, err);
  }
  assert.match(connectionLoss(errors[0])!.message, /admin_shutdown, 57P01/);
  assert.match(connectionLoss(errors[2])!.message, /connection refused, ECONNREFUSED/);
  assert.equal(connectionLoss(Object.assign(new Error('syntax error'), { code: '42601' })), undefined);
});

test('a store conflict that escapes the engine\'s own retries is 503 Unavailable, not a bad request', async () => {
  const service = {
    terminateWorkflowExecution: async () => {
      throw new StoreConflictError('version', 'run r-1 changed since version 7');
    },
  } as unknown as WorkflowService;
  const logger = recordingLogger();
  const http = await startHttpServer({ service, port: 0, logger });
  try {
    const res = await rawRequest(http.address, '/api/v1/terminateWorkflowExecution', JSON.stringify({ workflowId: 'w' }));
    assert.equal(res.status, 503);
    assert.deepEqual(res.json.error, {
      code: 'Unavailable', message: 'terminateWorkflowExecution: kept losing races with concurrent changes (version); retry the call',
    });
    assert.equal(logger.lines.length, 0);
  } finally {
    await http.close();
  }
});

test('pg_terminate_backend on every session of the server, three times under load: each answer is 200 or 503, never 500', { skip }, async () => {
  const schema = freshSchema('terminate');
  const appName = `sf_kill_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const url = new URL(PG_URL);
  url.searchParams.set('application_name', appName);
  const store = await PostgresStore.open(url.toString(), { schema, poolSize: 4 });
  const engine = await Engine.create({ store, logger: quiet });
  const logger = recordingLogger();
  const http = await startHttpServer({ service: engine, port: 0, logger });
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const statuses = new Map<number, number>();
  let stop = false;
  try {
    const load = Array.from({ length: 8 }, async (_, worker) => {
      for (let i = 0; !stop; i++) {
        const id = `t-${worker}-${i}`;
        const res = await rawRequest(http.address, '/api/v1/startWorkflowExecution', JSON.stringify({ workflowId: id, workflowType: 'wf', taskQueue: 'q' }));
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const d = await rawRequest(http.address, '/api/v1/describeWorkflowExecution', JSON.stringify({ workflowId: id }));
        statuses.set(d.status, (statuses.get(d.status) ?? 0) + 1);
      }
    });
    for (let round = 0; round < 3; round++) {
      await new Promise((r) => setTimeout(r, 150));
      const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [appName]);
      assert.ok(killed.rowCount! > 0, 'the server had sessions to terminate');
    }
    await new Promise((r) => setTimeout(r, 150));
    stop = true;
    await Promise.all(load);
  } finally {
    stop = true;
    await admin.end();
  }
  try {
    assert.deepEqual([...statuses.keys()].filter((s) => s !== 200 && s !== 503 && s !== 404), [], JSON.stringify([...statuses]));
    assert.ok((statuses.get(200) ?? 0) > 0);
    assert.deepEqual(logger.lines.map((l) => l.message.split('\n')[0]), [], 'no internal error was logged');
    const after = await rawRequest(http.address, '/api/v1/startWorkflowExecution', JSON.stringify({ workflowId: 'after', workflowType: 'wf', taskQueue: 'q' }));
    assert.equal(after.status, 200, JSON.stringify(after.json));
  } finally {
    await http.close();
    await engine.shutdown();
    await store.close();
    await dropSchema(schema);
  }
});
