/**
 * `--static-summary` and `--static-details` (Temporal CLI's flags) on `workflow start`, shown by
 * `workflow describe` and as the SUMMARY column of `workflow list`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TestEnvironment } from '../../src/testing/index.ts';
import { startOptionsFromFlags } from '../../src/cli/workflow-start-flags.ts';
import { UsageError } from '../../src/cli/args.ts';
import { assertExit, assertOneLine, cliAt, type CliRun } from './cli-helpers.ts';

let env: TestEnvironment;
let cli: (...args: string[]) => Promise<CliRun>;

before(async () => {
  env = await TestEnvironment.createLocal();
  cli = cliAt(env.address);
});
after(() => env.teardown());

test('the flags become staticSummary and staticDetails; a bad value names the flag', () => {
  const options = startOptionsFromFlags({ 'task-queue': 'q', 'static-summary': 'Order for Ada', 'static-details': 'Line one\nLine two' });
  assert.equal(options.staticSummary, 'Order for Ada');
  assert.equal(options.staticDetails, 'Line one\nLine two');
  assert.throws(() => startOptionsFromFlags({ 'task-queue': 'q', 'static-summary': 'x'.repeat(401) }),
    (err: unknown) => err instanceof UsageError && /--static-summary must be at most 400 characters/.test(err.message));
});

test('workflow start --static-summary/--static-details; describe prints them, list shows the summary', async () => {
  assertExit(await cli('workflow', 'start', 'orderWithMetadata', '--task-queue', 'cli-meta', '--workflow-id', 'cli-meta-1', '--input', '"Ada"',
    '--static-summary', 'Order for Ada', '--static-details', 'Line one\nLine **two**'), 0, 'workflow start with metadata');
  assertExit(await cli('workflow', 'start', 'orderWithMetadata', '--task-queue', 'cli-meta', '--workflow-id', 'cli-meta-2', '--input', '"Bo"'),
    0, 'workflow start without metadata');

  const d = await cli('workflow', 'describe', 'cli-meta-1');
  assertExit(d, 0, 'workflow describe');
  assert.match(d.stdout, /^ {2}summary {4}Order for Ada$/m);
  assert.match(d.stdout, /^ {2}details {4}Line one\n {13}Line \*\*two\*\*$/m);
  const plain = await cli('workflow', 'describe', 'cli-meta-2');
  assert.doesNotMatch(plain.stdout, /summary|details/, 'a run without metadata prints neither line');
  const json = JSON.parse((await cli('workflow', 'describe', 'cli-meta-1', '--json')).stdout) as { raw: { execution: { userMetadata: unknown } } };
  assert.deepEqual(json.raw.execution.userMetadata, { summary: 'Order for Ada', details: 'Line one\nLine **two**' });

  const list = await cli('workflow', 'list', '--query', "TaskQueue = 'cli-meta'");
  assertExit(list, 0, 'workflow list');
  const [header, ...rows] = list.stdout.trimEnd().split('\n');
  assert.match(header!, /RUN ID\s+SUMMARY$/);
  assert.match(rows.find((r) => r.startsWith('cli-meta-1'))!, /Order for Ada$/);
  assert.doesNotMatch(rows.find((r) => r.startsWith('cli-meta-2'))!, /Order/);

  assertOneLine(await cli('workflow', 'start', 'orderWithMetadata', '--task-queue', 'cli-meta', '--static-summary', 'x'.repeat(401)),
    2, /--static-summary must be at most 400 characters/, 'a summary over the limit');
});
