/**
 * A running local activity on the workflow page, in headless Chromium: a workflow task whose
 * local activity outlasts most of its timeout reports it, and the page shows it with its attempt
 * and worker until it ends.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import * as activities from '../fixtures/local-activities.ts';
import { BROWSER_SKIP, requireChromium, startUiEnv, type UiEnv } from './harness.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/local-activities.ts', import.meta.url));

describe('running local activities in the web UI', { skip: BROWSER_SKIP }, () => {
  let env: UiEnv;

  before(async () => {
    requireChromium();
    env = await startUiEnv({ taskQueue: 'ui-local', workflowsPath, activities, identity: 'la-worker' });
  });
  after(async () => {
    await env?.close();
  });

  test('the workflow page shows a local activity while it runs, and not once it is done', async () => {
    const { page } = env;
    const handle = await env.client.workflow.start('slowLocal', {
      taskQueue: 'ui-local', workflowId: 'ui-local-slow', args: ['ui-local-slow', 5000], workflowTaskTimeout: '1s',
    });
    for (let i = 0; i < 500 && (await handle.describe()).pendingLocalActivities.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await page.goto(`${env.address}/workflows/ui-local-slow`);
    const panel = page.getByTestId('pending-local-activity');
    await panel.waitFor();
    const text = await panel.innerText();
    assert.match(text, /slow/);
    assert.match(text, /local · running/);
    assert.equal(await panel.getByTestId('attempt').innerText(), '1');
    assert.match(text, /la-worker/);
    await page.screenshot({ path: `${env.shots}/local-activity-running.png` });
    assert.equal(await handle.result(), 'slept 5000');
    await page.reload();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    assert.equal(await page.getByTestId('pending-local-activity').count(), 0);
  });
});
