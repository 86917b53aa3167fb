import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type Response } from 'playwright-core';
import { Client } from '../../src/client/index.ts';
import { BIN, freePort, spawnNode, type Child } from '../helpers/processes.ts';
import { BROWSER_SKIP, CHROMIUM, requireChromium } from './harness.ts';

/**
 * A page the developer opens on another origin (here another port of 127.0.0.1) tries to start,
 * signal and terminate workflows of `steadfast dev` through the browser, by fetch (text/plain, an
 * untyped Blob, and JSON, which needs a preflight) and by HTML forms; and a page reached by a
 * domain name that resolves to 127.0.0.1 (DNS rebinding, simulated by Chromium's host resolver
 * rules) tries the same from what the browser takes for the server's own origin. The server
 * answers every one of them with a refusal, and nothing happens to the runs.
 */

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP rebound.test 127.0.0.1'];

/** The attacker's page: two forms posting into frames, and fetches run by the test. */
function attackPage(target: string): string {
  const start = JSON.stringify({ workflowId: 'from-form', workflowType: 'wf', taskQueue: 'cross', pad: '' }).slice(0, -2);
  return `<!doctype html><html><body>
<iframe name="f1"></iframe><iframe name="f2"></iframe>
<form id="start" method="POST" enctype="text/plain" target="f1" action="${target}/api/v1/startWorkflowExecution">
  <input type="hidden" name='${start}' value='"}'>
</form>
<form id="terminate" method="POST" target="f2" action="${target}/api/v1/terminateWorkflowExecution">
  <input type="hidden" name="workflowId" value="victim">
</form>
</body></html>`;
}

describe('pages of other origins cannot drive a steadfast dev server through the browser', { skip: BROWSER_SKIP }, () => {
  let dir: string;
  let dev: Child;
  let address: string;
  let client: Client;
  let attacker: Server;
  let attackerAddress: string;
  let browser: Browser;
  let page: Page;
  /** Status of every answer the browser got from the dev server's API, by method. */
  const answers: { method: string; status: number }[] = [];

  before(async () => {
    requireChromium();
    dir = mkdtempSync(join(tmpdir(), 'steadfast-cross-site-ui-'));
    dev = spawnNode([BIN, 'dev', '--port', String(await freePort()), '--db', join(dir, 'dev.sqlite')]);
    address = (await dev.waitFor(/Web UI: (http:\/\/\S+)\//))[1]!;
    client = new Client({ address });
    await client.workflow.start('wf', { taskQueue: 'cross', workflowId: 'victim' });
    attacker = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(address)));
    await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
    attackerAddress = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    page = await browser.newPage();
    page.on('response', (r: Response) => {
      const url = new URL(r.url());
      if (url.port === new URL(address).port && url.pathname.startsWith('/api/v1/')) {
        answers.push({ method: url.pathname.slice('/api/v1/'.length), status: r.status() });
      }
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise((r) => attacker?.close(r));
    client?.close();
    await dev?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  test('fetches and forms from another port of 127.0.0.1 are refused', async () => {
    await page.goto(attackerAddress);
    // Scripts go to the page as text: the test's own functions are compiled with helpers the page lacks.
    const thrown = await page.evaluate<number>(`(async (target) => {
      const sent = [
        fetch(target + '/api/v1/startWorkflowExecution', {
          method: 'POST', mode: 'no-cors', body: JSON.stringify({ workflowId: 'from-fetch', workflowType: 'wf', taskQueue: 'cross' }),
        }),
        fetch(target + '/api/v1/signalWorkflowExecution', {
          method: 'POST', mode: 'no-cors', body: new Blob([JSON.stringify({ workflowId: 'victim', signalName: 'evil' })]),
        }),
        fetch(target + '/api/v1/terminateWorkflowExecution', { method: 'POST', mode: 'no-cors', body: JSON.stringify({ workflowId: 'victim' }) }),
        // JSON needs a preflight, which the API does not grant: the browser never sends the call.
        fetch(target + '/api/v1/terminateWorkflowExecution', {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ workflowId: 'victim' }),
        }),
      ];
      const settled = await Promise.allSettled(sent);
      return settled.filter((s) => s.status === 'rejected').length;
    })(${JSON.stringify(address)})`);
    assert.equal(thrown, 1, 'only the JSON fetch fails in the page (its preflight is not granted)');

    for (const [form, method] of [['start', 'startWorkflowExecution'], ['terminate', 'terminateWorkflowExecution']] as const) {
      const answered = page.waitForResponse((r) => r.url() === `${address}/api/v1/${method}` && r.request().method() === 'POST'
        && r.request().postData()?.includes('victim') === (form === 'terminate'));
      await page.evaluate(`document.getElementById('${form}').submit()`);
      assert.equal((await answered).status(), 415, `the ${form} form`);
    }
  });

  test('a page reached by a domain that resolves to 127.0.0.1 (DNS rebinding) is refused, page and API', async () => {
    const port = new URL(address).port;
    const rebound = await browser.newPage();
    try {
      const loaded = await rebound.goto(`http://rebound.test:${port}/`);
      assert.equal(loaded?.status(), 403);
      const statuses = await rebound.evaluate<number[]>(`Promise.all([
        ['startWorkflowExecution', { workflowId: 'rebound', workflowType: 'wf', taskQueue: 'cross' }],
        ['signalWorkflowExecution', { workflowId: 'victim', signalName: 'evil' }],
        ['terminateWorkflowExecution', { workflowId: 'victim' }],
        ['listWorkflowExecutions', {}],
      ].map(([method, body]) => fetch('/api/v1/' + method, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
      }).then((r) => r.status)))`);
      assert.deepEqual(statuses, [403, 403, 403, 403]);
    } finally {
      await rebound.close();
    }
  });

  test('the server refused every call the pages made, and nothing happened', async () => {
    assert.deepEqual(answers.map((a) => `${a.method} ${a.status}`).sort(), [
      'signalWorkflowExecution 415', 'startWorkflowExecution 415', 'startWorkflowExecution 415',
      'terminateWorkflowExecution 415', 'terminateWorkflowExecution 415',
    ]);
    const victim = client.workflow.getHandle('victim');
    assert.equal((await victim.describe()).status, 'Running');
    const history = await victim.fetchHistory();
    assert.deepEqual(history.events.filter((e) => e.eventType === 'WorkflowExecutionSignaled'), []);
    const ids: string[] = [];
    for await (const run of client.workflow.list()) ids.push(run.workflowId);
    assert.deepEqual(ids, ['victim']);
  });

  test('the web UI of the server\'s own origin still lists and terminates', async () => {
    const own = await browser.newPage();
    try {
      await own.goto(`${address}/`);
      await own.locator('a', { hasText: 'victim' }).first().waitFor();
      const status = await own.evaluate<number>(`fetch('/api/v1/terminateWorkflowExecution', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ workflowId: 'victim', reason: 'from the UI' }),
      }).then((r) => r.status)`);
      assert.equal(status, 200);
      assert.equal((await client.workflow.getHandle('victim').describe()).status, 'Terminated');
    } finally {
      await own.close();
    }
  });
});
