import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Client } from '../../src/client/index.ts';
import { BROWSER_SKIP, requireChromium, startUiEnv, type UiEnv } from './harness.ts';

describe('task queues and stuck runs in headless Chromium', { skip: BROWSER_SKIP }, () => {
  let env: UiEnv;
  let page: Page;
  let client: Client;

  before(async () => {
    requireChromium();
    env = await startUiEnv();
    ({ page, client } = env);
  });

  after(async () => {
    await env?.close();
  });

  test('a run links to its task queue page, which shows the pollers, the backlog and schedule-to-start', async () => {
    const h = await client.workflow.start('greets', { taskQueue: 'ui', workflowId: 'tq-greets', args: ['queue'] });
    await h.result();
    await page.goto(`${env.address}/workflows/tq-greets`);
    await page.getByTestId('task-queue-link').click();
    await page.waitForURL(/\/task-queues\/ui$/);
    assert.equal(await page.getByTestId('task-queue-name').innerText(), 'ui');
    const pollers = page.getByTestId('pollers').locator('tbody tr');
    await pollers.first().waitFor();
    assert.match(await pollers.first().innerText(), /^\S+\s+workflow\s+(now|[\d.]+m?s ago)\s+[\d.]+$/);
    assert.equal(await page.getByTestId('workflow-pollers').innerText(), '1');
    assert.equal(await page.getByTestId('workflow-backlog').innerText(), '0');
    // The workflow task was started from the queue: a schedule-to-start sample.
    assert.match(await page.locator('tr[data-kind="workflow"]').innerText(), /^workflow\t1\t0\t—\t[\d.]+m?s\t[\d.]+m?s\t[1-9]\d*$/);
    await page.screenshot({ path: join(env.shots, 'task-queue.png'), fullPage: true });

    // A queue nobody polls: its page says so, and so does a run waiting on it.
    await client.workflow.start('greets', { taskQueue: 'nobody', workflowId: 'tq-unpolled' });
    await page.goto(`${env.address}/workflows/tq-unpolled`);
    assert.match(await page.getByTestId('task-queue-unpolled').innerText(), /^no worker has polled task queue "nobody" in the last 5 min/);
    await page.getByTestId('task-queue-link').click();
    await page.getByTestId('no-pollers').waitFor();
    assert.equal(await page.getByTestId('workflow-backlog').innerText(), '1');
    await client.workflow.getHandle('tq-unpolled').terminate('done');
  });

  test('the Task failing chip lists the runs whose workflow task keeps failing, each marked, with the red banner on its page', async () => {
    await client.workflow.start('brokenTask', { taskQueue: 'ui', workflowId: 'tq-broken' });
    await client.workflow.start('waitsForPoke', { taskQueue: 'ui', workflowId: 'tq-fine' });
    await page.goto(`${env.address}/`);
    const chip = page.locator('[data-chip="TaskFailing"]');
    await chip.click();
    await page.waitForURL(/status=TaskFailing/);
    const rows = page.locator('table.grid tbody tr');
    await page.getByTestId('task-failing').first().waitFor();
    assert.deepEqual((await rows.allInnerTexts()).map((r) => r.split('\t')[1]), ['tq-broken']);
    await page.getByTestId('count-TaskFailing').waitFor();
    assert.equal(await page.getByTestId('count-TaskFailing').innerText(), '1');
    await rows.first().getByRole('link', { name: 'tq-broken' }).click();
    await page.getByTestId('task-failure').waitFor();
    assert.match(await page.getByTestId('task-failure').innerText(), /the workflow code has a bug/);
    await client.workflow.getHandle('tq-broken').terminate('done');
    await client.workflow.getHandle('tq-fine').terminate('done');
  });
});
