import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertExit, assertOneLine, startDev } from './cli-helpers.ts';

test('steadfast namespace create, describe, list and update, with tables and --json; dev --namespace registers at start', { timeout: 90_000 }, async () => {
  const { cli, close } = await startDev('steadfast-ns-cli-', ['--namespace', 'orders', '--namespace', 'billing']);
  try {
    const created = await cli('namespace', 'create', '--name', 'reports', '--retention', '30d', '--description', 'monthly reports', '--owner-email', 'ops@example.com');
    assertExit(created, 0, 'namespace create');
    assert.equal(created.stdout, 'registered namespace reports (retention 30d)\n');
    assertOneLine(await cli('namespace', 'create', '--name', 'reports'), 1, /^steadfast namespace: namespace "reports" is registered already$/, 'a taken name');
    assertOneLine(await cli('namespace', 'create', '--name', 'a b'), 2, /^name must start with a letter or digit/, 'a bad name');
    assertOneLine(await cli('namespace', 'create', '--name', 'x', '--retention', '1h'), 2, /^retention must be at least 1 day, got "1h"$/, 'a short retention');

    const described = await cli('namespace', 'describe', '--name', 'reports', '--json');
    assertExit(described, 0, 'namespace describe --json');
    const d = JSON.parse(described.stdout) as Record<string, unknown>;
    assert.deepEqual([d.name, d.state, d.description, d.ownerEmail, d.workflowExecutionRetentionPeriodMs],
      ['reports', 'Registered', 'monthly reports', 'ops@example.com', 30 * 86_400_000]);
    assert.match((await cli('namespace', 'describe', 'default')).stdout, /^Name: +default\nState: +Registered\nRetention: +3d \(259200000 ms\)/);
    assertOneLine(await cli('namespace', 'describe', '--name', 'nowhere'), 1,
      /^steadfast namespace: namespace "nowhere" is not registered; create it with steadfast namespace create --name nowhere$/, 'an unknown one');

    const updated = await cli('namespace', 'update', '--name', 'reports', '--retention', '7 days');
    assertExit(updated, 0, 'namespace update');
    assert.equal(updated.stdout, 'updated namespace reports (retention 7d)\n');
    assertOneLine(await cli('namespace', 'update', '--name', 'reports'), 2, /--retention, --description, --owner-email/, 'an update of nothing');

    const table = await cli('namespace', 'list');
    assertExit(table, 0, 'namespace list');
    assert.match(table.stdout, /^NAME +STATE +RETENTION +OWNER +DESCRIPTION\n/);
    assert.match(table.stdout, /\nreports +Registered +7d +ops@example.com +monthly reports\n/);
    const listed = JSON.parse((await cli('namespace', 'list', '--json')).stdout) as { name: string }[];
    assert.deepEqual(listed.map((n) => n.name), ['billing', 'default', 'orders', 'reports']);

    assertExit(await cli('workflow', 'start', 'order', '--namespace', 'orders', '--task-queue', 'q', '--id', 'o-1'), 0, 'a start in a namespace dev registered');
    assertOneLine(await cli('workflow', 'start', 'order', '--namespace', 'elsewhere', '--task-queue', 'q', '--id', 'o-1'), 1,
      /namespace "elsewhere" is not registered; create it with steadfast namespace create --name elsewhere$/, 'a start in an unknown one');
  } finally {
    await close();
  }
});

test('steadfast namespace delete asks for --yes, refuses default, and the deleted namespace is refused until registered again', { timeout: 90_000 }, async () => {
  const { cli, close } = await startDev('steadfast-ns-delete-cli-', ['--namespace', 'orders']);
  try {
    assert.match((await cli('namespace', '--help')).stdout, /delete --name <ns> \[--yes\]/);
    assertExit(await cli('workflow', 'start', 'order', '--namespace', 'orders', '--task-queue', 'q', '--id', 'o-1'), 0, 'a start before the delete');
    assertOneLine(await cli('namespace', 'delete', '--name', 'orders'), 2,
      /^steadfast namespace delete: would delete namespace orders with all its workflows, histories and schedules; stdin is not a terminal to confirm it, so add --yes$/,
      'a delete without --yes and no terminal');
    assertOneLine(await cli('namespace', 'delete', '--name', 'default', '--yes'), 2, /the default namespace cannot be deleted/, 'default');
    assertOneLine(await cli('namespace', 'delete', '--name', 'nowhere', '-y'), 1, /^steadfast namespace: namespace "nowhere" is not registered/, 'an unknown one');
    const deleted = await cli('namespace', 'delete', '--name', 'orders', '--yes');
    assertExit(deleted, 0, 'namespace delete --yes');
    assert.equal(deleted.stdout, 'deleted namespace orders; its data is being removed\n');
    assertOneLine(await cli('workflow', 'start', 'order', '--namespace', 'orders', '--task-queue', 'q', '--id', 'o-2'), 1,
      /namespace "orders" is not registered/, 'a start in the deleted namespace');
    const deadline = Date.now() + 30_000;
    while ((await cli('namespace', 'describe', '--name', 'orders')).code === 0) {
      assert.ok(Date.now() < deadline, 'the deleted namespace was not removed within 30 s');
    }
    assertExit(await cli('namespace', 'create', '--name', 'orders'), 0, 'the name registered again');
    assertOneLine(await cli('workflow', 'describe', 'o-1', '--namespace', 'orders'), 1, /o-1/, 'the old workflow is gone');
  } finally {
    await close();
  }
});
