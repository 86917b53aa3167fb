import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from '../../src/worker/index.ts';
import { Client } from '../../src/client/index.ts';
import { BIN, freePort, spawnNode, startServerProcess, type Child } from '../helpers/processes.ts';
import { assertExit, assertOneLine, cliAt, CLI_WORKFLOWS, collect, inTwoLanes, type CliRun } from './cli-helpers.ts';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '../helpers/logger.ts';

const TASK_FAILURES = fileURLToPath(new URL('../fixtures/workflows/task-failures.ts', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'steadfast-workflow-cli-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

describe('steadfast workflow against a real server and worker', { timeout: 240_000 }, () => {
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

  test('every start flag reaches the run: input, ids, the three timeouts, the retry policy, memo and search attributes', async () => {
    assertExit(await cli('search-attribute', 'create', '--name', 'CustomerId', '--type', 'Keyword'), 0, 'search-attribute create');
    assertExit(await cli('search-attribute', 'create', '--name', 'Priority', '--type', 'Int'), 0, 'search-attribute create');
    const inputFile = join(dir, 'name.json');
    writeFileSync(inputFile, '"grace"');
    const r = await cli('workflow', 'execute', 'greet', '--task-queue', 'cli', '--workflow-id', 'flags-1', '--input-file', inputFile, '--input-file', inputFile,
      '--execution-timeout', '1h30m', '--run-timeout', '1.5h', '--task-timeout', '5s',
      '--retry-initial-interval', '2s', '--retry-backoff-coefficient', '3', '--retry-maximum-interval', '1m', '--retry-maximum-attempts', '4',
      '--retry-non-retryable-error-types', 'CardDeclined, Fraud', '--id-reuse-policy', 'WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE',
      '--memo', 'customer="c-9"', '--memo', 'tags=["a",1]', '--search-attribute', 'CustomerId="c-9"', '--search-attribute', 'Priority=2', '--json');
    assertExit(r, 0, 'workflow execute with every flag');
    // Two --input-file arguments: greet(name, times) gets the string twice; times prints as given.
    assert.deepEqual(JSON.parse(r.stdout), { workflowId: 'flags-1', runId: JSON.parse(r.stdout).runId, status: 'Completed', result: 'hello grace xgrace' });

    const d = JSON.parse((await cli('workflow', 'describe', 'flags-1', '--json')).stdout) as {
      status: string; memo: unknown; searchAttributes: unknown;
      raw: { config: Record<string, unknown> };
    };
    assert.equal(d.status, 'Completed');
    assert.deepEqual(d.memo, { customer: 'c-9', tags: ['a', 1] });
    assert.deepEqual(d.searchAttributes, { CustomerId: 'c-9', Priority: 2 });
    assert.equal(d.raw.config.workflowExecutionTimeoutMs, 5_400_000);
    assert.equal(d.raw.config.workflowRunTimeoutMs, 5_400_000);
    assert.equal(d.raw.config.workflowTaskTimeoutMs, 5_000);
    assert.deepEqual(d.raw.config.retryPolicy, {
      initialIntervalMs: 2_000, backoffCoefficient: 3, maximumIntervalMs: 60_000, maximumAttempts: 4, nonRetryableErrorTypes: ['CardDeclined', 'Fraud'],
    });
    const text = (await cli('workflow', 'describe', 'flags-1')).stdout;
    assert.match(text, /^ {2}timeouts {3}execution 1h 30m, run 1h 30m, task 5s$/m);
    assert.match(text, /^ {2}retry {6}initial 2s, coefficient 3, maximum 1m, at most 4 attempts, non-retryable CardDeclined, Fraud$/m);
    assert.match(text, /^ {2}search attributes \{"CustomerId":"c-9","Priority":2\}$/m);

    // The reuse policy reached the server: the same id is refused under it, also in Temporal's short spelling.
    const again = await cli('workflow', 'start', 'greet', '--task-queue', 'cli', '--id', 'flags-1', '--id-reuse-policy', 'REJECT_DUPLICATE', '--input', '"x"', '--input', '1');
    assertOneLine(again, 1, /^steadfast workflow: workflow flags-1 already ran \(run [0-9a-f-]+, Completed\) and workflowIdReusePolicy is RejectDuplicate$/, 'start again');
    const list = JSON.parse((await cli('workflow', 'list', '--query', "CustomerId = 'c-9' AND Priority = 2", '--json')).stdout) as { workflowId: string }[];
    assert.deepEqual(list.map((e) => e.workflowId), ['flags-1']);
  });

  test('execute prints the result and exits 0; a failed workflow exits 1 printing its failure', async () => {
    // Temporal's short flags: -t task queue, -w workflow id, -i input, -r run id.
    const ok = await cli('workflow', 'execute', 'greet', '-t', 'cli', '-w', 'short-1', '-i', '"ada"', '-i', '2');
    assertExit(ok, 0, 'execute greet');
    assert.match(ok.stdout, /^completed short-1: "hello ada x2"$/m);
    const runId = (await cli('workflow', 'describe', '-w', 'short-1', '--json')).stdout.match(/"runId": "([0-9a-f-]+)"/)![1]!;
    const described = await cli('workflow', 'describe', '-w', 'short-1', '-r', runId);
    assert.match(described.stdout, new RegExp(`^Workflow short-1  \\(greet, run ${runId}\\)$`, 'm'));
    const failed = await cli('workflow', 'execute', 'declines', '--task-queue', 'cli', '--workflow-id', 'declined-1', '--input', '"o-9"');
    assertOneLine(failed, 1,
      /^steadfast workflow execute: workflow declined-1 Failed \(run [0-9a-f-]+\): card declined for o-9 \(CardDeclined, non-retryable\)$/, 'execute declines');
    const json = await cli('workflow', 'execute', 'declines', '--task-queue', 'cli', '--input', '"o-10"', '--json');
    assertExit(json, 1, 'execute declines --json');
    const out = JSON.parse(json.stdout) as { status: string; failure: { type: string; message: string; nonRetryable: boolean } };
    assert.equal(out.status, 'Failed');
    assert.deepEqual([out.failure.type, out.failure.message, out.failure.nonRetryable], ['CardDeclined', 'card declined for o-10', true]);
    const result = await cli('workflow', 'result', 'declined-1');
    assertOneLine(result, 1, /^steadfast workflow result: workflow declined-1 Failed .*card declined for o-9/, 'result of a failed workflow');
  });

  test('update prints the handler\'s result; a rejected update exits 1; signal and result end the run', async () => {
    assertExit(await cli('workflow', 'start', 'limiter', '--task-queue', 'cli', '--workflow-id', 'limits-1'), 0, 'start limiter');
    const first = await cli('workflow', 'update', 'limits-1', 'setLimit', '--input', '5');
    assertExit(first, 0, 'update');
    assert.equal(first.stdout.trim(), '0');
    const second = await cli('workflow', 'update', '--workflow-id', 'limits-1', 'setLimit', '--input', '7', '--json');
    assert.deepEqual(JSON.parse(second.stdout), { result: 5 });
    const rejected = await cli('workflow', 'update', 'limits-1', 'setLimit', '--input', '-1');
    assertOneLine(rejected, 1, /^steadfast workflow: .*limit must be >= 0, got -1/, 'rejected update');
    assertExit(await cli('workflow', 'signal', 'limits-1', '--name', 'go'), 0, 'signal');
    const result = await cli('workflow', 'result', 'limits-1');
    assertExit(result, 0, 'result');
    assert.equal(result.stdout.trim(), '7');
  });

  test('history --follow prints the events of a running workflow as they come, until it completes', async () => {
    assertExit(await cli('workflow', 'start', 'steps', '--task-queue', 'cli', '--workflow-id', 'follow-1'), 0, 'start steps');
    const follow = spawnNode([BIN, 'workflow', 'history', 'follow-1', '--follow', '--address', server.address]);
    const followed = collect(follow);
    const json = collect(spawnNode([BIN, 'workflow', 'history', 'follow-1', '-f', '--json', '--address', server.address]));
    // The run waits for `go` until the follower has printed what exists so far.
    await follow.waitFor(/WorkflowTaskCompleted/);
    assert.doesNotMatch(follow.output(), /TimerStarted/);
    assertExit(await cli('workflow', 'signal', 'follow-1', 'go'), 0, 'signal go');
    const r = await followed;
    assertExit(r, 0, 'history --follow');
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^\s+ID\s+TIME\s+TYPE\s+DETAILS$/);
    const types = lines.slice(1).map((l) => l.trim().split(/\s+/)[2]);
    assert.equal(types[0], 'WorkflowExecutionStarted');
    assert.equal(types.at(-1), 'WorkflowExecutionCompleted');
    assert.equal(types.filter((t) => t === 'TimerFired').length, 2);
    assert.ok(types.indexOf('WorkflowExecutionSignaled') < types.indexOf('TimerStarted'), types.join(' '));
    const ids = lines.slice(1).map((l) => Number(l.trim().split(/\s+/)[0]));
    assert.deepEqual(ids, ids.map((_, i) => i + 1), 'every event once, in order');
    const events = (await json).stdout.trim().split('\n').map((l) => JSON.parse(l) as { eventId: number; eventType: string });
    assert.deepEqual(events.map((e) => e.eventType), types);
    const whole = JSON.parse((await cli('workflow', 'history', 'follow-1', '--json')).stdout) as { workflowId: string; runId: string; events: unknown[] };
    assert.equal(whole.events.length, events.length);
    // The ids a Replayer needs, which the events do not carry.
    assert.equal(whole.workflowId, 'follow-1');
    const client = new Client({ address: server.address });
    assert.equal(whole.runId, (await client.workflow.getHandle('follow-1').describe()).runId);
    client.close();
  });

  test('bad start values exit 2 in one line naming the flag and the rule, before any request', async () => {
    const start = ['workflow', 'start', 'greet', '--task-queue', 'cli', '--workflow-id', 'never-started'];
    const cases: [string[], RegExp][] = [
      [['--retry-backoff-coefficient', '0.5'], /^--retry-backoff-coefficient must be >= 1, got "0\.5"$/],
      [['--retry-backoff-coefficient', 'steep'], /^--retry-backoff-coefficient must be a number, got "steep"$/],
      [['--retry-maximum-attempts', '-1'], /^--retry-maximum-attempts must be >= 0, got -1$/],
      [['--retry-initial-interval', '2s', '--retry-maximum-interval', '1s'], /^--retry-maximum-interval must be >= --retry-initial-interval \(2000ms\), got "1s"$/],
      [['--retry-non-retryable-error-types', 'A,,B'], /^--retry-non-retryable-error-types must be a comma-separated list of error types, got "A,,B"$/],
      [['--execution-timeout', 'soon'], /^--execution-timeout must be a duration such as 90s, 1h30m, 1\.5h or 2 days, got "soon"$/],
      [['--run-timeout', '0s'], /^--run-timeout must be greater than 0, got "0s"$/],
      [['--task-timeout', '200y'], /^--task-timeout must be at most 100 years/],
      [['--id-reuse-policy', 'Sometimes'], /^--id-reuse-policy must be one of AllowDuplicate, AllowDuplicateFailedOnly, RejectDuplicate, TerminateIfRunning/],
      [['--memo', 'customer'], /^--memo must be key=<json value>, e\.g\. customer='"c-9"', got "customer"$/],
      [['--memo', 'a=1', '--memo', 'a=2'], /^--memo must give each key once, got "a" twice$/],
      [['--memo', 'customer={'], /^--memo customer must be JSON/],
      [['--search-attribute', 'CustomerId={"a":1}'], /^--search-attribute CustomerId must be a JSON string, number, boolean or array of strings, got \{"a":1\}$/],
      [['--search-attribute', 'Unknown=1'], /^--search-attribute Unknown is not a registered search attribute of this namespace, got 1$/],
      [['--input', '{'], /^--input must be JSON, e\.g\./],
      [['--input', '1', '--args', '[1]'], /^use --input\/--input-file \(one JSON value each\) or --args\/--args-file \(one JSON array\), not both$/],
      [['--input-file', join(dir, 'missing.json')], /^--input-file cannot be read: ENOENT/],
      [['--id', 'other'], /^use one of --workflow-id or --id$/],
      [['--cron', '@sometimes'], /^--cron "@sometimes" is not a valid cron spec/],
    ];
    await inTwoLanes(cases, async ([flags, message]) => {
      assertOneLine(await cli(...start, ...flags), 2, message, flags.join(' '));
    });
    assertOneLine(await cli('workflow', 'start', 'greet'), 2, /^--task-queue is required/, 'start without --task-queue');
    assertOneLine(await cli('workflow', 'execute', '--task-queue', 'cli'), 2, /^steadfast workflow execute: missing <type>/, 'execute without a type');
    assertOneLine(await cli('workflow', 'describe', 'never-started'), 1, /never-started/, 'nothing was started');
  });

  test('update and result say why they wait on a run whose workflow task keeps failing, and give up at --command-timeout', async () => {
    const failing = await Worker.create({
      address: server.address, taskQueue: 'cli-failing', workflowsPath: TASK_FAILURES, logger: silentLogger,
    });
    const runningToo = failing.run();
    try {
      assertExit(await cli('workflow', 'start', 'breaksOnUpdate', '--task-queue', 'cli-failing', '--workflow-id', 'stuck-1'), 0, 'start');
      const update = await cli('workflow', 'update', 'stuck-1', 'breakIt', '--command-timeout', '4s');
      assertExit(update, 1, 'update past its --command-timeout');
      const lines = update.stderr.trimEnd().split('\n');
      assert.match(lines[0]!, /^steadfast workflow update: update "breakIt" \(.*\) of workflow stuck-1 is still waiting: the run's workflow task is failing: attempt \d+, WorkflowError \(TypeError\): the update handler broke; see describe/);
      assert.match(lines.at(-1)!, /^steadfast workflow: update "breakIt" .* was accepted but did not complete before the call's deadline: the run's workflow task is failing: attempt \d+, WorkflowError/);
      const result = await cli('workflow', 'result', 'stuck-1', '--command-timeout', '2s');
      assertExit(result, 1, 'result past its --command-timeout');
      assert.match(result.stderr, /^steadfast workflow result: result\(\) of workflow stuck-1 is still waiting: the run's workflow task is failing: attempt \d+, WorkflowError/m);
      assert.match(result.stderr.trimEnd().split('\n').at(-1)!,
        /^steadfast workflow result: workflow stuck-1 did not close within --command-timeout 2000 ms: the run's workflow task is failing: attempt \d+, WorkflowError \(TypeError\): the update handler broke/);
      assertOneLine(await cli('workflow', 'result', 'stuck-1', '--command-timeout', 'soon'), 2, /^--command-timeout must be a duration such as 30s or 5m, got "soon"$/, 'a bad --command-timeout');
      assertExit(await cli('workflow', 'terminate', 'stuck-1'), 0, 'terminate');
    } finally {
      failing.shutdown();
      await runningToo;
    }
  });
});
