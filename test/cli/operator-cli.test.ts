/**
 * What an operator sees: Temporal's command names, `-o`, describe of a closed run, delete, reset
 * by type, case-free enums, negative values, and every error path without a stack trace.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from '../../src/worker/index.ts';
import { BIN, freePort, spawnNode, startServerProcess, type Child } from '../helpers/processes.ts';
import { assertExit, assertOneLine, cliAt, CLI_WORKFLOWS, collect, inTwoLanes, type CliRun } from './cli-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'steadfast-operator-cli-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const bare = (...args: string[]) => collect(spawnNode([BIN, ...args]));

describe('steadfast against a real server and worker, as an operator uses it', { timeout: 300_000 }, () => {
  let server: Child & { address: string };
  let worker: Worker;
  let running: Promise<void>;
  let cli: (...args: string[]) => Promise<CliRun>;

  before(async () => {
    server = await startServerProcess(`sqlite:${join(dir, 'server.sqlite')}`, await freePort());
    cli = cliAt(server.address);
    worker = await Worker.create({ address: server.address, taskQueue: 'cli', workflowsPath: CLI_WORKFLOWS });
    running = worker.run();
  });
  after(async () => {
    worker.shutdown();
    await running;
    assert.equal(await server.kill('SIGTERM'), 0);
  });

  test('-i -1 is a value; describe of a closed run shows its result, or its failure once', async () => {
    const done = await cli('workflow', 'execute', 'greet', '-t', 'cli', '-w', 'neg-1', '-i', '-1', '-i', '2');
    assertExit(done, 0, 'execute with -i -1');
    assert.match(done.stdout, /hello -1 x2/);
    const d = await cli('workflow', 'describe', 'neg-1');
    assertExit(d, 0, 'describe');
    assert.match(d.stdout, /^ {2}result {5}"hello -1 x2"$/m);
    assertExit(await cli('workflow', 'execute', 'declines', '-t', 'cli', '-w', 'dec-1', '-i', '"o-7"'), 1, 'execute declines');
    const f = await cli('workflow', 'describe', 'dec-1');
    assertExit(f, 0, 'describe of a failed run');
    const line = /^ {2}failure {4}(.*)$/m.exec(f.stdout)?.[1];
    assert.ok(line, f.stdout);
    assert.equal(line.split('card declined for o-7').length, 2, `the message is said once: ${line}`);
    assert.match(line, /CardDeclined, non-retryable/);
    const json = JSON.parse((await cli('workflow', 'describe', 'neg-1', '-o', 'json')).stdout) as { result: unknown };
    assert.equal(json.result, 'hello -1 x2');
  });

  test('show is history; stack is the __stack_trace query; -o jsonl prints one value a line; --status ignores case', async () => {
    assertExit(await cli('workflow', 'start', 'steps', '-t', 'cli', '-w', 'stack-1'), 0, 'start steps');
    const show = await cli('workflow', 'show', 'stack-1', '-o', 'json');
    assertExit(show, 0, 'show');
    const history = await cli('workflow', 'history', 'stack-1', '--json');
    assert.deepEqual(JSON.parse(show.stdout).events[0].eventType, JSON.parse(history.stdout).events[0].eventType);
    const stack = await cli('workflow', 'stack', 'stack-1');
    assertExit(stack, 0, 'stack');
    assert.match(stack.stdout, /condition|steps/);
    const list = await cli('workflow', 'list', '--status', 'running', '-o', 'jsonl');
    assertExit(list, 0, 'list -o jsonl');
    const lines = list.stdout.trim().split('\n');
    assert.ok(lines.length >= 1);
    for (const l of lines) assert.equal((JSON.parse(l) as { status: string }).status, 'Running');
    assertOneLine(await cli('workflow', 'list', '--status', 'bogus'), 2, /^--status must be one of Running, Completed/, 'bad --status');
    assertOneLine(await cli('workflow', 'list', '-o', 'yaml'), 2, /^--output must be one of table, text, json, jsonl, got "yaml"$/, 'bad -o');
  });

  test('workflow delete terminates a running run, then deletes it with its history; a closed run is deleted as it is', async () => {
    assertExit(await cli('workflow', 'start', 'steps', '-t', 'cli', '-w', 'del-1'), 0, 'start');
    const del = await cli('workflow', 'delete', 'del-1');
    assertExit(del, 0, 'delete a running run');
    assertOneLine(await cli('workflow', 'describe', 'del-1'), 1, /not found|NotFound|no workflow/i, 'describe after delete');
    assertOneLine(await cli('workflow', 'show', 'del-1'), 1, /not found|NotFound|no workflow/i, 'history after delete');
    const count = await cli('workflow', 'count', '--query', "WorkflowId = 'del-1'");
    assert.equal(count.stdout.trim(), '0');
    assertExit(await cli('workflow', 'delete', 'neg-1'), 0, 'delete a closed run');
    assertOneLine(await cli('workflow', 'describe', 'neg-1'), 1, /not found|NotFound|no workflow/i, 'describe after delete');
    assertOneLine(await cli('workflow', 'delete', 'never-was'), 1, /^steadfast workflow: .*never-was/, 'delete of nothing');
  });

  test('reset --type LastWorkflowTask; --reapply-exclude Signal, Update or All picks what the new run gets again', async () => {
    const r = await cli('workflow', 'reset', 'stack-1', '--type', 'lastworkflowtask', '--reapply-exclude', 'all', '--json');
    assertExit(r, 0, 'reset --type');
    assert.ok((JSON.parse(r.stdout) as { runId: string }).runId);
    assertExit(await cli('workflow', 'signal', 'stack-1', 'nudge'), 0, 'signal');
    const signaled = (JSON.parse(r.stdout) as { runId: string }).runId;
    /** Whether a new run reset from the signaled run got the signal again. */
    const resignaled = async (...flags: string[]) => {
      const reset = await cli('workflow', 'reset', 'stack-1', '--run', signaled, '--type', 'FirstWorkflowTask', ...flags, '--json');
      assertExit(reset, 0, `reset ${flags.join(' ')}`);
      const { runId } = JSON.parse(reset.stdout) as { runId: string };
      const { events } = JSON.parse((await cli('workflow', 'show', 'stack-1', '--run', runId, '-o', 'json')).stdout) as { events: { eventType: string }[] };
      return events.some((e) => e.eventType === 'WorkflowExecutionSignaled');
    };
    assert.equal(await resignaled('--reapply-exclude', 'Update'), true, 'excluding updates keeps the signal');
    assert.equal(await resignaled('--reapply-exclude', 'Signal'), false, 'excluding signals leaves it out');
    assert.equal(await resignaled('--reapply-exclude', 'Signal,Update'), false);
    assert.equal(await resignaled('--reapply-exclude', 'update', '--reapply-exclude', 'signal'), false, 'the flag repeats');
    assert.equal(await resignaled(), true, 'both are re-applied by default');
    // The bulk form takes the flag too, here on the signaled run.
    assertExit(await cli('workflow', 'reset', '--query', `RunId = '${signaled}'`, '--type', 'FirstWorkflowTask',
      '--reapply-exclude', 'Signal', '--yes'), 0, 'bulk reset --reapply-exclude Signal');
    const current = JSON.parse((await cli('workflow', 'show', 'stack-1', '-o', 'json')).stdout) as { events: { eventType: string; attributes: { cause?: string } }[] };
    assert.ok(current.events.some((e) => e.eventType === 'WorkflowTaskFailed' && e.attributes.cause === 'ResetWorkflow'), 'the current run is the bulk reset\'s');
    assert.ok(!current.events.some((e) => e.eventType === 'WorkflowExecutionSignaled'), 'the bulk reset left the signal out');
    assertOneLine(await cli('workflow', 'reset', 'stack-1', '--type', 'LastWorkflowTask', '--reapply-exclude', 'Signals'), 2,
      /^--reapply-exclude must be one of All, Signal, Update, got "Signals"$/, 'bad --reapply-exclude');
    assertOneLine(await cli('workflow', 'reset', 'stack-1', '--type', 'Middle'), 2,
      /^--type must be one of FirstWorkflowTask, LastWorkflowTask, got "Middle"$/, 'bad --type');
    assertExit(await cli('workflow', 'terminate', 'stack-1'), 0, 'terminate');
  });

  test('operator namespace and operator search-attribute are the namespace and search-attribute groups; search-attribute remove', async () => {
    const ns = await cli('operator', 'namespace', 'list', '-o', 'json');
    assertExit(ns, 0, 'operator namespace list');
    assert.ok((JSON.parse(ns.stdout) as { name: string }[]).some((n) => n.name === 'default'));
    assertExit(await cli('operator', 'search-attribute', 'create', '--name', 'Region', '--type', 'keyword'), 0, 'create with a lower-case type');
    const sa = JSON.parse((await cli('operator', 'search-attribute', 'list', '--json')).stdout) as { custom: { name: string; type: string }[] };
    assert.deepEqual(sa.custom.find((a) => a.name === 'Region'), { name: 'Region', type: 'Keyword' });
    assertOneLine(await cli('search-attribute', 'remove', '--name', 'Nope'), 1, /^steadfast search-attribute: search attribute Nope is not registered in namespace default/, 'remove of nothing');
    assertExit(await cli('operator', 'search-attribute', 'remove', '--name', 'Region'), 0, 'remove');
    const after = JSON.parse((await cli('search-attribute', 'list', '--json')).stdout) as { custom: { name: string }[] };
    assert.equal(after.custom.some((a) => a.name === 'Region'), false);
  });

  test('no error path prints a stack trace: each fails in one line with a non-zero exit', async () => {
    const address = ['--address', server.address];
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const cases: string[][] = [
      ['frobnicate'],
      ['workflow', 'list', '--limt', '3', ...address],
      ['workflow', 'list', '--status', 'nope', ...address],
      ['workflow', 'start', 'greet', '-t', 'cli', '--execution-timeout', 'soon', ...address],
      ['workflow', 'start', 'greet', '-t', 'cli', '--input', '{bad', ...address],
      ['workflow', 'start', 'greet', ...address],
      ['workflow', 'list', '--address', nobody],
      ['schedule', 'list', '--address', nobody],
      ['namespace', 'list', '--address', nobody],
      ['workflow', 'frob', ...address],
      ['schedule', 'frob', ...address],
      ['schedule', 'create', 's-1', ...address],
      ['schedule', 'create', 's-1', '--type', 'greet', '--task-queue', 'cli', '--workflow-id', 'w', '--interval', 'often', ...address],
      ['namespace', 'frob', ...address],
      ['search-attribute', 'frob', ...address],
      ['search-attribute', 'create', '--name', 'X', '--type', 'Float', ...address],
      ['retry', 'frob'],
      ['retry', 'simulate', '--strategy', 'nope'],
      ['api-key', 'frob'],
      ['api-key', 'create'],
      ['operator', 'frob'],
      ['workflow', 'describe', 'no-such-workflow', ...address],
    ];
    await inTwoLanes(cases, async (args) => {
      const r = await bare(...args);
      const what = `steadfast ${args.join(' ')}`;
      assert.notEqual(r.code, 0, `${what} exited 0`);
      assert.doesNotMatch(r.stderr, /\n\s+at /, `${what} printed a stack:\n${r.stderr}`);
      assert.match(r.stderr, /^[^\n]+\n$/, `${what} printed more than one line on stderr:\n${r.stderr}`);
    });
  });
});

describe('steadfast without a server', { timeout: 120_000 }, () => {
  test('every group answers --help with its commands; a bad subcommand names the group', async () => {
    for (const [group, member] of [['retry', 'retry simulate'], ['api-key', 'api-key create'], ['operator', 'operator namespace']] as const) {
      const r = await bare(group, '--help');
      assertExit(r, 0, `${group} --help`);
      assert.match(r.stdout, new RegExp(`^ {2}${member} `, 'm'));
      assertOneLine(await bare(group, 'frob'), 2, new RegExp(`^steadfast ${group}: unknown command "frob" \\(run \`steadfast ${group} --help\``), `${group} frob`);
    }
    const ns = await bare('operator', 'namespace', '--help');
    assertExit(ns, 0, 'operator namespace --help');
    assert.match(ns.stdout, /^Usage: steadfast namespace/m);
  });

  test('an unknown flag names the nearest known one', async () => {
    assertOneLine(await bare('workflow', 'list', '--limt', '3'), 2, /^steadfast workflow: unknown flag --limt; did you mean --limit\? /, '--limt');
    assertOneLine(await bare('retry', 'simulate', '--coutn', '3'), 2, /^steadfast retry simulate: unknown flag --coutn; did you mean --count\? /, '--coutn');
    assertOneLine(await bare('workflow', 'list', '--zzzzzz'), 2, /^steadfast workflow: unknown flag --zzzzzz \(run/, 'no near flag');
  });

  test('a refused connection on loopback fails at once, naming the address', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const started = Date.now();
    const r = await bare('workflow', 'list', '--address', nobody);
    const took = Date.now() - started;
    assertOneLine(r, 1, new RegExp(`^steadfast workflow: no steadfast server at ${nobody.replace(/\./g, '\\.')}: connection refused`), 'refused');
    // The process's own start (compiling through tsx) is most of this; the retry window is 10 s.
    assert.ok(took < 8_000, `took ${took} ms`);
  });

  test('a closed stdout ends the command quietly', async () => {
    const child = spawnNode([BIN, 'workflow', '--help']);
    child.proc.stdout!.destroy();
    const r = await collect(child);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
  });
});
