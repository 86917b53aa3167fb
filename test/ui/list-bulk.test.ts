import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Client } from '../../src/client/index.ts';
import { greets, waitsForPoke } from '../fixtures/workflows/ui.ts';
import { BROWSER_SKIP, requireChromium, startUiEnv, type UiEnv } from './harness.ts';


/** The value of the `q` parameter of the page's URL. */
function urlQuery(page: Page): string {
  return new URL(page.url()).searchParams.get('q') ?? '';
}

describe('the workflows list in headless Chromium: query box, status counts, columns, bulk actions', {
  skip: BROWSER_SKIP,
}, () => {
  let env: UiEnv;
  let page: Page;
  let client: Client;

  before(async () => {
    requireChromium();
    env = await startUiEnv();
    ({ page, client } = env);
    await client.searchAttributes.create({ name: 'CustomerId', type: 'Keyword' });
    for (const id of ['wait-1', 'wait-2', 'wait-3']) {
      await client.workflow.start(waitsForPoke, { taskQueue: 'ui', workflowId: id, searchAttributes: { CustomerId: `c-${id}` } });
    }
    await client.workflow.execute(greets, { taskQueue: 'ui', workflowId: 'greet-1', args: ['list'] });
  });

  after(async () => {
    await env?.close();
  });

  test('the query box completes attribute names (custom ones too), operators and status values', async () => {
    await page.goto(`${env.address}/`);
    const box = page.locator('input.query');
    const menu = page.getByTestId('completions');
    await box.click();
    await box.pressSequentially('Cust');
    await menu.getByRole('option', { name: /CustomerId/ }).waitFor();
    assert.deepEqual(await menu.getByRole('option').allTextContents(), ['CustomerIdKeyword']);
    await box.press('Tab');
    assert.equal(await box.inputValue(), 'CustomerId ');
    await menu.getByRole('option', { name: 'STARTS_WITH', exact: true }).waitFor();
    await page.screenshot({ path: join(env.shots, 'workflows-list.png') });
    await box.pressSequentially("= 'c-wait-2");
    assert.deepEqual(await menu.getByRole('option').allTextContents(), ["'c-wait-2'"], 'values of a custom attribute seen in the list');

    await box.fill('');
    await box.pressSequentially('ExecutionStatus = ');
    await menu.getByRole('option', { name: "'Running'" }).click();
    assert.equal(await box.inputValue(), "ExecutionStatus = 'Running' ");
    await menu.getByRole('option', { name: 'AND', exact: true }).waitFor();
    await box.press('Enter');
    await page.waitForURL(/\?q=/);
    assert.equal(urlQuery(page), "ExecutionStatus = 'Running'");
    await page.waitForFunction("document.querySelectorAll('tbody tr').length === 3");
  });

  test('the status chips count the runs of the filter per status in one count query; the Task failing chip in one of its own', async () => {
    const counts: string[] = [];
    const onRequest = (r: { url(): string; postData(): string | null }) => {
      if (r.url().endsWith('/api/v1/countWorkflowExecutions')) counts.push((JSON.parse(r.postData()!) as { query: string }).query);
    };
    page.on('request', onRequest);
    await page.goto(`${env.address}/?q=${encodeURIComponent("WorkflowId STARTS_WITH 'wait-' OR WorkflowId = 'greet-1'")}`);
    await page.getByTestId('count-All').filter({ hasText: /^4$/ }).waitFor();
    page.off('request', onRequest);
    const filter = "WorkflowId STARTS_WITH 'wait-' OR WorkflowId = 'greet-1'";
    assert.deepEqual(counts.filter((q) => q.includes('GROUP BY')), [`${filter} GROUP BY ExecutionStatus`]);
    // The Task failing chip counts with a query of its own, of the same filter.
    for (const q of counts.filter((c) => !c.includes('GROUP BY'))) assert.equal(q, `(${filter}) AND TaskFailing = true`);
    assert.equal(await page.getByTestId('count-Running').innerText(), '3');
    assert.equal(await page.getByTestId('count-Completed').innerText(), '1');
    assert.equal(await page.getByTestId('count-Failed').innerText(), '0');
    await page.locator('.chip[data-chip="Completed"]').click();
    await page.waitForURL(/status=Completed/);
    await page.waitForFunction("document.querySelectorAll('tbody tr').length === 1");
    await page.locator('tr', { hasText: 'greet-1' }).waitFor();
    // The counts stay those of the filter, so that the other chips still say what they hold.
    assert.equal(await page.getByTestId('count-Running').innerText(), '3');
  });

  test('a query that does not parse is shown beside the box with its column; the filter lives in the URL', async () => {
    await page.goto(`${env.address}/?q=${encodeURIComponent("WorkflowId FOO 'x'")}`);
    const error = page.getByTestId('query-error');
    await error.waitFor();
    assert.match(await error.innerText(), /column 12/);
    assert.equal((await error.locator('pre.caret').innerText()).split('\n')[1], `${' '.repeat(11)}^`);
    // The same error with a status chip on: the column still points into the box's text.
    await page.goto(`${env.address}/?q=${encodeURIComponent("WorkflowId FOO 'x'")}&status=Running`);
    assert.equal((await error.locator('pre.caret').innerText()).split('\n')[1], `${' '.repeat(11)}^`);
  });

  test('columns are chosen and kept; a header click sorts by ORDER BY in the query', async () => {
    await page.goto(`${env.address}/?q=${encodeURIComponent("WorkflowId STARTS_WITH 'wait-'")}`);
    await page.waitForFunction("document.querySelectorAll('tbody tr').length === 3");
    const firstIds = async () => page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => /wait-\d/.exec(r.textContent ?? '')?.[0]));
    assert.deepEqual(await firstIds(), ['wait-3', 'wait-2', 'wait-1'], 'newest first by default');
    await page.locator('th[data-col="workflowId"] button').click();
    await page.waitForURL((url) => (url.searchParams.get('q') ?? '').endsWith('ORDER BY WorkflowId DESC'));
    await page.locator('th[data-col="workflowId"] button').click();
    await page.waitForURL((url) => (url.searchParams.get('q') ?? '').endsWith('ORDER BY WorkflowId ASC'));
    await page.locator('th[data-col="workflowId"][aria-sort="ascending"]').waitFor();
    await page.waitForFunction("document.querySelector('tbody tr')?.textContent.includes('wait-1')");
    assert.deepEqual(await firstIds(), ['wait-1', 'wait-2', 'wait-3']);

    await page.getByRole('button', { name: 'Columns…' }).click();
    await page.locator('input[name="col-sa:CustomerId"]').check();
    await page.locator('input[name="col-runId"]').uncheck();
    await page.locator('tbody tr', { hasText: 'c-wait-2' }).waitFor();
    assert.equal(await page.locator('th[data-col="runId"]').count(), 0);
    await page.reload();
    await page.locator('th[data-col="sa:CustomerId"]').waitFor();
    assert.equal(await page.locator('th[data-col="runId"]').count(), 0, 'the choice is kept across loads');
  });

  test('live refresh shows new runs, and not while paused', async () => {
    await page.goto(`${env.address}/?q=${encodeURIComponent("WorkflowId STARTS_WITH 'live-'")}`);
    await page.getByText('No workflows match.').waitFor();
    await page.getByTestId('live').click();
    assert.match(await page.getByTestId('live').innerText(), /Resume/);
    await client.workflow.start(waitsForPoke, { taskQueue: 'ui', workflowId: 'live-1' });
    // Two refresh periods (3 s each) pass with the list paused.
    await page.waitForTimeout(6500);
    assert.equal(await page.locator('tbody tr').count(), 0);
    await page.getByTestId('live').click();
    await page.locator('tbody tr', { hasText: 'live-1' }).waitFor({ timeout: 10_000 });
    await client.workflow.getHandle('live-1').terminate('done');
  });

  test('a shared link names its namespace; switching back drops it from the URL and suggests the namespaces used', async () => {
    await page.goto(`${env.address}/?ns=elsewhere&q=${encodeURIComponent("WorkflowId STARTS_WITH 'wait-'")}`);
    await page.getByText('No workflows match.').waitFor();
    assert.equal(await page.locator('input[name="namespace"]').inputValue(), 'elsewhere');
    await page.getByRole('link', { name: 'Schedules', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/schedules' && url.searchParams.get('ns') === 'elsewhere');
    await page.getByText('No schedules in namespace elsewhere.').waitFor();
    await page.goBack();
    await page.locator('input[name="namespace"]').fill('default');
    await page.locator('input[name="namespace"]').press('Enter');
    await page.waitForURL((url) => !url.searchParams.has('ns') && url.searchParams.has('q'));
    await page.waitForFunction("document.querySelectorAll('tbody tr').length === 3");
    const suggested = await page.locator('datalist#namespaces option').evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    assert.deepEqual(suggested, ['default', 'elsewhere']);
  });

  test("a run's page shows its search attributes and resets to a chosen workflow task", async () => {
    await page.goto(`${env.address}/workflows/wait-1`);
    assert.match(await page.getByTestId('search-attributes').innerText(), /"CustomerId": "c-wait-1"/);

    const before = await client.workflow.getHandle('greet-1').describe();
    await page.goto(`${env.address}/workflows/greet-1`);
    await page.locator('h2 [data-status="Completed"]').waitFor();
    await page.getByRole('button', { name: 'Reset…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Reset' });
    const options = await confirm.locator('select[name="reset-event"] option').allInnerTexts();
    assert.equal(options.length, 1);
    assert.match(options[0]!, /^event 4, workflow task 1 \(first\) \(last\), \d{4}-/);
    await confirm.locator('input[name="reset-reason"]').fill('try again');
    // Signals and updates are re-applied or not each on its own (Temporal's resetReapplyExcludeTypes).
    assert.equal(await confirm.locator('input[name="reapply-updates"]').isChecked(), true);
    await confirm.locator('input[name="reapply-signals"]').uncheck();
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/resetWorkflowExecution'));
    await confirm.getByRole('button', { name: 'Yes, reset' }).click();
    assert.deepEqual((await sent).postDataJSON().resetReapplyExcludeTypes, ['Signal']);
    await page.waitForURL((url) => url.pathname.startsWith('/workflows/greet-1/') && !url.pathname.endsWith(before.runId));
    await page.locator('h2 [data-status="Completed"]').waitFor();
    const after = await client.workflow.getHandle('greet-1').describe();
    assert.notEqual(after.runId, before.runId);
    assert.ok(page.url().endsWith(after.runId));
  });

  test('bulk-terminate by query: the count first, then progress, and every selected run ends', async () => {
    await page.goto(`${env.address}/?q=${encodeURIComponent("CustomerId STARTS_WITH 'c-wait'")}`);
    await page.waitForFunction("document.querySelectorAll('tbody tr').length === 3");
    await page.getByRole('button', { name: 'Bulk action…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk action' });
    await dialog.locator('select[name="bulk-kind"]').selectOption('terminate');
    await dialog.locator('input[name="bulk-reason"]').fill('cleanup');
    await dialog.getByRole('button', { name: 'Count the runs…' }).click();
    await dialog.getByTestId('bulk-confirm').filter({ hasText: 'Terminate 3 runs?' }).waitFor();
    for (const id of ['wait-1', 'wait-2', 'wait-3']) {
      assert.equal((await client.workflow.getHandle(id).describe()).status, 'Running', 'nothing happens before the confirmation');
    }
    await dialog.getByRole('button', { name: 'Yes, terminate 3' }).click();
    await dialog.getByTestId('bulk-progress').filter({ hasText: '(finished)' }).waitFor();
    assert.equal(await dialog.getByTestId('bulk-done').innerText(), '3');
    assert.equal(await dialog.getByTestId('bulk-failed').innerText(), '0');
    for (const id of ['wait-1', 'wait-2', 'wait-3']) {
      const events = (await client.workflow.getHandle(id).fetchHistory()).events;
      const last = events[events.length - 1]!;
      assert.equal(last.eventType, 'WorkflowExecutionTerminated');
      assert.equal(last.eventType === 'WorkflowExecutionTerminated' && last.attributes.reason, 'cleanup');
    }
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('count-Terminated').filter({ hasText: /^3$/ }).waitFor();
  });

  test('bulk-signal by query with JSON arguments: each selected run gets the signal', async () => {
    for (const id of ['sig-1', 'sig-2']) await client.workflow.start(waitsForPoke, { taskQueue: 'ui', workflowId: id });
    await page.goto(`${env.address}/?q=${encodeURIComponent("WorkflowId STARTS_WITH 'sig-'")}&status=Running`);
    await page.waitForFunction("document.querySelectorAll('tbody tr').length === 2");
    await page.getByRole('button', { name: 'Bulk action…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk action' });
    await dialog.locator('select[name="bulk-kind"]').selectOption('signal');
    await dialog.locator('input[name="bulk-signal"]').fill('poke');
    await dialog.locator('input[name="bulk-args"]').fill('["from the list"]');
    await dialog.getByRole('button', { name: 'Count the runs…' }).click();
    await dialog.getByRole('button', { name: 'Yes, signal 2' }).click();
    await dialog.getByTestId('bulk-progress').filter({ hasText: '(finished)' }).waitFor();
    assert.equal(await dialog.getByTestId('bulk-done').innerText(), '2');
    for (const id of ['sig-1', 'sig-2']) assert.equal(await client.workflow.getHandle(id).result(), 'from the list');
  });
});
