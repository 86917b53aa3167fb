import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { Client } from '../../src/client/index.ts';
import { ApplicationFailure } from '../../src/common/index.ts';
import { cancellationSignal, heartbeat } from '../../src/activity/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { brokenTask, heartbeating, keepsRetrying } from '../fixtures/workflows/ui.ts';
import { BIN, freePort, spawnNode, type Child } from '../helpers/processes.ts';
import { BROWSER_SKIP, CHROMIUM, requireChromium } from './harness.ts';
import { seedLongHistory } from './long-history.ts';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
/** `UPDATE_SCREENSHOTS=1` writes the README's screenshots; otherwise they go to the test's temporary folder. */
const DOC_SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/ui.ts', import.meta.url));
const LONG = 50_000;
/** The worker's log: brokenTask's failures are expected, and the page is what is checked. */
const quiet = () => undefined;

describe('the web UI in headless Chromium, against a steadfast dev server and a worker', {
  skip: BROWSER_SKIP,
}, () => {
  let dir: string;
  let dev: Child;
  let address: string;
  let worker: Worker;
  let running: Promise<void>;
  let browser: BrowserContext;
  let page: Page;
  let client: Client;
  let shots: string;

  before(async () => {
    requireChromium();
    dir = mkdtempSync(join(tmpdir(), 'steadfast-ui-'));
    const db = join(dir, 'dev.sqlite');
    await seedLongHistory(`sqlite:${db}`, 'long-history', LONG);
    dev = spawnNode([BIN, 'dev', '--port', String(await freePort()), '--db', db, '--namespace', 'elsewhere']);
    address = (await dev.waitFor(/Web UI: (http:\/\/\S+)\//))[1]!;
    client = new Client({ address });
    worker = await Worker.create({
      address, taskQueue: 'ui', workflowsPath, logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
      shutdownGraceTime: '100ms',
      activities: {
        alwaysFails: async () => {
          const failure = ApplicationFailure.create({ message: 'card declined', type: 'Declined' });
          // One line instead of the test runner's frames keeps the screenshot readable.
          failure.stack = 'ApplicationFailure: card declined\n    at charge (payments.ts:12:11)';
          throw failure;
        },
        beats: async () => {
          heartbeat({ progress: 3 });
          const signal = cancellationSignal();
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        },
      },
    });
    running = worker.run();
    browser = await chromium.launchPersistentContext(join(dir, 'chromium'), {
      executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 },
    });
    page = browser.pages()[0] ?? await browser.newPage();
    shots = process.env.UPDATE_SCREENSHOTS === '1' ? DOC_SCREENSHOTS : join(dir, 'screenshots');
    mkdirSync(shots, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await worker?.shutdown();
    await running;
    await dev?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a retrying workflow: the list, its page, the pending attempt and last failure, and the timeline', async () => {
    await client.workflow.start(keepsRetrying, { taskQueue: 'ui', workflowId: 'ui-retry' });
    await page.goto(`${address}/`);
    const row = page.locator('tr', { has: page.locator('a', { hasText: 'ui-retry' }) });
    await row.locator('[data-status="Running"]').waitFor();
    // A server that reads `query` refuses one that does not parse; the list shows the box only then.
    const probe = await fetch(`${address}/api/v1/listWorkflowExecutions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '(' }) });
    await page.locator(probe.ok ? '[data-testid="no-query"]' : 'input.query').waitFor();

    await row.locator('a', { hasText: 'ui-retry' }).click();
    await page.waitForURL(/\/workflows\/ui-retry\/[0-9a-f-]+$/);
    const activity = page.getByTestId('pending-activity');
    await activity.getByTestId('attempt').filter({ hasText: /^([3-9]|\d\d+) \(unlimited\)$/ }).waitFor();
    assert.match(await activity.getByTestId('last-failure').innerText(), /card declined/);
    assert.match(await activity.innerText(), /temporal exponential/);
    // It fails at once, so it spends nearly all its time waiting for the next attempt.
    assert.match(await activity.getByTestId('countdown').innerText(), /^in \d/);

    const timeline = page.getByTestId('timeline');
    const row2 = timeline.locator('g[data-row^="alwaysFails"]');
    await row2.locator('rect[data-kind="backoff"]').first().waitFor();
    assert.ok(await row2.locator('rect[data-kind="attempt"]').count() >= 2, 'the activity row draws its attempts');
    await page.screenshot({ path: join(shots, 'workflow-page.png'), fullPage: true });
    await timeline.screenshot({ path: join(shots, 'timeline.png') });
  });

  test('signal, query and update from the forms, and the stack trace', async () => {
    const signal = page.locator('form[data-form="signal"]');
    await signal.locator('input[name="name"]').fill('poke');
    await signal.locator('input[name="args"]').fill('["hello"]');
    await signal.locator('button[type="submit"]').click();
    await signal.locator('.answer', { hasText: 'signal poke sent' }).waitFor();
    const events = (await client.workflow.getHandle('ui-retry').fetchHistory()).events;
    const signaled = events.find((e) => e.eventType === 'WorkflowExecutionSignaled');
    assert.deepEqual(signaled?.eventType === 'WorkflowExecutionSignaled' && signaled.attributes.args, ['hello']);
    await page.locator('.event-row', { hasText: 'WorkflowExecutionSignaled' }).waitFor();

    const query = page.locator('form[data-form="query"]');
    await query.locator('input[name="name"]').fill('pokes');
    await query.locator('button[type="submit"]').click();
    assert.deepEqual(JSON.parse(await query.locator('.answer:not(.error)').innerText()), ['hello']);

    const update = page.locator('form[data-form="update"]');
    await update.locator('input[name="name"]').fill('label');
    await update.locator('input[name="args"]').fill('"gift"');
    await update.locator('button[type="submit"]').click();
    assert.equal(JSON.parse(await update.locator('.answer:not(.error)').innerText()), 'labelled gift');

    await page.getByRole('button', { name: 'Stack trace' }).click();
    assert.match(await page.getByTestId('stack').innerText(), /keepsRetrying/);
  });

  test('the history downloads as JSON; times switch to local time; the theme to dark', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
    const saved = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { workflowId: string; runId: string; events: { eventId: number }[] };
    const fetched = await client.workflow.getHandle('ui-retry').fetchHistory();
    const served = fetched.events;
    assert.deepEqual([saved.workflowId, saved.runId], [fetched.workflowId, fetched.runId], 'the ids a Replayer needs');
    assert.deepEqual(saved.events.map((e) => e.eventId), served.slice(0, saved.events.length).map((e) => e.eventId));
    assert.ok(saved.events.length >= 6, 'the events up to the signal and the update');

    const start = page.locator('dl.facts dt:text-is("Start") + dd');
    assert.match(await start.innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
    await page.getByRole('button', { name: 'UTC', exact: true }).click();
    assert.match(await start.innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    await page.getByRole('button', { name: 'Light', exact: true }).click();
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
    await page.reload();
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark', 'kept across loads');
    await page.getByRole('button', { name: 'Dark', exact: true }).click();
    await page.getByRole('button', { name: 'Local time', exact: true }).click();
  });

  test('a workflow task that keeps failing shows its cause on the page', async () => {
    await client.workflow.start(brokenTask, { taskQueue: 'ui', workflowId: 'ui-broken' });
    await page.goto(`${address}/workflows/ui-broken`);
    const panel = page.getByTestId('task-failure');
    await panel.waitFor();
    assert.match(await panel.innerText(), /the workflow code has a bug/);
    await client.workflow.getHandle('ui-broken').terminate('seen');
  });

  test("a running activity's heartbeat details and time; terminate asks first and records the reason", async () => {
    await client.workflow.start(heartbeating, { taskQueue: 'ui', workflowId: 'ui-heartbeat' });
    await page.goto(`${address}/workflows/ui-heartbeat`);
    const activity = page.getByTestId('pending-activity');
    await activity.locator('pre.json', { hasText: '"progress": 3' }).waitFor();
    assert.match(await activity.innerText(), /Last heartbeat\s+\d{4}-\d\d-\d\d/);

    await page.getByRole('button', { name: 'Terminate…' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.locator('input[name="reason"]').fill('enough');
    await confirm.getByRole('button', { name: 'Yes, terminate' }).click();
    await page.locator('h2 [data-status="Terminated"]').waitFor();
    await page.locator('pre.json', { hasText: '"reason": "enough"' }).waitFor();
  });

  test('another namespace has its own list; an unregistered one is named', async () => {
    await page.goto(`${address}/`);
    await page.locator('tr', { hasText: 'ui-retry' }).waitFor();
    await page.locator('input[name="namespace"]').fill('elsewhere');
    await page.locator('input[name="namespace"]').press('Enter');
    await page.getByText('No workflows match.').waitFor();
    await page.locator('input[name="namespace"]').fill('unheard-of');
    await page.locator('input[name="namespace"]').press('Enter');
    await page.getByText('namespace "unheard-of" is not registered', { exact: false }).waitFor();
    await page.locator('input[name="namespace"]').fill('default');
    await page.locator('input[name="namespace"]').press('Enter');
    await page.locator('tr', { hasText: 'ui-retry' }).waitFor();
  });

  test('cancel asks first, then the status changes, and the list filters by it', async () => {
    await page.goto(`${address}/workflows/ui-retry`);
    await page.getByRole('button', { name: 'Cancel workflow…' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    assert.equal((await client.workflow.getHandle('ui-retry').describe()).status, 'Running', 'nothing happens before the confirmation');
    await confirm.getByRole('button', { name: 'Yes, cancel' }).click();
    await page.locator('h2 [data-status="Canceled"]').waitFor();

    await page.goto(`${address}/`);
    await page.locator('.chip', { hasText: 'Canceled' }).click();
    await page.waitForURL(/\?status=Canceled$/);
    // The rows of the unfiltered list may still be on screen for a moment: wait for the filtered ones.
    await page.waitForFunction("document.querySelectorAll('tbody tr').length === 1");
    await page.locator('tr', { hasText: 'ui-retry' }).locator('[data-status="Canceled"]').waitFor();
  });

  test(`a ${LONG.toLocaleString('en')}-event history loads page by page and scrolls, with few rows in the page`, async () => {
    await page.goto(`${address}/workflows/long-history`);
    await page.getByTestId('history-count').filter({ hasText: new RegExp(`^${LONG} events$`) }).waitFor({ timeout: 60_000 });
    const history = page.getByTestId('history');
    assert.ok(await history.locator('.event').count() < 100, 'only the rows in view are rendered');
    await history.evaluate((el) => { el.scrollTop = el.scrollHeight / 2; });
    await history.locator(`[data-event-id="${LONG / 2}"]`).waitFor();
    await history.evaluate((el) => { el.scrollTop = el.scrollHeight; });
    const last = history.locator(`[data-event-id="${LONG}"]`);
    await last.waitFor();
    await last.locator('.event-row').click();
    assert.match(await last.locator('pre.json').innerText(), /"eventType": "WorkflowExecutionSignaled"/);
    assert.ok(await history.locator('.event').count() < 100);
  });

  test('the retry simulator draws the attempts and, for a jittered policy, the delay distribution', async () => {
    await page.goto(`${address}/retry-simulator`);
    await page.getByTestId('sim-timeline').waitFor();
    assert.equal(await page.getByTestId('delay-chart').count(), 0, 'an unjittered policy has no distribution');
    await page.locator('select[name="strategy"]').selectOption('decorrelated-jitter');
    await page.getByTestId('delay-chart').locator('canvas').waitFor();
    assert.equal(await page.locator('table.grid tbody tr').count(), 6, '5 retries: 6 attempts');
    assert.match(await page.getByTestId('delay-chart').innerText(), /Delay before attempt 2 over 5000 runs/);
    await page.screenshot({ path: join(shots, 'retry-simulator.png'), fullPage: true });

    await page.locator('input[name="retryCount"]').fill('-1');
    assert.match(await page.getByTestId('sim-error').innerText(), /retryCount must be >= 0, got -1/);
  });
});
