import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertExit, assertOneLine, startDev } from './cli-helpers.ts';

test('steadfast task-queue describe and list, with tables, --json and --help', { timeout: 90_000 }, async () => {
  const { cli, client, close } = await startDev('steadfast-tq-cli-');
  try {
    assertExit(await cli('workflow', 'start', 'order', '--task-queue', 'orders', '--id', 'o-1'), 0, 'workflow start');
    // A worker polls the activity side once.
    assert.equal(await client.connection.pollActivityTaskQueue({ taskQueue: 'orders', identity: 'billing-worker@host', pollTimeoutMs: 50 }), null);

    const table = await cli('task-queue', 'describe', 'orders');
    assertExit(table, 0, 'task-queue describe');
    assert.match(table.stdout, /^Task queue orders \(namespace default\), last poll: [\d.]+m?s ago\n/);
    assert.match(table.stdout, /\nKIND +POLLERS +BACKLOG +OLDEST +START P50 +START P99\n[- ]+\n/);
    assert.match(table.stdout, /\nworkflow +0 +1 +[\d.]+m?s *\n/);
    assert.match(table.stdout, /\nactivity +1 +0 *\n/);
    assert.match(table.stdout, /\nIDENTITY +KIND +LAST POLL +POLLS\/S\n[- ]+\nbilling-worker@host +activity +[\d.]+m?s ago +0\.02\n/);

    const json = JSON.parse((await cli('task-queue', 'describe', 'orders', '--json')).stdout) as Record<string, { backlogCount: number; pollers: { identity: string }[] }>;
    assert.deepEqual([json.workflow!.backlogCount, json.activity!.pollers.map((p) => p.identity)], [1, ['billing-worker@host']]);

    const empty = await cli('task-queue', 'describe', 'quiet');
    assert.match(empty.stdout, /last poll: never\n[\s\S]*No worker has polled this queue in the last 5 minutes\.\n$/);

    const list = await cli('task-queue', 'list');
    assertExit(list, 0, 'task-queue list');
    assert.match(list.stdout, /^NAME +POLLERS +LAST POLL\n[- ]+\norders +1 +[\d.]+m?s ago\n$/);
    assert.deepEqual((JSON.parse((await cli('task-queue', 'list', '--json')).stdout) as { name: string }[]).map((q) => q.name), ['orders']);

    const help = await cli('task-queue', '--help');
    assertExit(help, 0, 'task-queue --help');
    assert.match(help.stdout, /^Usage: steadfast task-queue <action>/);
    assertOneLine(await cli('task-queue', 'describe'), 2, /give the queue: steadfast task-queue describe <queue>$/, 'no queue');
    assertOneLine(await cli('task-queue', 'remove', 'orders'), 2, /unknown action "remove"/, 'an unknown action');
    assertOneLine(await cli('task-queue', 'describe', 'orders', '--namespace', 'nowhere'), 1, /namespace "nowhere" is not registered/, 'an unknown namespace');
  } finally {
    await close();
  }
});
