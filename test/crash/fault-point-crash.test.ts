import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type WorkflowHandle } from '../../src/client/index.ts';
import { BIN, freePort, spawnNode, startServerProcess, type Child } from '../helpers/processes.ts';
import { checkHistory } from './scenario.ts';

const WORKFLOWS = 6;

/**
 * Kills the server with SIGKILL at a named fault point (STEADFAST_FAULTS), at its `hit`-th pass,
 * while a worker drives workflows; restarts it on the same file, and checks that every started
 * workflow completes exactly once with an intact history.
 */
async function crashAt(point: string, hit: number, log: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-fault-crash-'));
  const database = `sqlite:${join(dir, 'db.sqlite')}`;
  const port = await freePort();
  const doomed = spawnNode([BIN, 'server', '--insecure', '--database', database, '--port', String(port)], { STEADFAST_FAULTS: `${point}=crash@${hit}` });
  let server: Child | undefined;
  let worker: Child | undefined;
  let client: Client | undefined;
  try {
    const address = (await doomed.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    client = new Client({ address });
    worker = spawnNode(['--import', 'tsx', 'test/fixtures/crash/worker.ts'], { STEADFAST_ADDRESS: address, TASK_QUEUE: 'crash' });
    await worker.waitFor(/worker ready/);
    // A start that finds the server dead is retried by the client with the same request id.
    const starting = Array.from({ length: WORKFLOWS }, (_, i) =>
      client!.workflow.start('timerThenActivity', { taskQueue: 'crash', workflowId: `fault-${i}`, args: [i] }));
    assert.equal(await doomed.exited, 'SIGKILL', `the server died at ${point}, hit ${hit}`);
    log(`server killed at ${point}, hit ${hit}`);
    server = await startServerProcess(database, port);
    await Promise.all(starting);
    for (let i = 0; i < WORKFLOWS; i++) {
      const handle = client.workflow.getHandle(`fault-${i}`) as WorkflowHandle;
      assert.equal(await handle.result(), i * 2);
      checkHistory(`fault-${i}`, (await handle.fetchHistory()).events);
    }
    const runs: string[] = [];
    for await (const e of client.workflow.list({ workflowIdPrefix: 'fault-' })) runs.push(`${e.workflowId} ${e.status}`);
    assert.deepEqual(runs.sort(), Array.from({ length: WORKFLOWS }, (_, i) => `fault-${i} Completed`).sort(), 'one run per workflow');
  } finally {
    client?.close();
    await worker?.kill('SIGKILL');
    await doomed.kill('SIGKILL');
    await server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

test('kill -9 inside the store\'s write transaction, before COMMIT: the transition is lost whole and redone', { timeout: 120_000 }, async (t) => {
  await crashAt('store.commit', 8, (l) => t.diagnostic(l));
});

test('kill -9 after a commit, before its tasks reach waiting polls: the tasks are dispatched from the store', { timeout: 120_000 }, async (t) => {
  await crashAt('engine.commit.after', 8, (l) => t.diagnostic(l));
});
