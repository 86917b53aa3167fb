import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, HttpWorkflowService } from '../../src/client/index.ts';
import { ServiceError, ValidationError } from '../../src/common/index.ts';
import { Engine } from '../../src/engine/index.ts';
import { startHttpServer } from '../../src/server/index.ts';
import { SqliteStore } from '../../src/store/index.ts';

/**
 * The client checks the contract's payload limits before it sends: a value nested deeper than
 * 512 levels, or a payload over 2 MiB, fails at once naming its field, and no request leaves.
 * A 10 MB argument used to be sent, cut by the server with a connection reset, and retried as
 * an outage for 90 s; a value 3,000 levels deep got a 500 (or a stack overflow in the client).
 */

/** `levels` nested arrays around 1. */
function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

const DEPTH = (field: string) => `${field} must nest at most 512 levels of arrays and objects, got more than 512 levels`;

describe('a client against a server that counts requests', () => {
  let server: Server;
  let address: string;
  let requests = 0;
  let client: Client;

  before(async () => {
    server = createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"runId":"01a21f60-d0da-7733-a90c-69b76202dfe2","started":true}'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new Client({ address });
  });
  after(async () => {
    client.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const refused = (field: string, message: string) => (err: unknown) =>
    err instanceof ValidationError && err.field === field && err.message === message;

  test('arguments 3,000 and 20,000 levels deep are refused before sending, naming args', async () => {
    for (const levels of [3000, 20_000]) {
      await assert.rejects(client.workflow.start('wf', { taskQueue: 'q', args: [nested(levels)] }), refused('args', DEPTH('args')));
    }
    assert.equal(requests, 0);
  });

  test('a memo and signal arguments too deep are refused before sending', async () => {
    await assert.rejects(client.workflow.start('wf', { taskQueue: 'q', memo: { tree: nested(600) } }), refused('memo', DEPTH('memo')));
    await assert.rejects(client.workflow.getHandle('w').signal('s', nested(600)), refused('args', DEPTH('args')));
    assert.equal(requests, 0);
  });

  test('the transport refuses any request with a payload too deep, at any depth of the request (a worker\'s result)', async () => {
    const http = new HttpWorkflowService({ address });
    try {
      await assert.rejects(http.respondWorkflowTaskCompleted({
        taskToken: 't', identity: 'i', commands: [{ commandType: 'CompleteWorkflowExecution', attributes: { result: nested(600) } }],
      }), refused('commands[0].attributes.result', DEPTH('commands[0].attributes.result')));
    } finally {
      http.close();
    }
    assert.equal(requests, 0);
  });

  test('a 10 MB argument is refused before sending, naming args and the limit, not retried', async () => {
    await assert.rejects(client.workflow.start('wf', { taskQueue: 'q', args: ['x'.repeat(10_000_000)] }),
      refused('args', 'args is 10000004 bytes, over the payload limit of 2097152 bytes (2 MiB)'));
    const http = new HttpWorkflowService({ address, retry: {} });
    try {
      await assert.rejects(http.respondActivityTaskCompleted({ taskToken: 't', identity: 'i', result: 'y'.repeat(3_000_000) }),
        refused('result', 'result is 3000002 bytes, over the payload limit of 2097152 bytes (2 MiB)'));
    } finally {
      http.close();
    }
    assert.equal(requests, 0);
  });

  test('values within the limits are sent: 512 levels, and several payloads of 1.5 MB in one request', async () => {
    const sentBefore = requests;
    await client.workflow.start('wf', { taskQueue: 'q', args: [nested(511)] });
    await client.workflow.start('wf', { taskQueue: 'q', args: ['x'.repeat(1_500_000)], memo: { m: 'y'.repeat(1_500_000) } });
    assert.equal(requests - sentBefore, 2);
  });
});

test('a body over the server\'s limit is answered 413 naming the limit, and the client does not retry it', { timeout: 30_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-request-limits-'));
  const store = SqliteStore.open(join(dir, 'limits.db'));
  const engine = await Engine.create({ store });
  const http = await startHttpServer({ service: engine, port: 0, maxBodyBytes: 64 * 1024 });
  // Retries on: an answer lost to a reset would be retried (as Unavailable) for this long.
  const client = new Client({ address: http.address, retry: { timeout: '3s' } });
  try {
    await assert.rejects(client.workflow.start('wf', { taskQueue: 'q', workflowId: 'big', args: ['x'.repeat(1024 * 1024)] }), (err: unknown) => {
      assert.ok(err instanceof ServiceError, String(err));
      assert.equal(err.code, 'InvalidArgument');
      assert.match(err.message, /^request body must be at most 65536 bytes \(64 KiB, the server's maxBodyBytes; each payload at most 2 MiB\), got \d+ bytes$/);
      return true;
    });
    await assert.rejects(client.workflow.getHandle('big').describe(), { name: 'WorkflowNotFoundError' });
  } finally {
    client.close();
    await http.close();
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
