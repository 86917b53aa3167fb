import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, freePort, spawnNode, startServerProcess } from '../helpers/processes.ts';

async function cli(args: string[]): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const child = spawnNode([BIN, 'schedule', ...args]);
  let stdout = '';
  let stderr = '';
  child.proc.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return { code: await child.exited, stdout, stderr };
}

test('steadfast schedule: create with spec and policy flags, describe (table and --json), list, pause, trigger, backfill, delete', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-sched-cli-'));
  const server = await startServerProcess(`sqlite:${join(dir, 'db.sqlite')}`, await freePort());
  try {
    const at = ['--address', server.address];
    let r = await cli(['create', 'nightly', ...at, '--type', 'report', '--task-queue', 'q', '--workflow-id', 'report',
      '--interval', '6h/5h', '--cron', '0 12 * * Mon-Fri', '--calendar', '{"hour":"3","dayOfMonth":"1"}', '--overlap', 'BufferAll',
      '--catchup-window', '10m', '--pause-on-failure']);
    assert.equal(r.code, 0, r.stderr);
    r = await cli(['describe', 'nightly', ...at, '--json']);
    const d = JSON.parse(r.stdout);
    assert.deepEqual(d.spec.intervals, [{ every: '6h', offset: '5h' }]);
    assert.equal(d.spec.calendars.length, 2);
    assert.deepEqual(d.policies, { overlap: 'BufferAll', catchupWindowMs: 600_000, pauseOnFailure: true });
    assert.equal(d.info.nextActionTimes.length, 10);
    assert.deepEqual(d.cronExpressions, ['0 12 * * Mon-Fri']);
    // In words: the cron string as written, the other calendar and the interval; durations as durations; no empty tables.
    r = await cli(['describe', 'nightly', ...at]);
    assert.match(r.stdout, /^ {2}cron '0 12 \* \* Mon-Fri'$/m);
    assert.match(r.stdout, /^ {2}at 03:00 on day 1 of the month$/m);
    assert.match(r.stdout, /^ {2}every 6h offset by 5h$/m);
    assert.match(r.stdout, /catchup window 10m, pause on failure yes/);
    assert.doesNotMatch(r.stdout, /Recent actions:|Incidents:/);
    r = await cli(['toggle', 'nightly', ...at]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^steadfast schedule toggle: give one of --pause or --unpause$/m);
    r = await cli(['toggle', 'nightly', ...at, '--pause', '--reason', 'checking']);
    assert.equal(r.code, 0, r.stderr);
    assert.match((await cli(['describe', 'nightly', ...at])).stdout, /^Schedule nightly: PAUSED \(checking\)/);
    r = await cli(['toggle', 'nightly', ...at, '--unpause']);
    assert.equal(r.code, 0, r.stderr);
    assert.match((await cli(['describe', 'nightly', ...at])).stdout, /^Schedule nightly: active/);
    r = await cli(['pause', 'nightly', ...at, '--note', 'migrating']);
    assert.equal(r.code, 0, r.stderr);
    r = await cli(['trigger', 'nightly', ...at]);
    assert.equal(r.code, 0, r.stderr);
    r = await cli(['backfill', 'nightly', ...at, '--start', '2020-01-01T00:00:00Z', '--end', '2020-01-01T12:00:00Z', '--overlap', 'AllowAll']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /backfill \[/, 'no progress bar when stderr is not a terminal');
    r = await cli(['describe', 'nightly', ...at]);
    assert.match(r.stdout, /^Schedule nightly: PAUSED \(migrating\)/);
    assert.match(r.stdout, /SCHEDULED\s+TAKEN\s+WORKFLOW ID\s+STATUS/);
    r = await cli(['list', ...at]);
    assert.match(r.stdout, /nightly\s+report\s+paused/);
    r = await cli(['update', 'nightly', ...at, '--overlap', 'Skip']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse((await cli(['describe', 'nightly', ...at, '--json'])).stdout).policies.overlap, 'Skip');
    r = await cli(['create', 'bad', ...at, '--type', 'report', '--task-queue', 'q', '--workflow-id', 'r', '--interval', '6h/7h']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /spec.intervals\[0\].offset must be less than every \(6h\)/);
    r = await cli(['delete', 'nightly', ...at]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse((await cli(['list', ...at, '--json'])).stdout).length, 0);
  } finally {
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
