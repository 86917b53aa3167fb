import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, freePort, spawnNode } from '../helpers/processes.ts';

test('steadfast dev serves on SQLite, answers the CLI, and stops cleanly on SIGTERM', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-dev-'));
  const port = await freePort();
  const db = join(dir, 'dev.sqlite');
  const dev = spawnNode([BIN, 'dev', '--port', String(port), '--db', db]);
  try {
    const m = await dev.waitFor(/steadfast dev listening on (http:\/\/\S+)/);
    assert.equal(m[1], `http://127.0.0.1:${port}`);
    assert.ok(existsSync(db), 'the SQLite file was created');
    const address = m[1]!;

    const start = spawnNode([BIN, 'workflow', 'start', 'greet', '--task-queue', 'q', '--id', 'cli-1', '--args', '["ada"]', '--json', '--address', address]);
    assert.equal(await start.exited, 0, start.output());
    assert.equal(JSON.parse(start.output()).workflowId, 'cli-1');

    const list = spawnNode([BIN, 'workflow', 'list', '--json', '--address', address]);
    assert.equal(await list.exited, 0, list.output());
    const rows = JSON.parse(list.output()) as { workflowId: string; status: string }[];
    assert.deepEqual(rows.map((r) => [r.workflowId, r.status]), [['cli-1', 'Running']]);

    const table = spawnNode([BIN, 'workflow', 'list', '--address', address]);
    assert.equal(await table.exited, 0);
    assert.match(table.output(), /WORKFLOW ID\s+TYPE\s+STATUS/);
    assert.match(table.output(), /cli-1\s+greet\s+Running/);

    const describe = spawnNode([BIN, 'workflow', 'describe', 'nope', '--address', address]);
    assert.equal(await describe.exited, 1);
    assert.match(describe.output(), /^steadfast workflow: .*nope/m);

    const described = spawnNode([BIN, 'workflow', 'describe', 'cli-1', '--json', '--address', address]);
    assert.equal(await described.exited, 0, described.output());
    const d = JSON.parse(described.output()) as Record<string, unknown> & { raw: { execution: { runId: string } } };
    assert.deepEqual([d.type, d.workflowId, d.status, d.taskQueue], ['greet', 'cli-1', 'Running', 'q']);
    assert.equal(d.runId, d.raw.execution.runId);
    assert.ok(!Number.isNaN(Date.parse(String(d.startTime))), 'startTime is an ISO time in JSON');
    const describedTable = spawnNode([BIN, 'workflow', 'describe', 'cli-1', '--address', address]);
    assert.equal(await describedTable.exited, 0, describedTable.output());
    assert.match(describedTable.output(), /^Workflow cli-1 {2}\(greet, run [0-9a-f-]+\)$/m);
    assert.match(describedTable.output(), /^ {2}status {5}Running$/m);
    assert.match(describedTable.output(), /^ {2}history {4}\d+ events, \d+ bytes, attempt 1$/m);

    const signal = spawnNode([BIN, 'workflow', 'signal', 'cli-1', 'addItem', '--args', '["pen"]', '--address', address]);
    assert.equal(await signal.exited, 0, signal.output());
    const history = spawnNode([BIN, 'workflow', 'history', 'cli-1', '--json', '--address', address]);
    assert.equal(await history.exited, 0, history.output());
    const signaled = (JSON.parse(history.output()) as { events: { eventType: string; attributes: { signalName?: string; args?: unknown[] } }[] })
      .events.find((e) => e.eventType === 'WorkflowExecutionSignaled');
    assert.deepEqual([signaled?.attributes.signalName, signaled?.attributes.args], ['addItem', ['pen']]);

    const terminate = spawnNode([BIN, 'workflow', 'terminate', 'cli-1', '--reason', 'done', '--address', address]);
    assert.equal(await terminate.exited, 0, terminate.output());

    assert.equal(await dev.kill('SIGTERM'), 0);
    assert.match(dev.output(), /SIGTERM: shutting down/);
  } finally {
    await dev.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad usage exits 2 with a message naming the flag', async () => {
  const bad = spawnNode([BIN, 'server', '--port', '99999', '--database', 'sqlite:/tmp/x.sqlite']);
  assert.equal(await bad.exited, 2);
  assert.match(bad.output(), /--port must be an integer from 0 to 65535, got 99999/);
  const unknown = spawnNode([BIN, 'dev', '--prot', '1']);
  assert.equal(await unknown.exited, 2);
  assert.match(unknown.output(), /--prot/);
  const noDb = spawnNode([BIN, 'server']);
  assert.equal(await noDb.exited, 2);
  assert.match(noDb.output(), /--database is required/);
  const help = spawnNode([BIN, 'workflow', '--help']);
  assert.equal(await help.exited, 0);
  assert.match(help.output(), /Usage: steadfast workflow <action>/);
});
