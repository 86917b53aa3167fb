import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { Client } from '../../src/client/index.ts';
import { Authenticator, createCodecServer, type CodecServer } from '../../src/server/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { BIN, freePort, spawnNode, type Child } from '../helpers/processes.ts';
import { silentLogger } from '../helpers/logger.ts';
import { KEYS, testApiKeys } from '../server/auth-helpers.ts';
import { CODEC_WORKFLOWS, codecK1, SECRET } from '../codec/helpers.ts';
import { BROWSER_SKIP, CHROMIUM, requireChromium } from './harness.ts';


describe('the web UI shows encoded payloads marked, and decoded through a codec endpoint with the user\'s credential', {
  skip: BROWSER_SKIP,
}, () => {
  let dir: string;
  let dev: Child;
  let address: string;
  let codec: CodecServer;
  let worker: Worker;
  let running: Promise<void>;
  let browser: BrowserContext;
  let page: Page;

  before(async () => {
    requireChromium();
    dir = mkdtempSync(join(tmpdir(), 'steadfast-ui-codec-'));
    dev = spawnNode([BIN, 'dev', '--port', String(await freePort()), '--db', join(dir, 'dev.sqlite')]);
    address = (await dev.waitFor(/Web UI: (http:\/\/\S+)\//))[1]!;
    codec = await createCodecServer({ codecs: [codecK1()], port: 0, auth: Authenticator.create({ apiKeys: testApiKeys() }), corsOrigins: [address] });
    const dataConverter = { payloadCodecs: [codecK1()] };
    worker = await Worker.create({ address, taskQueue: 'ui-codec', workflowsPath: CODEC_WORKFLOWS, logger: silentLogger, dataConverter });
    running = worker.run();
    const client = new Client({ address, dataConverter });
    try {
      await client.workflow.execute('echo', { workflowId: 'ui-codec', taskQueue: 'ui-codec', args: [SECRET], memo: { owner: SECRET } });
    } finally {
      client.close();
    }
    browser = await chromium.launchPersistentContext(join(dir, 'chromium'), {
      executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'], viewport: { width: 1280, height: 900 },
    });
    page = browser.pages()[0] ?? await browser.newPage();
  });

  after(async () => {
    await browser?.close();
    await worker?.shutdown();
    await running;
    await codec?.close();
    await dev?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const bodyHas = (text: string) => page.waitForFunction(`document.body.innerText.includes(${JSON.stringify(text)})`, undefined, { timeout: 10_000 });
  const bodyText = () => page.evaluate('document.body.innerText') as Promise<string>;

  test('without a codec endpoint the workflow page marks the payloads as encoded and shows no plaintext', async () => {
    await page.goto(`${address}/workflows/ui-codec`);
    await bodyHas('<encoded binary/encrypted key k1>');
    assert.ok(!(await bodyText()).includes(SECRET));
    await page.getByTestId('codec-endpoint').filter({ hasText: 'Codec: off' }).waitFor();
  });

  test('with the endpoint and a reader\'s credential the page shows the decoded values; another namespace\'s key is refused by role', async () => {
    await page.evaluate(`localStorage.setItem('steadfast.codecEndpoint', ${JSON.stringify(codec.address)});
      sessionStorage.setItem('steadfast.credential', ${JSON.stringify(KEYS.reader)})`);
    await page.goto(`${address}/workflows/ui-codec`);
    await bodyHas(SECRET);
    await page.getByTestId('codec-endpoint').filter({ hasText: 'Codec: on' }).waitFor();

    await page.evaluate(`sessionStorage.setItem('steadfast.credential', ${JSON.stringify(KEYS.otherWriter)})`);
    await page.goto(`${address}/workflows/ui-codec`);
    // Shown inside JSON, where the namespace's quotes are escaped.
    await bodyHas('<encoded binary/encrypted key k1: codec endpoint answered 403: /codec/decode needs the reader role on namespace');
    assert.ok(!(await bodyText()).includes(SECRET));
  });
});
