import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../src/client/index.ts';
import { Engine } from '../../src/engine/index.ts';
import { startHttpServer, uiRoute, type HttpServer } from '../../src/server/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { ValidationError } from '../../src/common/index.ts';
import { authServer, KEYS } from './auth-helpers.ts';

/**
 * An open server (`steadfast dev`, `--insecure`) could be driven by any web page its developer
 * opened: a `text/plain` fetch from another origin terminated a workflow, an HTML form started
 * one, and any Host header was accepted (DNS rebinding). Each rule, at the HTTP level.
 */

interface Answer { status: number; json: any }

/** POSTs `body` to an API method with exactly `headers` (plus Content-Length). */
function post(address: string, method: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const url = new URL(`/api/v1/${method}`, address);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** GETs a path with exactly `headers`. */
function get(address: string, path: string, headers: Record<string, string>): Promise<number> {
  const url = new URL(path, address);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };
const start = (workflowId: string) => JSON.stringify({ workflowId, workflowType: 'wf', taskQueue: 'cross-site' });

describe('an open server', () => {
  let dir: string;
  let store: SqliteStore;
  let engine: Engine;
  let http: HttpServer;
  let host: string;
  let client: Client;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'steadfast-cross-site-'));
    store = SqliteStore.open(join(dir, 'cs.db'));
    engine = await Engine.create({ store });
    http = await startHttpServer({ service: engine, port: 0, fallback: uiRoute() });
    host = new URL(http.address).host;
    client = new Client({ address: http.address });
  });
  after(async () => {
    await client.close();
    await http.close();
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Whether a workflow of this id exists. */
  const exists = (workflowId: string) => client.workflow.getHandle(workflowId).describe().then(() => true, () => false);

  test('a text/plain call (a fetch from another page) is refused 415 and does nothing', async () => {
    const a = await post(http.address, 'startWorkflowExecution', start('plain'), { 'content-type': 'text/plain;charset=UTF-8' });
    assert.equal(a.status, 415);
    assert.equal(a.json.error.message,
      'startWorkflowExecution takes a JSON body sent with Content-Type: application/json, got Content-Type: text/plain;charset=UTF-8');
    assert.equal(await exists('plain'), false);
  });

  test('a call without Content-Type (a fetch of a Blob) is refused 415', async () => {
    const a = await post(http.address, 'startWorkflowExecution', start('untyped'), {});
    assert.equal(a.status, 415);
    assert.match(a.json.error.message, /got no Content-Type$/);
    assert.equal(await exists('untyped'), false);
  });

  test('an HTML form (urlencoded or text/plain) is refused 415', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain']) {
      const a = await post(http.address, 'startWorkflowExecution', `${start('form')}=`, { 'content-type': type, origin: 'null' });
      assert.equal(a.status, 415, type);
    }
    assert.equal(await exists('form'), false);
  });

  test('a JSON call from another origin is refused 403 and does nothing; one from the server\'s own origin is answered', async () => {
    await client.workflow.start('wf', { taskQueue: 'cross-site', workflowId: 'victim' });
    const other = `http://127.0.0.1:${Number(new URL(http.address).port) + 1}`;
    const refused = await post(http.address, 'terminateWorkflowExecution', JSON.stringify({ workflowId: 'victim' }), { ...JSON_TYPE, origin: other });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.message, `terminateWorkflowExecution refused: it came from a page of ${other}, not of this server `
      + `(${http.address}); a server without authentication answers its own web UI, the CLI and clients, never a call another web page makes through the browser`);
    const opaque = await post(http.address, 'terminateWorkflowExecution', JSON.stringify({ workflowId: 'victim' }), { ...JSON_TYPE, origin: 'null' });
    assert.equal(opaque.status, 403);
    assert.equal((await client.workflow.getHandle('victim').describe()).status, 'Running');
    const own = await post(http.address, 'describeWorkflowExecution', JSON.stringify({ workflowId: 'victim' }), { ...JSON_TYPE, origin: http.address });
    assert.equal(own.status, 200);
  });

  test('Sec-Fetch-Site other than same-origin (cross-site, same-site: another port) is refused 403', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const a = await post(http.address, 'startWorkflowExecution', start(`fetch-${site}`), { ...JSON_TYPE, 'sec-fetch-site': site });
      assert.equal(a.status, 403, site);
      assert.match(a.json.error.message, new RegExp(`^startWorkflowExecution refused: it came from a page of another origin \\(Sec-Fetch-Site: ${site}\\)`));
      assert.equal(await exists(`fetch-${site}`), false);
    }
    for (const site of ['same-origin', 'none']) {
      const a = await post(http.address, 'startWorkflowExecution', start(`fetch-${site}`), { ...JSON_TYPE, 'sec-fetch-site': site, origin: http.address });
      assert.equal(a.status, 200, site);
    }
  });

  test('a Host header that is not an IP address, a loopback name or an allowed name is refused 403, API and UI alike', async () => {
    const port = new URL(http.address).port;
    const rebound = await post(http.address, 'startWorkflowExecution', start('rebound'), { ...JSON_TYPE, host: `attacker.example:${port}` });
    assert.equal(rebound.status, 403);
    assert.equal(rebound.json.error.message, `Host "attacker.example:${port}" is not a name this server answers to: a server without `
      + 'authentication accepts an IP address or localhost, 127.0.0.1, [::1] (a page whose domain resolves to this '
      + 'machine must not reach it); start it with --allowed-host attacker.example (allowedHosts) to accept this name');
    assert.equal(await exists('rebound'), false);
    assert.equal(await get(http.address, '/', { host: `attacker.example:${port}` }), 403);
    assert.equal(await get(http.address, '/api/v1/health', { host: `attacker.example:${port}` }), 403);
    for (const name of [`localhost:${port}`, `LOCALHOST:${port}`, host, `[::1]:${port}`, `10.1.2.3:${port}`]) {
      assert.equal(await get(http.address, '/', { host: name }), 200, name);
      const a = await post(http.address, 'describeWorkflowExecution', JSON.stringify({ workflowId: 'victim' }), { ...JSON_TYPE, host: name });
      assert.equal(a.status, 200, name);
    }
  });

  test('the client keeps working, by IP address and by localhost', async () => {
    const byName = new Client({ address: http.address.replace('127.0.0.1', 'localhost') });
    try {
      const handle = await byName.workflow.start('wf', { taskQueue: 'cross-site', workflowId: 'by-name' });
      await handle.signal('poke');
      await handle.terminate('done');
      assert.equal((await handle.describe()).status, 'Terminated');
    } finally {
      byName.close();
    }
  });
});

test('allowedHosts adds names an open server answers to', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-cross-site-'));
  const store = SqliteStore.open(join(dir, 'hosts.db'));
  const engine = await Engine.create({ store });
  const http = await startHttpServer({ service: engine, port: 0, allowedHosts: ['steadfast.internal', 'Workers.Example.'] });
  try {
    const port = new URL(http.address).port;
    for (const name of [`steadfast.internal:${port}`, 'steadfast.internal', `workers.example:${port}`, `localhost:${port}`]) {
      const a = await post(http.address, 'listWorkflowExecutions', '{}', { ...JSON_TYPE, host: name });
      assert.equal(a.status, 200, name);
    }
    const other = await post(http.address, 'listWorkflowExecutions', '{}', { ...JSON_TYPE, host: `other.internal:${port}` });
    assert.equal(other.status, 403);
    assert.match(other.json.error.message, /IP address or localhost, 127\.0\.0\.1, \[::1\], steadfast\.internal, workers\.example \(/);
  } finally {
    await http.close();
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('allowedHosts takes bare host names only, naming the entry', async () => {
  const service = {} as never;
  for (const bad of ['http://steadfast.internal', 'steadfast.internal:7233', '', 'a b']) {
    await assert.rejects(startHttpServer({ service, port: 0, allowedHosts: [bad] }),
      (err: unknown) => err instanceof ValidationError && err.field === 'allowedHosts[0]'
        && err.message.startsWith('allowedHosts[0] must be a host name without scheme or port, such as steadfast.internal, got'));
  }
});

describe('a server with authentication', () => {
  test('checks the content type but answers any Host and Origin (a page cannot attach the credential)', async () => {
    const server = await authServer();
    try {
      const auth = { authorization: `Bearer ${KEYS.writer}` };
      const plain = await post(server.http.address, 'startWorkflowExecution', start('auth-plain'), { ...auth, 'content-type': 'text/plain' });
      assert.equal(plain.status, 415);
      const port = new URL(server.http.address).port;
      const proxied = await post(server.http.address, 'startWorkflowExecution', start('auth-proxied'), {
        ...auth, ...JSON_TYPE, host: `steadfast.example.com:${port}`, origin: 'https://steadfast.example.com', 'sec-fetch-site': 'same-origin',
      });
      assert.equal(proxied.status, 200, JSON.stringify(proxied.json));
      const anonymous = await post(server.http.address, 'startWorkflowExecution', start('auth-anonymous'), {
        ...JSON_TYPE, origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site',
      });
      assert.equal(anonymous.status, 401);
    } finally {
      await server.close();
    }
  });
});
