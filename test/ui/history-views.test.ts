import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BROWSER_SKIP, requireChromium, startUiEnv, type UiEnv } from './harness.ts';

/** The workflow page's history views, failures and source-mapped stacks; the start form, the codec dialog and the 404 page. */
const stacksPath = fileURLToPath(new URL('../fixtures/workflows/stacks.ts', import.meta.url));

describe('history views, failures, stacks, the start form, the codec dialog and the 404 page in headless Chromium', { skip: BROWSER_SKIP }, () => {
  let env: UiEnv;

  before(async () => {
    requireChromium();
    env = await startUiEnv({ taskQueue: 'stacks', workflowsPath: stacksPath, activities: { noop: async (i: number) => i } });
  });
  after(async () => {
    await env?.close();
  });

  test('a failed workflow: message, type, details and a stack of lines in the workflow file\'s line numbers', async () => {
    const { page, client, address, shots } = env;
    const handle = await client.workflow.start('failsOrder', { taskQueue: 'stacks', workflowId: 'ui-fails', args: [500] });
    await handle.result().catch(() => undefined);
    await page.goto(`${address}/workflows/ui-fails`);
    const failure = page.getByTestId('failure');
    assert.equal(await failure.getByTestId('failure-message').first().innerText(), 'amount 500 is over the limit');
    assert.equal(await failure.getByTestId('failure-type').first().innerText(), 'OverLimit');
    assert.match(await failure.getByTestId('failure-details').first().innerText(), /"amount": 500/);
    const lines = await failure.getByTestId('failure-stack').first().locator('li').allInnerTexts();
    assert.deepEqual(lines.slice(1).map((l) => l.trim()), [`at checkOrder (${stacksPath}:8:30)`, `at failsOrder (${stacksPath}:15:3)`]);
    assert.ok(!(await failure.innerText()).includes('\\n'), 'no escaped JSON');
    await failure.screenshot({ path: join(shots, 'failure.png') });
  });

  test('the compact view has one row per timer with its outcome; the raw list filters by event type', async () => {
    const { page, shots } = env;
    await page.getByTestId('view-compact').click();
    const rows = page.getByTestId('compact-row');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1);
    const cells = await rows.first().locator('td').allInnerTexts();
    assert.equal(cells[1], 'Timer');
    assert.equal(cells[7], 'Fired');
    await page.getByTestId('compact-history').screenshot({ path: join(shots, 'compact-history.png') });

    await page.getByTestId('view-raw').click();
    const all = await page.locator('.event-row').count();
    assert.ok(all >= 8, `${all} events`);
    await page.getByTestId('event-type-filter').selectOption('TimerStarted');
    await page.waitForFunction("document.querySelectorAll('.event-row').length === 1");
    assert.match(await page.locator('.event-row').innerText(), /TimerStarted/);
    await page.getByTestId('event-type-filter').selectOption('');
    await page.waitForFunction(`document.querySelectorAll('.event-row').length === ${all}`);
  });

  test('the timeline of a 2,000-activity run is a bounded box that scrolls to its last row', { timeout: 180_000 }, async () => {
    const { page, client, address } = env;
    const handle = await client.workflow.start('manyActivities', { taskQueue: 'stacks', workflowId: 'ui-many', args: [2000] });
    assert.equal(await handle.result(), 2000);
    await page.goto(`${address}/workflows/ui-many`);
    const timeline = page.getByTestId('timeline');
    await timeline.waitFor();
    // The history arrives in pages; the timeline grows to the workflow row and one row per activity.
    await page.waitForFunction("document.querySelector('[data-testid=timeline]')?.getAttribute('data-rows') === '2001'", undefined, { timeout: 30_000 });
    const box = page.getByTestId('timeline-scroll');
    const height = await box.evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(height > 0 && height <= 600, `the box is bounded: ${height}px`);
    assert.ok(await timeline.locator('g[data-row]').count() < 100, 'only the rows near the view are drawn');
    await box.evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await timeline.locator('g[data-index="2000"]').waitFor({ timeout: 10_000 });
    assert.match(String(await timeline.locator('g[data-index="2000"]').getAttribute('data-row')), /^noop \(/);
    assert.ok(await timeline.locator('g[data-index="0"]').count() === 0, 'rows scrolled far out of view are no longer drawn');
  });

  test('a stuck workflow\'s stack trace names the workflow file\'s lines, in the UI and through the client', async () => {
    const { page, client, address } = env;
    const handle = await client.workflow.start('stuckOrder', { taskQueue: 'stacks', workflowId: 'ui-stuck' });
    let viaClient = '';
    for (let i = 0; i < 500 && !viaClient.includes(stacksPath); i++) {
      viaClient = await handle.query<string, []>('__stack_trace').catch(() => '');
      if (!viaClient.includes(stacksPath)) await new Promise((r) => setTimeout(r, 20));
    }
    assert.match(viaClient, new RegExp(`at waitForRelease \\(${stacksPath.replace(/\./g, '\\.')}:21:\\d+\\)`));
    await page.goto(`${address}/workflows/ui-stuck`);
    // The name boxes offer the handlers the run has set (the __temporal_workflow_metadata query).
    await page.locator('[data-testid="signal-names"] option[value="release"]').waitFor({ state: 'attached' });
    await page.locator('[data-testid="query-names"] option[value="__stack_trace"]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Stack trace' }).click();
    const shown = await page.getByTestId('stack').innerText();
    assert.match(shown, new RegExp(`at waitForRelease \\(${stacksPath.replace(/\./g, '\\.')}:21:\\d+\\)`));
    assert.match(shown, new RegExp(`${stacksPath.replace(/\./g, '\\.')}:26:`));
    assert.ok(!/steadfast workflow runtime/.test(shown), shown);
    // A query writes no history: the server's log names who asked.
    const audit = JSON.parse((await env.serverOutput(/^\{.*"audit":"queryWorkflow".*"queryType":"__stack_trace".*$/m))[0]) as Record<string, unknown>;
    assert.deepEqual([audit.identity, audit.workflowId, audit.namespace], ['web-ui', 'ui-stuck', 'default']);
    // Sent from the UI's signal form: history records the UI as the sender.
    const signal = page.locator('form[data-form="signal"]');
    await signal.locator('input[name="name"]').fill('release');
    await signal.locator('input[name="args"]').fill('[]');
    await signal.locator('button[type="submit"]').click();
    await handle.result();
    const signaled = (await handle.fetchHistory()).events.find((e) => e.eventType === 'WorkflowExecutionSignaled');
    assert.equal(signaled?.eventType === 'WorkflowExecutionSignaled' && signaled.attributes.identity, 'web-ui');
  });

  test('a pending activity shows its timeouts; the compact view has its row, Running', async () => {
    const { page, client, address } = env;
    // The harness's worker registers no activities: the activity stays scheduled.
    const handle = await client.workflow.start('keepsRetrying', { taskQueue: 'ui', workflowId: 'ui-pending' });
    await page.goto(`${address}/workflows/ui-pending`);
    const activity = page.getByTestId('pending-activity');
    assert.equal(await activity.getByTestId('timeouts').innerText(), 'start to close 5s');
    await page.getByTestId('view-compact').click();
    const row = page.getByTestId('compact-row').filter({ hasText: 'alwaysFails' });
    await row.waitFor();
    assert.equal((await row.locator('td').allInnerTexts())[7], 'Running');
    await handle.terminate('done');
  });

  test("the retry simulator's axis labels do not overlap", async () => {
    const { page, address } = env;
    await page.goto(`${address}/retry-simulator`);
    const labels = page.getByTestId('sim-timeline').locator('text.axis');
    await labels.first().waitFor();
    const boxes = [];
    for (const l of await labels.all()) boxes.push((await l.boundingBox())!);
    assert.ok(boxes.length >= 2, `${boxes.length} labels`);
    boxes.sort((a, b) => a.x - b.x);
    for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i]!.x >= boxes[i - 1]!.x + boxes[i - 1]!.width, `label ${i} overlaps the one before`);
  });

  test('an unknown address shows the 404 page', async () => {
    const { page, address, shots } = env;
    await page.goto(`${address}/no/such/page`);
    await page.getByTestId('not-found').waitFor();
    assert.match(await page.getByTestId('not-found').innerText(), /\/no\/such\/page/);
    // The namespace switcher offers the server's namespaces, not only those used in this browser.
    await page.locator('[data-testid="namespace-options"] option[value="elsewhere"]').waitFor({ state: 'attached' });
    await page.locator('[data-testid="namespace-options"] option[value="default"]').waitFor({ state: 'attached' });
    await page.screenshot({ path: join(shots, 'not-found.png') });
  });

  test('the start form shows each field\'s error, then starts the workflow and opens its page', async () => {
    const { page, address, client, shots } = env;
    await page.goto(`${address}/start-workflow`);
    const form = page.getByTestId('start-form');
    await form.locator('textarea[name="args"]').fill('{"not": "an array"}');
    await form.locator('button[type="submit"]').click();
    await form.getByTestId('error-workflowType').waitFor();
    assert.equal(await form.getByTestId('error-workflowId').innerText(), 'workflow id is required');
    assert.equal(await form.getByTestId('error-taskQueue').innerText(), 'task queue is required');
    assert.match(await form.getByTestId('error-args').innerText(), /args must be a JSON array/);
    await page.screenshot({ path: join(shots, 'start-workflow.png') });

    await form.locator('input[name="workflowType"]').fill('greets');
    await form.locator('input[name="workflowId"]').fill('ui-started');
    await form.locator('input[name="taskQueue"]').fill('ui');
    await form.locator('textarea[name="args"]').fill('["Ada"]');
    await form.locator('button[type="submit"]').click();
    await page.waitForURL(/\/workflows\/ui-started\/[0-9a-f-]+$/);
    assert.equal(await client.workflow.getHandle('ui-started').result(), 'hello Ada');
    const started = (await client.workflow.getHandle('ui-started').fetchHistory()).events[0]!;
    assert.equal(started.eventType === 'WorkflowExecutionStarted' && started.attributes.identity, 'web-ui');
  });

  test('the codec endpoint is set in a dialog that refuses an address that is not http', async () => {
    const { page, address, shots } = env;
    await page.goto(`${address}/`);
    await page.getByTestId('codec-endpoint').filter({ hasText: 'Codec: off' }).click();
    const dialog = page.getByTestId('codec-dialog');
    await dialog.locator('input').fill('ftp://example');
    await dialog.locator('button[type="submit"]').click();
    assert.match(await dialog.getByTestId('codec-error').innerText(), /http:\/\/ or https:\/\//);
    await page.screenshot({ path: join(shots, 'codec-dialog.png') });
    await dialog.locator('input').fill('http://127.0.0.1:8089');
    await dialog.locator('button[type="submit"]').click();
    await page.getByTestId('codec-endpoint').filter({ hasText: 'Codec: on' }).waitFor();
    assert.equal(await page.evaluate("localStorage.getItem('steadfast.codecEndpoint')"), 'http://127.0.0.1:8089');
    await page.getByTestId('codec-endpoint').click();
    await page.getByTestId('codec-dialog').getByRole('button', { name: 'Stop decoding' }).click();
    await page.getByTestId('codec-endpoint').filter({ hasText: 'Codec: off' }).waitFor();
  });
});
