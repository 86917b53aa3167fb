import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Engine } from '../../src/engine/index.ts';
import { buildUiAssets, startHttpServer, uiRoute, type HttpServer } from '../../src/server/index.ts';
import { openStore } from '../../src/store/index.ts';
import type { Store } from '../../src/store/index.ts';

/** The first page's JavaScript budget, gzipped (issue 15). */
const BUDGET = 250 * 1024;

let dir: string;
let store: Store;
let engine: Engine;
let http: HttpServer;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'steadfast-ui-assets-'));
  store = await openStore(`sqlite:${join(dir, 'ui.sqlite')}`);
  engine = await Engine.create({ store });
  http = await startHttpServer({ service: engine, port: 0, fallback: uiRoute() });
});

after(async () => {
  await http.close();
  await engine.shutdown();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test(`the UI bundle is one script and one stylesheet, the script under ${BUDGET / 1024} KB gzipped`, async () => {
  const assets = await buildUiAssets();
  assert.deepEqual([...assets.keys()].sort(), ['/assets/app.css', '/assets/app.js', '/index.html']);
  const js = assets.get('/assets/app.js')!;
  assert.ok(js.gzipped.length < BUDGET, `app.js is ${js.gzipped.length} bytes gzipped`);
  assert.equal(gunzipSync(js.gzipped).toString('utf8'), js.body.toString('utf8'));
  assert.match(assets.get('/index.html')!.body.toString('utf8'), /<script type="module" src="\/assets\/app.js">/);
});

test('the server answers the UI for any page path, the bundle gzipped with an ETag, and leaves the API its errors', async () => {
  for (const path of ['/', '/workflows/order-1/some-run', '/retry-simulator']) {
    const res = await fetch(`${http.address}${path}`);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.match(await res.text(), /<div id="app">/);
  }
  const js = await fetch(`${http.address}/assets/app.js`, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(js.status, 200);
  assert.equal(js.headers.get('content-encoding'), 'gzip');
  assert.match(js.headers.get('content-type')!, /^text\/javascript/);
  const etag = js.headers.get('etag')!;
  await js.arrayBuffer();
  const again = await fetch(`${http.address}/assets/app.js`, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);

  assert.equal((await fetch(`${http.address}/assets/nope.js`)).status, 404);
  const post = await fetch(`${http.address}/`, { method: 'POST' });
  assert.equal(post.status, 404);
  assert.equal(((await post.json()) as { error: { code: string } }).error.code, 'NotFound');
  const api = await fetch(`${http.address}/api/v1/nope`, { method: 'POST', body: '{}' });
  assert.equal(api.status, 404);
  assert.match(((await api.json()) as { error: { message: string } }).error.message, /unknown API method "nope"/);
});
