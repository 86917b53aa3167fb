import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Client } from '../../src/client/index.ts';
import { BROWSER_SKIP, requireChromium, startUiEnv, type UiEnv } from './harness.ts';


describe('schedules in headless Chromium: create, pause, trigger, edit, backfill, and the list with health', {
  skip: BROWSER_SKIP,
}, () => {
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

  const counter = (name: string) => page.locator(`[data-counter="${name}"]`);

  test('create a schedule from the form: its page shows the canonical spec and the next 10 times', async () => {
    await page.goto(`${env.address}/schedules`);
    await page.getByText('No schedules in namespace default.').waitFor();
    await page.getByRole('link', { name: 'New schedule' }).click();
    await page.locator('input[name="scheduleId"]').fill('nightly');
    await page.locator('textarea[name="cron"]').fill('0 3 * * *');
    // The form previews the times in the browser, with the server's own schedule library.
    const preview = page.getByTestId('preview').locator('li');
    await preview.nth(9).waitFor();
    for (const t of await preview.allInnerTexts()) assert.match(t, /^\d{4}-\d\d-\d\d 03:00:00\.000Z$/);
    await page.locator('input[name="workflowType"]').fill('greets');
    await page.locator('input[name="taskQueue"]').fill('ui');
    await page.locator('input[name="workflowId"]').fill('nightly');
    await page.locator('input[name="args"]').fill('["schedule"]');
    await page.locator('textarea[name="actionExtra"]').fill('{ "memo": { "team": "ops" } }');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.waitForURL(/\/schedules\/nightly$/);
    const times = page.getByTestId('next-times').locator('li');
    await times.nth(9).waitFor();
    assert.equal(await times.count(), 10);
    for (const t of await times.allInnerTexts()) assert.match(t, /^\d{4}-\d\d-\d\d 03:00:00\.000Z \(in /);
    assert.match(await page.getByTestId('spec').innerText(), /"hour": "3"/);
    assert.equal(await page.getByTestId('spec-summary').innerText(), 'at 03:00 every day (UTC)');
    assert.equal(await counter('actions').innerText(), '0');
    assert.match(await page.getByTestId('action-options').innerText(), /"team": "ops"/);
    const d = await client.schedule.getHandle('nightly').describe();
    assert.deepEqual(d.action.args, ['schedule']);
  });

  test('a bad spec is refused with the server message, naming the field', async () => {
    await page.goto(`${env.address}/schedules/new`);
    await page.locator('input[name="scheduleId"]').fill('broken');
    await page.locator('textarea[name="cron"]').fill('0 25 * * *');
    assert.match(await page.getByTestId('preview-error').innerText(), /column 3 expected an hour 0-23, got "25"/);
    await page.locator('input[name="workflowType"]').fill('greets');
    await page.locator('input[name="taskQueue"]').fill('ui');
    await page.locator('input[name="workflowId"]').fill('broken');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    assert.match(await page.getByTestId('form-error').innerText(), /column 3 expected an hour 0-23, got "25"/);
  });

  test('pause with a note, trigger while paused, and the action links to its workflow', async () => {
    await page.goto(`${env.address}/schedules/nightly`);
    await page.getByRole('button', { name: 'Pause…' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.locator('input[name="note"]').fill('maintenance window');
    await confirm.getByRole('button', { name: 'Yes, pause' }).click();
    await page.locator('[data-state="paused"]').waitFor();
    assert.equal(await page.getByTestId('note').innerText(), 'Note: maintenance window');
    const state = (await client.schedule.getHandle('nightly').describe()).state;
    assert.deepEqual([state.paused, state.note], [true, 'maintenance window']);

    await page.getByRole('button', { name: 'Trigger…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, trigger' }).click();
    const action = page.getByTestId('recent-actions').locator('tbody tr').first();
    await action.locator('[data-status="Completed"]').waitFor({ timeout: 20_000 });
    assert.equal(await counter('actions').innerText(), '1');
    await action.locator('a').click();
    await page.waitForURL(/\/workflows\/nightly-\d{4}-\d\d-\d\dT[^/]+Z\/[0-9a-f-]+$/);
    await page.locator('h2 [data-status="Completed"]').waitFor();
    await page.locator('pre.json', { hasText: '"hello schedule"' }).first().waitFor();
    assert.equal(await page.getByTestId('scheduled-by').innerText(), 'nightly', 'the run links back to its schedule');

    await page.goBack();
    await page.getByRole('button', { name: 'Unpause…' }).click();
    await page.getByRole('alertdialog').locator('input[name="note"]').fill('done');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, unpause' }).click();
    await page.locator('[data-state="active"]').waitFor();
  });

  test('edit keeps the spec and changes a policy; backfill takes every time of a range', async () => {
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(/\/schedules\/nightly\/edit$/);
    assert.match(await page.locator('textarea[name="specJson"]').inputValue(), /"calendars"/);
    await page.locator('select[name="overlap"]').selectOption('AllowAll');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/schedules\/nightly$/);
    await page.locator('dl.facts dt:text-is("Overlap") + dd', { hasText: 'AllowAll' }).waitFor();
    assert.equal(await page.getByTestId('next-times').locator('li').count(), 10, 'the same spec');
    const described = await fetch(`${env.address}/api/v1/describeSchedule`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scheduleId: 'nightly' }),
    });
    const { action } = (await described.json()) as { action: { memo?: unknown; args?: unknown } };
    assert.deepEqual([action.memo, action.args], [{ team: 'ops' }, ['schedule']], 'the edit kept the memo and the arguments');

    await page.getByRole('button', { name: 'Backfill…' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.locator('input[name="backfill-start"]').fill('2026-01-01T00:00:00Z');
    await confirm.locator('input[name="backfill-end"]').fill('2026-01-03T00:00:00Z');
    await confirm.getByRole('button', { name: 'Yes, backfill' }).click();
    await counter('actions').filter({ hasText: /^3$/ }).waitFor({ timeout: 20_000 });
    const workflows = await page.getByTestId('recent-actions').locator('tbody a').allInnerTexts();
    assert.ok(workflows.includes('nightly-2026-01-01T03:00:00Z') && workflows.includes('nightly-2026-01-02T03:00:00Z'), workflows.join(', '));
    await page.getByTestId('recent-actions').locator('[data-status="Running"]').first().waitFor({ state: 'detached', timeout: 20_000 });
    await page.screenshot({ path: join(env.shots, 'schedule.png'), fullPage: true });
  });

  test('the list shows health, the next fire, and the skipped and missed counts', async () => {
    await page.getByRole('link', { name: 'all schedules' }).click();
    const row = page.locator('tr[data-schedule="nightly"]');
    await row.waitFor();
    assert.equal(await row.locator('[data-health]').getAttribute('data-health'), 'healthy');
    assert.match(await row.innerText(), /\d{4}-\d\d-\d\d 03:00:00\.000Z \(in /);
    assert.equal(await row.getByTestId('skipped').innerText(), '0');
    assert.equal(await row.getByTestId('missed').innerText(), '0');
    assert.match(await row.innerText(), /greets/);
  });

  test('an unhealthy schedule says why in the list', async () => {
    // A schedule is unhealthy when its next fire is overdue beyond the catch-up window (the
    // server was down): the answers are shaped here rather than waiting out a real outage.
    await page.route('**/api/v1/listSchedules', async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { schedules: { scheduleId: string; healthy: boolean }[] };
      for (const s of body.schedules) s.healthy = s.scheduleId !== 'nightly';
      await route.fulfill({ response: res, json: body });
    });
    await page.route('**/api/v1/describeSchedule', async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { info: { healthy: boolean; unhealthyReason?: string } };
      body.info.healthy = false;
      body.info.unhealthyReason = 'the action due at 03:00 is 2h late (catch-up window 1m)';
      await route.fulfill({ response: res, json: body });
    });
    try {
      await page.goto(`${env.address}/schedules`);
      const row = page.locator('tr[data-schedule="nightly"]');
      await row.locator('[data-health="unhealthy"]', { hasText: 'is 2h late' }).waitFor();
    } finally {
      await page.unrouteAll();
    }
  });

  test('delete asks first, then the schedule leaves the list', async () => {
    await client.schedule.create({
      scheduleId: 'doomed', spec: { intervals: [{ every: '1h' }] },
      action: { type: 'startWorkflow', workflowType: 'greets', taskQueue: 'ui', workflowId: 'doomed' },
    });
    await page.goto(`${env.address}/schedules/doomed`);
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, delete' }).click();
    await page.waitForURL(/\/schedules$/);
    await page.locator('tr[data-schedule="nightly"]').waitFor();
    assert.equal(await page.locator('tr[data-schedule="doomed"]').count(), 0);
    await assert.rejects(client.schedule.getHandle('doomed').describe(), /not found|NotFound|does not exist/i);
  });
});
