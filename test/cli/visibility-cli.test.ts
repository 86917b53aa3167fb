import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BIN, spawnNode } from '../helpers/processes.ts';
import { startDev } from './cli-helpers.ts';

test('steadfast search-attribute, workflow list --query and workflow count: tables, JSON, and a caret under a syntax error', { timeout: 90_000 }, async () => {
  const { address, close } = await startDev('steadfast-vis-cli-');
  const cli = async (...args: string[]) => {
    const p = spawnNode([BIN, ...args, '--address', address]);
    return { code: await p.exited, out: p.output() };
  };
  try {
    assert.equal((await cli('search-attribute', 'create', '--name', 'CustomerId', '--type', 'Keyword')).code, 0);
    const dup = await cli('search-attribute', 'create', '--name', 'CustomerId', '--type', 'Int');
    assert.equal(dup.code, 2, dup.out);
    assert.match(dup.out, /name must not be registered already in namespace default/);
    const listed = await cli('search-attribute', 'list');
    assert.match(listed.out, /CustomerId\s+Keyword\s+custom/);
    assert.match(listed.out, /ExecutionStatus\s+Keyword\s+built-in/);
    for (const id of ['a-1', 'a-2', 'b-1']) {
      assert.equal((await cli('workflow', 'start', id.startsWith('a') ? 'order' : 'refund', '--task-queue', 'q', '--id', id)).code, 0);
    }
    assert.equal((await cli('workflow', 'terminate', 'a-1')).code, 0);

    const list = await cli('workflow', 'list', '--query', "WorkflowType = 'order' AND ExecutionStatus = 'Running'", '--json');
    assert.equal(list.code, 0, list.out);
    assert.deepEqual((JSON.parse(list.out) as { workflowId: string }[]).map((e) => e.workflowId), ['a-2']);
    const shorthand = await cli('workflow', 'list', '--type', 'order', '--json');
    assert.deepEqual((JSON.parse(shorthand.out) as { workflowId: string }[]).map((e) => e.workflowId).sort(), ['a-1', 'a-2']);

    const count = await cli('workflow', 'count', '--query', 'GROUP BY ExecutionStatus');
    assert.equal(count.code, 0, count.out);
    assert.match(count.out, /VALUE\s+COUNT/);
    assert.match(count.out, /Running\s+2/);
    assert.match(count.out, /Terminated\s+1/);
    assert.match(count.out, /total\s+3/);
    const json = await cli('workflow', 'count', '--query', "WorkflowType = 'order'", '--json');
    assert.deepEqual(JSON.parse(json.out), { count: 2, groups: [] });

    const bad = await cli('workflow', 'list', '--query', "WorkflowType == 'order'");
    assert.equal(bad.code, 2);
    assert.match(bad.out, /at column 15/);
    assert.ok(bad.out.includes("WorkflowType == 'order'\n              ^"), bad.out);
    const unknown = await cli('workflow', 'count', '--query', "Customer = 'x'");
    assert.equal(unknown.code, 2);
    assert.ok(unknown.out.includes("Customer = 'x'\n^"), unknown.out);
  } finally {
    await close();
  }
});
