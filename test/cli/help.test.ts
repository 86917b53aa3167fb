import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BIN, spawnNode } from '../helpers/processes.ts';
import { ACTIONS } from '../../src/cli/workflow-help.ts';
import { collect, inTwoLanes } from './cli-helpers.ts';

test('every command and every workflow action answers --help with exit 0 and an example of itself', { timeout: 180_000 }, async () => {
  const top = await collect(spawnNode([BIN, '--help']));
  assert.equal(top.code, 0);
  assert.match(top.stdout, /^Example:\n {2}steadfast /m);
  const commands = [...top.stdout.matchAll(/^ {2}([a-z][a-z-]*(?: [a-z][a-z-]*)?)\s{2,}\S/gm)].map((m) => m[1]!);
  assert.deepEqual(new Set(commands), new Set(['dev', 'server', 'api-key create', 'workflow', 'retry simulate', 'schedule', 'search-attribute', 'namespace', 'task-queue', 'activity', 'codec-server']));
  const workflowActions = Object.keys(ACTIONS).map((a) => `workflow ${a}`);
  assert.deepEqual(Object.keys(ACTIONS), ['start', 'execute', 'list', 'count', 'describe', 'history', 'show', 'result', 'signal', 'query', 'stack', 'update', 'cancel', 'delete', 'terminate', 'reset']);
  await inTwoLanes([...commands, ...workflowActions], async (command) => {
    const r = await collect(spawnNode([BIN, ...command.split(' '), '--help']));
    assert.equal(r.code, 0, `steadfast ${command} --help: ${r.stderr}`);
    const example = r.stdout.match(/^Example:\n((?: {2}.*\n?)+)/m)?.[1] ?? '';
    assert.ok(example.includes(`steadfast ${command} `), `steadfast ${command} --help shows an example of itself:\n${r.stdout}`);
  });
});
