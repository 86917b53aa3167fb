import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServerResponse } from 'node:http';
import { TestEnvironment } from '../../src/testing/index.ts';
import { startHttpServer, type HttpServer } from '../../src/server/index.ts';
import { deferred, openBatch, rawRequest, recording } from './batch-helpers.ts';

describe('POST /api/v1/batch', () => {
  let env: TestEnvironment;
  let rec: ReturnType<typeof recording>;
  let server: HttpServer;

  before(async () => {
    env = await TestEnvironment.createLocal();
    rec = recording(env.connection);
    server = await startHttpServer({ service: rec.service, port: 0 });
  });
  after(async () => {
    await server.close();
    await env.teardown();
  });

  test('answers every call on its own line, with the status and error its single route gives', async () => {
    const batch = await openBatch(server.address, {
      calls: [
        { id: 10, method: 'startWorkflowExecution', body: { workflowId: 'batch-1', workflowType: 't', taskQueue: 'bq' } },
        { id: 11, method: 'describeWorkflowExecution', body: { workflowId: 'no-such-workflow' } },
        { id: 12, method: 'launchMissiles', body: {} },
        { id: 13, method: 'startWorkflowExecution', body: { workflowId: 'batch-2', workflowType: 't', taskQueue: '' } },
        { id: 14, method: 'listWorkflowExecutions', body: 'not an object' },
        { id: 15, method: 'pollWorkflowTaskQueue', body: { taskQueue: 'bq', identity: 'x' } },
        { id: 16, method: 'listWorkflowExecutions' },
      ],
    });
    assert.equal(batch.status, 200);
    assert.equal(batch.headers['content-type'], 'application/x-ndjson');
    assert.equal(batch.headers['transfer-encoding'], 'chunked');
    await batch.ended;
    const byId = new Map(batch.lines.map((l) => [l.id, l]));
    assert.deepEqual([...byId.keys()].sort(), [10, 11, 12, 13, 14, 15, 16]);
    assert.equal(batch.lines.length, 7);

    assert.equal(byId.get(10).status, 200);
    assert.equal(typeof byId.get(10).result.runId, 'string');
    assert.equal(byId.get(16).status, 200);
    assert.ok(Array.isArray(byId.get(16).result.executions));

    const single = await rawRequest(server.address, '/api/v1/describeWorkflowExecution', '{"workflowId":"no-such-workflow"}');
    assert.deepEqual({ status: byId.get(11).status, error: byId.get(11).error }, { status: single.status, error: single.json.error });
    assert.equal(byId.get(11).status, 404);
    assert.equal(byId.get(11).error.workflowId, 'no-such-workflow');

    assert.equal(byId.get(12).status, 404);
    assert.equal(byId.get(12).error.code, 'NotFound');
    assert.match(byId.get(12).error.message, /unknown API method "launchMissiles"/);

    const invalid = await rawRequest(server.address, '/api/v1/startWorkflowExecution',
      JSON.stringify({ workflowId: 'batch-2', workflowType: 't', taskQueue: '' }));
    assert.deepEqual({ status: byId.get(13).status, error: byId.get(13).error }, { status: invalid.status, error: invalid.json.error });
    assert.equal(byId.get(13).error.field, 'taskQueue');

    assert.deepEqual([byId.get(14).status, byId.get(14).error.code, byId.get(14).error.field], [400, 'InvalidArgument', 'calls[4].body']);
    assert.deepEqual([byId.get(15).status, byId.get(15).error.code, byId.get(15).error.field], [400, 'InvalidArgument', 'calls[5].method']);
    assert.match(byId.get(15).error.message, /task poll/);

    const done = await openBatch(server.address, {
      calls: [
        { id: 0, method: 'terminateWorkflowExecution', body: { workflowId: 'batch-1', reason: 'test over' } },
        { id: 1, method: 'describeWorkflowExecution', body: { workflowId: 'no-such-workflow' } },
      ],
    });
    await done.ended;
    assert.deepEqual(done.lines.find((l) => l.id === 0), { id: 0, status: 200, result: null });
  });

  test('a malformed batch is a 400 naming the field, and none of its calls run', async () => {
    const ok = { id: 0, method: 'describeWorkflowExecution', body: { workflowId: 'batch-x' } };
    const cases: [body: string, message: string, field?: string][] = [
      ['{}', 'calls must be an array of 1 to 1000 calls, got undefined', 'calls'],
      ['{"calls":{}}', 'calls must be an array of 1 to 1000 calls, got {}', 'calls'],
      ['{"calls":[]}', 'calls must hold 1 to 1000 calls, got array of 0', 'calls'],
      [JSON.stringify({ calls: Array.from({ length: 1001 }, (_, id) => ({ ...ok, id })) }), 'calls must hold 1 to 1000 calls, got array of 1001', 'calls'],
      [JSON.stringify({ calls: [ok, 5] }), 'calls[1] must be an object { id, method, body }, got 5', 'calls[1]'],
      [JSON.stringify({ calls: [ok, null] }), 'calls[1] must be an object { id, method, body }, got null', 'calls[1]'],
      [JSON.stringify({ calls: [ok, { ...ok, id: 'x' }] }), 'calls[1].id must be a unique non-negative integer, got "x"', 'calls[1].id'],
      [JSON.stringify({ calls: [ok, { ...ok, id: -1 }] }), 'calls[1].id must be a unique non-negative integer, got -1', 'calls[1].id'],
      [JSON.stringify({ calls: [ok, { ...ok, id: 1.5 }] }), 'calls[1].id must be a unique non-negative integer, got 1.5', 'calls[1].id'],
      [JSON.stringify({ calls: [ok, { ...ok, id: 0 }] }), 'calls[1].id must be a unique non-negative integer, got 0', 'calls[1].id'],
      [JSON.stringify({ calls: [ok, { ...ok, id: 1, method: 7 }] }), 'calls[1].method must be a string naming a service method, got 7', 'calls[1].method'],
      ['[1]', 'request body must be a JSON object'],
    ];
    const before = rec.calls.length;
    for (const [body, message, field] of cases) {
      const res = await rawRequest(server.address, '/api/v1/batch', body);
      assert.equal(res.status, 400, body.slice(0, 80));
      assert.equal(res.json.error.code, 'InvalidArgument');
      assert.equal(res.json.error.message, message);
      assert.equal(res.json.error.field, field);
    }
    const notJson = await rawRequest(server.address, '/api/v1/batch', '{"calls":[');
    assert.equal(notJson.status, 400);
    assert.match(notJson.json.error.message, /not valid JSON/);
    const get = await rawRequest(server.address, '/api/v1/batch', '', 'GET');
    assert.equal(get.status, 405);
    assert.deepEqual(rec.calls.slice(before), [], 'no call of a malformed batch reached the service');
  });

  test('a batch over maxBodyBytes is refused like a single call, and none of its calls run', async () => {
    const small = await startHttpServer({ service: rec.service, port: 0, maxBodyBytes: 64 });
    try {
      const before = rec.calls.length;
      const body = JSON.stringify({ calls: [0, 1, 2].map((id) => ({ id, method: 'describeWorkflowExecution', body: { workflowId: 'w' } })) });
      const single = await rawRequest(small.address, '/api/v1/describeWorkflowExecution', JSON.stringify({ workflowId: 'w'.repeat(100) }))
        .then((r) => r.status, (err) => err.code);
      const batch = await rawRequest(small.address, '/api/v1/batch', body).then((r) => r.status, (err) => err.code);
      // The server stops reading at the limit and cuts the request, so the 413 it answers may
      // not reach the client before the connection closes.
      assert.ok([413, 'ECONNRESET'].includes(batch), `refused, got ${batch}`);
      assert.equal(batch, single);
      assert.deepEqual(rec.calls.slice(before), []);
    } finally {
      await small.close();
    }
  });

  test('a long poll in a batch does not hold back the lines of the other calls', { timeout: 30_000 }, async () => {
    await env.connection.startWorkflowExecution({ workflowId: 'batch-lp', workflowType: 't', taskQueue: 'bq' });
    const batch = await openBatch(server.address, {
      calls: [
        { id: 0, method: 'getWorkflowExecutionHistory', body: { workflowId: 'batch-lp', waitForClose: true, closeEventOnly: true, waitTimeoutMs: 10_000 } },
        { id: 1, method: 'describeWorkflowExecution', body: { workflowId: 'batch-lp' } },
        { id: 2, method: 'describeWorkflowExecution', body: { workflowId: 'no-such-workflow' } },
      ],
    });
    await batch.waitForLines(2);
    assert.deepEqual(batch.lines.map((l) => l.id).sort(), [1, 2]);
    // Only now does the run close: a long-poll line that arrives with the close event was
    // still waiting when the other two lines had been delivered.
    await env.connection.terminateWorkflowExecution({ workflowId: 'batch-lp', reason: 'done' });
    await batch.ended;
    assert.equal(batch.lines.length, 3);
    const poll = batch.lines[2];
    assert.equal(poll.id, 0);
    assert.deepEqual(poll.result.events.map((e: any) => e.eventType), ['WorkflowExecutionTerminated']);
  });

  test('lines finished in the same turn leave in one write', { timeout: 30_000 }, async (t) => {
    const gates = new Map(['gate-a', 'gate-b', 'gate-c', 'gate-d'].map((id) => {
      const d = deferred<unknown>();
      rec.gates.set(id, d.promise);
      return [id, d] as const;
    }));
    const writes = t.mock.method(ServerResponse.prototype, 'write');
    // Single routes answer with end() alone; every write() here is a batch's.
    const batchWrites = () => writes.mock.calls.length;
    const describes = () => rec.calls.filter((c) => c === 'describeWorkflowExecution').length;
    const before = describes();
    try {
      const opened = openBatch(server.address, {
        calls: ['gate-a', 'gate-b', 'gate-c', 'gate-d'].map((workflowId, id) => ({ id, method: 'describeWorkflowExecution', body: { workflowId } })),
      });
      while (describes() < before + 4) await new Promise((r) => setImmediate(r));
      for (const id of ['gate-a', 'gate-b', 'gate-c']) gates.get(id)!.resolve({ gate: id });
      const batch = await opened;
      await batch.waitForLines(3);
      assert.equal(batchWrites(), 1, 'three lines finished in one turn, one write');
      gates.get('gate-d')!.resolve({ gate: 'gate-d' });
      await batch.ended;
      assert.deepEqual(batch.lines.map((l) => l.result.gate), ['gate-a', 'gate-b', 'gate-c', 'gate-d']);
      assert.equal(batchWrites(), 1, 'the last line went out with the end of the response');
    } finally {
      rec.gates.clear();
    }
  });

  test("a batch's long poll is aborted when its client disconnects", { timeout: 30_000 }, async () => {
    await env.connection.startWorkflowExecution({ workflowId: 'batch-gone', workflowType: 't', taskQueue: 'bq' });
    const signalsBefore = rec.signals.length;
    const batch = await openBatch(server.address, {
      calls: [
        { id: 0, method: 'describeWorkflowExecution', body: { workflowId: 'batch-gone' } },
        { id: 1, method: 'getWorkflowExecutionHistory', body: { workflowId: 'batch-gone', waitForClose: true, waitTimeoutMs: 10_000 } },
      ],
    });
    await batch.waitForLines(1);
    const signal = rec.signals[signalsBefore];
    assert.ok(signal, 'the long poll got a signal');
    assert.equal(signal.aborted, false);
    const aborted = new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
    batch.req.destroy();
    await aborted;
    assert.equal(signal.aborted, true);
    await env.connection.terminateWorkflowExecution({ workflowId: 'batch-gone', reason: 'done' });
  });

  test("closing the server ends a batch's long polls with their empty answer", { timeout: 30_000 }, async () => {
    const own = await startHttpServer({ service: rec.service, port: 0 });
    await env.connection.startWorkflowExecution({ workflowId: 'batch-closing', workflowType: 't', taskQueue: 'bq' });
    const gate = deferred<unknown>();
    rec.gates.set('gate-closing', gate.promise);
    const polls = () => rec.calls.filter((c) => c === 'getWorkflowExecutionHistory').length;
    const before = polls();
    try {
      const opened = openBatch(own.address, {
        calls: [
          { id: 0, method: 'getWorkflowExecutionHistory', body: { workflowId: 'batch-closing', waitForClose: true, closeEventOnly: true, waitTimeoutMs: 10_000 } },
          { id: 1, method: 'describeWorkflowExecution', body: { workflowId: 'gate-closing' } },
        ],
      });
      while (polls() === before) await new Promise((r) => setImmediate(r));
      const closed = own.close();
      gate.resolve({ gate: 'closing' });
      const batch = await opened;
      await batch.ended;
      await closed;
      assert.equal(batch.headers.connection, 'close');
      assert.deepEqual(batch.lines.find((l) => l.id === 0), { id: 0, status: 200, result: { events: [] } });
      assert.deepEqual(batch.lines.find((l) => l.id === 1), { id: 1, status: 200, result: { gate: 'closing' } });
    } finally {
      rec.gates.clear();
      await env.connection.terminateWorkflowExecution({ workflowId: 'batch-closing', reason: 'done' });
    }
  });
});
