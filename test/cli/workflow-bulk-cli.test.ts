import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../src/client/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { BIN, freePort, startServerProcess, type Child } from '../helpers/processes.ts';
import { assertExit, assertOneLine, cliAt, CLI_WORKFLOWS, type CliRun } from './cli-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'steadfast-bulk-cli-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the binary with a pseudo-terminal as stdin and stderr (util-linux `script`), typing
 * `answer` and Enter: what a person at a terminal sees, the prompt and the progress bar included.
 */
function atTerminal(args: string[], answer: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stdin.end(`${answer}\n`);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out: out.replace(/\r/g, '\n') })));
}

describe('steadfast workflow cancel | terminate | signal | reset --query', { timeout: 240_000 }, () => {
  let server: Child & { address: string };
  let worker: Worker;
  let running: Promise<void>;
  let client: Client;
  let cli: (...args: string[]) => Promise<CliRun>;
  const statuses = async (query: string) => {
    const out: Record<string, string> = {};
    for await (const e of client.workflow.list({ query })) out[`${e.workflowId}`] = e.status;
    return out;
  };

  before(async () => {
    server = await startServerProcess(`sqlite:${join(dir, 'server.sqlite')}`, await freePort());
    cli = cliAt(server.address);
    client = new Client({ address: server.address });
    worker = await Worker.create({ address: server.address, taskQueue: 'bulk', workflowsPath: CLI_WORKFLOWS });
    running = worker.run();
  });
  after(async () => {
    worker.shutdown();
    await running;
    client.close();
    assert.equal(await server.kill('SIGTERM'), 0);
  });

  test('terminate by query: refused without --yes off a terminal, declined at a terminal, then done with --yes (closed runs skipped)', async () => {
    for (const id of ['idle-1', 'idle-2', 'idle-3', 'idle-4']) await client.workflow.start('steps', { taskQueue: 'idle', workflowId: id });
    await client.workflow.getHandle('idle-4').terminate('before the bulk');
    const query = "WorkflowType = 'steps' AND TaskQueue = 'idle'";

    const refused = await cli('workflow', 'terminate', '--query', query);
    assertOneLine(refused, 2,
      /^steadfast workflow terminate --query: would terminate 4 workflows matching ".*"; stdin is not a terminal to confirm it, so add --yes$/, 'no --yes');
    const declined = await atTerminal(['workflow', 'terminate', '--query', query, '--address', server.address], 'n');
    assert.equal(declined.code, 1, declined.out);
    assert.ok(declined.out.includes(`Terminate 4 workflows matching "${query}"? [y/N]`), declined.out);
    assert.match(declined.out, /not confirmed; nothing was done/);
    assert.deepEqual(await statuses(query), { 'idle-1': 'Running', 'idle-2': 'Running', 'idle-3': 'Running', 'idle-4': 'Terminated' });

    const done = await cli('workflow', 'terminate', '--query', query, '--yes', '--reason', 'bad deploy', '--json');
    assertExit(done, 0, 'terminate --yes --json');
    assert.doesNotMatch(done.stderr, /terminate \[/, 'no progress bar when stderr is not a terminal');
    assert.deepEqual(JSON.parse(done.stdout), { total: 4, matched: 4, done: 3, skipped: 1, failed: 0, errors: [] });
    assert.deepEqual(Object.values(await statuses(query)), ['Terminated', 'Terminated', 'Terminated', 'Terminated']);
    const close = (await client.workflow.getHandle('idle-1').fetchHistory()).events.at(-1)!;
    assert.equal(close.eventType === 'WorkflowExecutionTerminated' && close.attributes.reason, 'bad deploy');

    // A reset needs a completed workflow task, which these runs never had: every one fails, exit 1.
    const failed = await cli('workflow', 'reset', '--query', query, '--to', 'first', '--yes');
    assertExit(failed, 1, 'reset of runs without a workflow task');
    assert.match(failed.stdout, /^MATCHED\s+DONE\s+SKIPPED \(CLOSED\)\s+FAILED\n[- ]+\n\s+4\s+0\s+0\s+4$/m);
    assert.match(failed.stdout, /^First errors \(4 of 4\):$/m);
    assert.match(failed.stdout, /^idle-\d\s+[0-9a-f-]+\s+\S.*$/m);

    const none = await cli('workflow', 'terminate', '--query', "WorkflowType = 'nothing'");
    assertExit(none, 0, 'a query matching nothing needs no --yes');
    assert.match(none.stdout, /^no workflows match "WorkflowType = 'nothing'"; nothing to terminate$/m);
  });

  test('reset, then signal at a terminal with a progress bar, then cancel: each by query', async () => {
    const ids = ['lim-1', 'lim-2', 'lim-3'];
    const firstRuns = [];
    for (const id of ids) firstRuns.push((await client.workflow.start('limiter', { taskQueue: 'bulk', workflowId: id })).firstExecutionRunId);
    for (const id of ids) assert.equal(await client.workflow.getHandle(id).executeUpdate('setLimit', { args: [9] }), 0);

    const reset = await cli('workflow', 'reset', '--query', "WorkflowType = 'limiter'", '--to', 'first', '--yes', '--json');
    assertExit(reset, 0, 'reset --query');
    assert.deepEqual(JSON.parse(reset.stdout), { total: 3, matched: 3, done: 3, skipped: 0, failed: 0, errors: [] });
    for (const [i, id] of ids.entries()) {
      const d = await client.workflow.getHandle(id).describe();
      assert.notEqual(d.runId, firstRuns[i]);
      assert.equal(d.status, 'Running');
    }

    const query = "WorkflowType = 'limiter' AND ExecutionStatus = 'Running'";
    const signalled = await atTerminal(['workflow', 'signal', '--query', query, 'go', '--address', server.address], 'y');
    assert.equal(signalled.code, 0, signalled.out);
    assert.ok(signalled.out.includes(`Signal 3 workflows matching "${query}"? [y/N]`), signalled.out);
    assert.match(signalled.out, /signal \[#{30}\] 3\/3/);
    assert.match(signalled.out, /^\s+3\s+3\s+0\s+0$/m);
    // The reset runs replayed from their first workflow task, and the update of 9 accepted after
    // that point was re-applied (as signals are, Temporal's default).
    for (const id of ids) assert.equal(await client.workflow.getHandle(id).result(), 9);

    for (const id of ['cancel-1', 'cancel-2']) await client.workflow.start('steps', { taskQueue: 'bulk', workflowId: id });
    const cancelled = await cli('workflow', 'cancel', '-q', "WorkflowId STARTS_WITH 'cancel-'", '-y', '--concurrency', '1');
    assertExit(cancelled, 0, 'cancel --query');
    assert.match(cancelled.stdout, /^\s+2\s+2\s+0\s+0$/m);
    for (const id of ['cancel-1', 'cancel-2']) {
      await assert.rejects(client.workflow.getHandle(id).result(), (err: Error & { status?: string }) => err.status === 'Canceled');
    }
  });

  test('statuses are in colour at a terminal only, and not under NO_COLOR', async () => {
    const ESC = '\u001b';
    const list = ['workflow', 'list', '--query', "WorkflowType = 'limiter' AND ExecutionStatus = 'Completed'", '--address', server.address];
    const coloured = await atTerminal(list, '');
    assert.equal(coloured.code, 0, coloured.out);
    assert.ok(coloured.out.includes(`${ESC}[32mCompleted${ESC}[0m`), coloured.out);
    const plain = await atTerminal(list, '', { NO_COLOR: '1' });
    assert.match(plain.out, /^lim-1\s+limiter\s+Completed\s+\S+/m);
    assert.ok(!plain.out.includes(ESC), plain.out);
    const piped = await cli(...list.slice(0, -2));
    assert.match(piped.stdout, /^lim-1\s+limiter\s+Completed\s+\S+/m);
    assert.ok(!piped.stdout.includes(ESC), piped.stdout);
  });

  test('bulk usage errors exit 2 before any call', async () => {
    const cases: [string[], RegExp][] = [
      [['workflow', 'terminate', 'idle-1', '--query', 'WorkflowType = \'steps\''], /^steadfast workflow terminate: give a workflow id or --query, not both$/],
      [['workflow', 'reset', '--query', 'WorkflowType = \'steps\'', '--yes'], /^steadfast workflow reset --query: give --type FirstWorkflowTask\|LastWorkflowTask$/],
      [['workflow', 'reset', '--query', 'WorkflowType = \'steps\'', '--event-id', '3', '--yes'], /^--event-id names an event of one run: with --query use --type FirstWorkflowTask\|LastWorkflowTask$/],
      [['workflow', 'signal', '--query', 'WorkflowType = \'steps\'', '--yes'], /^steadfast workflow signal --query: missing the signal <name>$/],
      [['workflow', 'cancel', '--query', 'WorkflowType = \'steps\'', '--yes', '--concurrency', '500'], /^--concurrency must be <= 100, got 500$/],
      [['workflow', 'cancel', '--query', 'GROUP BY ExecutionStatus', '--yes'], /^--query must not group \(GROUP BY\) in a bulk cancel$/],
    ];
    for (const [args, message] of cases) assertOneLine(await cli(...args), 2, message, args.join(' '));
  });
});
