import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../src/client/index.ts';
import { freePort, spawnNode, startServerProcess } from '../helpers/processes.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('kill -9 of the worker during a local activity: a new worker runs it again, the history has one marker for it', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-local-crash-'));
  const log = join(dir, 'activities.log');
  const server = await startServerProcess(`sqlite:${join(dir, 'db.sqlite')}`, await freePort());
  const client = new Client({ address: server.address });
  const env = {
    STEADFAST_ADDRESS: server.address, TASK_QUEUE: 'local-crash', ACTIVITY_LOG: log,
    WORKFLOWS: 'test/fixtures/crash/local-workflows.ts', ACTIVITIES: 'test/fixtures/crash/local-activities.ts',
  };
  let second: ReturnType<typeof spawnNode> | undefined;
  try {
    const first = spawnNode(['--import', 'tsx', 'test/fixtures/crash/worker.ts'], { ...env, SLOW_MS: '120000' });
    await first.waitFor(/worker ready/);
    const handle = await client.workflow.start('localStep', { taskQueue: 'local-crash', workflowId: 'local-1', args: [7], workflowTaskTimeout: '2s' });
    for (let i = 0; i < 2000 && !(existsSync(log) && readFileSync(log, 'utf8').includes('logged')); i++) await sleep(25);
    assert.match(readFileSync(log, 'utf8'), /local-1 logged 7 local true/);
    await first.kill('SIGKILL');

    second = spawnNode(['--import', 'tsx', 'test/fixtures/crash/worker.ts'], env);
    await second.waitFor(/worker ready/);
    assert.equal(await handle.result(), 8);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    assert.equal(lines.length, 2, 'run by the killed worker, then again by the new one');
    assert.notEqual(lines[0]!.split(' pid ')[1], lines[1]!.split(' pid ')[1]);
    const { events } = await handle.fetchHistory();
    const markers = events.filter((e) => e.eventType === 'MarkerRecorded' && e.attributes.markerName === 'core_local_activity');
    assert.equal(markers.length, 1);
  } finally {
    client.close();
    await second?.kill('SIGKILL');
    await server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
