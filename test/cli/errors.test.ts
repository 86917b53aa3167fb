import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, freePort, spawnNode, startServerProcess } from '../helpers/processes.ts';
import { PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

/** Runs the real `steadfast` binary; stdout and stderr apart. */
async function cli(args: string[]): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const child = spawnNode([BIN, ...args]);
  let stdout = '';
  let stderr = '';
  child.proc.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await child.exited;
  return { code, stdout, stderr };
}

/** A failure must be exactly one line on stderr, matching `message`, with the exit code given. */
async function expectOneLine(args: string[], code: 1 | 2, message: RegExp): Promise<void> {
  const r = await cli(args);
  const what = `steadfast ${args.join(' ')}`;
  assert.equal(r.code, code, `${what} exited ${r.code}: ${r.stderr}`);
  assert.match(r.stderr, /^[^\n]+\n$/, `${what} printed more than one line on stderr:\n${r.stderr}`);
  assert.match(r.stderr, message, what);
}

/**
 * Runs the cases two at a time: each is a Node process compiling the CLI through tsx, and the
 * machine's two cores are shared with the other test files.
 */
async function expectAll(cases: [string[], 1 | 2, RegExp][]): Promise<void> {
  const queue = [...cases];
  const lane = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) await expectOneLine(...c);
  };
  await Promise.all([lane(), lane()]);
}

const dir = mkdtempSync(join(tmpdir(), 'steadfast-cli-errors-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

test('workflow commands against one running server: bad flags exit 2, failed operations exit 1, each in one line', { timeout: 120_000 }, async () => {
  const server = await startServerProcess(`sqlite:${join(dir, 'server.sqlite')}`, await freePort());
  try {
    const address = ['--address', server.address];
    const notArray = join(dir, 'not-array.json');
    writeFileSync(notArray, '{"a":1}');
    const cases: [string[], 1 | 2, RegExp][] = [
      [['workflow', 'list', '--limit', '-1', ...address], 2, /^--limit must be >= 1, got -1$/m],
      [['workflow', 'list', '--limit', '0', ...address], 2, /^--limit must be >= 1, got 0$/m],
      [['workflow', 'reset', 'wf-1', '--event-id', '-3', ...address], 2, /^--event-id must be >= 1, got -3$/m],
      [['workflow', 'reset', 'wf-1', '--event-id', 'abc', ...address], 2, /^--event-id must be an integer, got "abc"$/m],
      [['workflow', 'reset', 'wf-1', '--event-id', '3', '--to', 'last', ...address], 2, /^use one of --event-id or --to$/m],
      [['workflow', 'start', 'greet', '--task-queue', 'q', '--args', '["a"]', '--args-file', notArray, ...address], 2,
        /^use one of --args or --args-file$/m],
      [['workflow', 'start', 'greet', '--task-queue', 'q', '--args-file', join(dir, 'missing.json'), ...address], 2,
        /^--args-file cannot be read: ENOENT: no such file or directory/m],
      [['workflow', 'start', 'greet', '--task-queue', 'q', '--args-file', notArray, ...address], 2,
        /^--args-file .*not-array\.json must hold a JSON array/m],
      [['workflow', 'signal', 'wf-1', 'go', '--args', '{', ...address], 2, /^--args must hold a JSON array, e\.g\./m],
      [['workflow', 'start', 'greet', '--task-queue', 'q', '--cron', '0 25 * * *', ...address], 2,
        /^--cron "0 25 \* \* \*" is not a valid cron spec: at column 3 expected an hour 0-23, got "25"$/m],
      [['workflow', 'list', '--status', 'Sleeping', ...address], 2, /^--status must be one of Running, /m],
      [['workflow', 'describe', ...address], 2, /^steadfast workflow describe: missing <workflowId>/m],
      [['workflow', 'list', '--bogus', ...address], 2, /^steadfast workflow: unknown flag --bogus/m],
      [['workflow', 'describe', 'no-such-workflow', ...address], 1, /^steadfast workflow: .*no-such-workflow/m],
    ];
    await expectAll(cases);
    // The server saw no start: every refusal above came before a request.
    const list = await cli(['workflow', 'list', '--json', ...address]);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(JSON.parse(list.stdout), []);
    // A good --cron starts a cron job: its first run waits for the fire time, describe shows the spec.
    const started = await cli(['workflow', 'start', 'greet', '--task-queue', 'q', '--id', 'cron-cli', '--cron', '@daily', ...address]);
    assert.equal(started.code, 0, started.stderr);
    const described = await cli(['workflow', 'describe', 'cron-cli', ...address]);
    assert.match(described.stdout, /^ {2}cron {7}@daily \(this run scheduled for \d{4}-\d\d-\d\dT00:00:00\.000Z\)$/m);
  } finally {
    assert.equal(await server.kill('SIGTERM'), 0);
  }
});

test('failures without a server are one line too: unreachable server, bad port, unknown command, missing --database', { timeout: 60_000 }, async () => {
  const nobody = `http://127.0.0.1:${await freePort()}`;
  const cases: [string[], 1 | 2, RegExp][] = [
    [['workflow', 'list', '--address', nobody, '--retry-for', '300ms'], 1, /^steadfast workflow: listWorkflowExecutions: the steadfast server at http:\/\/127\.0\.0\.1:\d+ was unavailable for [\d.]+s over \d+ attempts: connect ECONNREFUSED .*\(is a server running there\? `steadfast dev` starts one/m],
    [['server', '--port', '-1', '--database', `sqlite:${join(dir, 'x.sqlite')}`], 2, /^--port must be an integer from 0 to 65535, got -1$/m],
    [['dev', '--port', '-1', '--db', join(dir, 'dev.sqlite')], 2, /^--port must be an integer from 0 to 65535, got -1$/m],
    [['dev', '--port', 'abc', '--db', join(dir, 'dev.sqlite')], 2, /^--port must be an integer from 0 to 65535, got "abc"$/m],
    [['server'], 2, /^steadfast server: --database is required/m],
    [['server', '--database', `sqlite:${join(dir, 'open.sqlite')}`], 2, /^steadfast server: authentication is on by default and no credentials are configured: give --api-keys keys\.json .* or run open with --insecure$/m],
    [['server', '--insecure', '--api-keys', 'k.json', '--database', 'sqlite:x'], 2, /^steadfast server: --insecure cannot be combined with --api-keys/m],
    [['server', '--api-keys', join(dir, 'missing.json'), '--database', 'sqlite:x'], 2, /^apiKeys must be a readable JSON key file \(ENOENT/m],
    [['server', '--insecure', '--database', 'mysql://db'], 2, /^database must be sqlite:PATH or postgres:\/\/\.\.\., got "mysql:\/\/db"$/m],
    [['workflow', 'list', '--retry-for', 'soon'], 2, /^--retry-for must be a duration such as 500ms, 10s or 2m, got "soon"$/m],
    [['frobnicate'], 2, /^steadfast: unknown command "frobnicate"/m],
    [['retry', 'simulate', '--count', '-1'], 2, /^steadfast retry simulate: --count must be >= 0, got -1/m],
  ];
  await expectAll(cases);
});

test('steadfast server names an unreachable or missing PostgreSQL database in one line and exits 1', { timeout: 60_000 }, async (t) => {
  const skip = await pgSkipReason('the PostgreSQL CLI errors');
  if (skip) return t.skip(skip); // PostgreSQL unreachable on a newcomer's machine; CI=true fails instead
  const missing = new URL(PG_URL);
  missing.pathname = `/steadfast_missing_${process.pid}`;
  const port = String(await freePort());
  await Promise.all([
    expectOneLine(['server', '--insecure', '--database', missing.toString(), '--port', port], 1,
      /^steadfast server: cannot open the database postgres:\/\/.*: database "steadfast_missing_\d+" does not exist$/m),
    expectOneLine(['server', '--insecure', '--database', `postgres://postgres@127.0.0.1:${await freePort()}/test`, '--port', port], 1,
      /^steadfast server: cannot open the database postgres:\/\/postgres@127\.0\.0\.1:\d+\/test: connect ECONNREFUSED/m),
  ]);
});
