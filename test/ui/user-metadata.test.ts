/**
 * User metadata in the web UI, in headless Chromium: the list's Summary column, the workflow
 * page's summary, details and current details (the `__temporal_workflow_metadata` query), and
 * the summaries of activities, children and timers in the compact history and the timeline.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import * as activities from '../fixtures/workflows/user-metadata-activities.ts';
import { BROWSER_SKIP, requireChromium, startUiEnv, type UiEnv } from './harness.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/user-metadata.ts', import.meta.url));

describe('user metadata in the web UI', { skip: BROWSER_SKIP }, () => {
  let env: UiEnv;
  let page: Page;

  before(async () => {
    requireChromium();
    env = await startUiEnv({ taskQueue: 'ui-meta', workflowsPath, activities });
    page = env.page;
  });
  after(async () => {
    await env?.close();
  });

  test('the list shows the summary in a column; the workflow page shows summary, details, current details and the summaries of its steps', async () => {
    const handle = await env.client.workflow.start('shipmentWithMetadata', {
      taskQueue: 'ui-meta', workflowId: 'ship-1', args: ['Ada'], staticSummary: 'Ship order 1 to Ada', staticDetails: 'Two boxes\nFragile',
    });
    await env.client.workflow.start('shipmentWithMetadata', { taskQueue: 'ui-meta', workflowId: 'ship-2', args: ['Bo'] });

    await page.goto(`${env.address}/?q=${encodeURIComponent("WorkflowId STARTS_WITH 'ship-'")}`);
    await page.waitForFunction("document.querySelectorAll('tbody tr').length === 2");
    await page.locator('th[data-col="summary"]').waitFor();
    const summaryOf = (id: string) => page.locator('tbody tr', { hasText: id }).locator('td .summary').innerText();
    assert.equal(await summaryOf('ship-1'), 'Ship order 1 to Ada');
    assert.equal(await summaryOf('ship-2'), '');

    // The run waits on its day-long timer once the activity and the child are done.
    for (;;) {
      const events = (await handle.fetchHistory()).events;
      if (events.some((e) => e.eventType === 'TimerStarted')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await page.locator('tbody tr', { hasText: 'ship-1' }).getByRole('link', { name: 'ship-1' }).click();
    assert.equal(await page.getByTestId('static-summary').innerText(), 'Ship order 1 to Ada');
    assert.equal(await page.getByTestId('static-details').innerText(), 'Two boxes\nFragile');
    await page.getByTestId('current-details').waitFor();
    assert.equal(await page.getByTestId('current-details').innerText(), 'Waiting for the **truck**');

    await page.getByTestId('view-compact').click();
    await page.waitForFunction("document.querySelectorAll('[data-testid=compact-summary]').length === 3");
    assert.deepEqual(await page.getByTestId('compact-summary').allInnerTexts(), ['Say hello', 'Label printer', 'Truck arrives']);
    const labels = await page.locator('[data-testid=timeline] text.label[data-summary]').evaluateAll((texts) =>
      texts.map((t) => [t.getAttribute('data-summary'), t.querySelector('title')?.textContent]));
    assert.deepEqual(labels.map(([summary]) => summary), ['Say hello', 'Label printer', 'Truck arrives'], 'the summaries are the row labels');
    assert.equal(labels[0]![1], 'greet (1)', 'the row\'s own label is its tooltip');
    assert.match(labels[1]![1]!, /^child /);
    assert.equal(labels[2]![1], 'timer 1');
    await page.screenshot({ path: `${env.shots}/user-metadata.png`, fullPage: true });

    await page.goto(`${env.address}/workflows/ship-2`);
    await page.getByTestId('workflow-id').waitFor();
    assert.equal(await page.getByTestId('static-summary').count(), 0, 'a run without metadata shows none');
    await handle.terminate('done');
  });

  test('a pending activity shows its summary on the workflow page', async () => {
    const handle = await env.client.workflow.start('pendingSummarised', { taskQueue: 'ui-meta', workflowId: 'pending-1', args: ['Ada'] });
    await page.goto(`${env.address}/workflows/pending-1`);
    await page.getByTestId('activity-summary').waitFor();
    assert.equal(await page.getByTestId('activity-summary').innerText(), 'Waits for the warehouse');
    await handle.terminate('done');
  });
});
