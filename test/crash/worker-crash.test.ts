import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../src/client/index.ts';
import { freePort, spawnNode, startServerProcess } from '../helpers/processes.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('kill -9 of the worker mid-workflow: a new worker finishes it, completed activities are not run again', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-worker-crash-'));
  const log = join(dir, 'activities.log');
  const server = await startServerProcess(`sqlite:${join(dir, 'db.sqlite')}`, await freePort());
  const client = new Client({ address: server.address });
  const env = { STEADFAST_ADDRESS: server.address, TASK_QUEUE: 'crash', ACTIVITY_LOG: log };
  let second: ReturnType<typeof spawnNode> | undefined;
  try {
    const first = spawnNode(['--import', 'tsx', 'test/fixtures/crash/worker.ts'], { ...env, SLOW_MS: '60000' });
    await first.waitFor(/worker ready/);
    const handle = await client.workflow.start('twoSteps', { taskQueue: 'crash', workflowId: 'two-steps-1', args: [5] });
    // Wait until the second activity is running in the first worker, then kill it.
    for (let i = 0; i < 400 && !(existsSync(log) && readFileSync(log, 'utf8').includes('addOne')); i++) await sleep(25);
    assert.match(readFileSync(log, 'utf8'), /addOne 10 attempt 1/);
    await first.kill('SIGKILL');

    second = spawnNode(['--import', 'tsx', 'test/fixtures/crash/worker.ts'], env);
    await second.waitFor(/worker ready/);
    assert.equal(await handle.result(), 11);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    assert.deepEqual(lines.filter((l) => l.includes(' double ')), ['two-steps-1 double 5 attempt 1'], 'double ran exactly once');
    assert.deepEqual(lines.filter((l) => l.includes(' addOne ')), ['two-steps-1 addOne 10 attempt 1', 'two-steps-1 addOne 10 attempt 2']);
  } finally {
    client.close();
    await second?.kill('SIGKILL');
    await server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
