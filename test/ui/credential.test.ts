import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { BIN, freePort, spawnNode, type Child } from '../helpers/processes.ts';
import { BROWSER_SKIP, CHROMIUM, requireChromium } from './harness.ts';


describe('the web UI of a server with authentication on asks for a credential and sends it', {
  skip: BROWSER_SKIP,
}, () => {
  let dir: string;
  let server: Child;
  let address: string;
  let key: string;
  let browser: BrowserContext;
  let page: Page;

  before(async () => {
    requireChromium();
    dir = mkdtempSync(join(tmpdir(), 'steadfast-ui-auth-'));
    const made = spawnNode([BIN, 'api-key', 'create', '--identity', 'viewer', '--permission', 'default:writer']);
    assert.equal(await made.exited, 0, made.output());
    key = /^key: (\S+)$/m.exec(made.output())![1]!;
    writeFileSync(join(dir, 'keys.json'), JSON.stringify({ keys: [JSON.parse(/^entry: (.+)$/m.exec(made.output())![1]!)] }));
    server = spawnNode([BIN, 'server', '--database', `sqlite:${join(dir, 'db.sqlite')}`, '--port', String(await freePort()), '--api-keys', join(dir, 'keys.json')]);
    address = (await server.waitFor(/listening on (http:\/\/\S+) .*authentication on/))[1]!;
    browser = await chromium.launchPersistentContext(join(dir, 'chromium'), {
      executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'], viewport: { width: 1280, height: 800 },
    });
    page = browser.pages()[0] ?? await browser.newPage();
  });

  after(async () => {
    await browser?.close();
    await server?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('without a credential the list asks for one; a wrong one is refused; the right one lists; sign out forgets it', async () => {
    await page.goto(`${address}/`);
    const prompt = page.getByTestId('credential');
    await prompt.filter({ hasText: 'This server wants a credential' }).waitFor();

    await prompt.locator('input[name="credential"]').fill('not-a-key');
    await prompt.getByRole('button', { name: 'Use' }).click();
    await page.getByTestId('credential').filter({ hasText: 'The server refused the credential' }).waitFor();

    await page.getByTestId('credential').locator('input[name="credential"]').fill(key);
    await page.getByTestId('credential').getByRole('button', { name: 'Use' }).click();
    await page.getByText('No workflows match.').waitFor();
    assert.equal(await page.getByTestId('credential').count(), 0);
    await page.getByTestId('count-All').filter({ hasText: /^0$/ }).waitFor();
    assert.equal(await page.evaluate("localStorage.getItem('steadfast.credential')"), null, 'kept for the tab only unless asked');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('credential').filter({ hasText: 'This server wants a credential' }).waitFor();
  });
});
