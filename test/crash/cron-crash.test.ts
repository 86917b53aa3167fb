import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../../src/client/index.ts';
import { Worker } from '../../src/worker/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { freePort, spawnNode, startServerProcess } from '../helpers/processes.ts';

/*
 * kill -9 of a SQLite server at the instant a cron run closes, before or after the transition
 * that closes it and creates the next run is committed: the chain loses no run and starts none
 * twice. The worker runs in this process and rides through the restart.
 */

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/cron.ts', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const crashAt of ['before', 'after'] as const) {
  test(`kill -9 ${crashAt} the commit that closes a cron run: no run lost, none started twice`, { timeout: 120_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'steadfast-cron-crash-'));
    const database = `sqlite:${join(dir, 'cron.sqlite')}`;
    const port = await freePort();
    const crashing = spawnNode(['--import', 'tsx', 'test/fixtures/cron-crash/server.ts'],
      { DATABASE: database, PORT: String(port), CRASH_AT: crashAt, CRASH_ON_CLOSE: '2' });
    const m = await crashing.waitFor(/listening on (http:\/\/\S+)/);
    const address = m[1]!;
    const client = new Client({ address });
    // The worker's complaints about the vanished server are expected; they go to the test's diagnostics.
    const note = (message: string) => t.diagnostic(`worker: ${message}`);
    const logger = { debug: () => {}, info: () => {}, warn: note, error: note };
    const worker = await Worker.create({ address, taskQueue: 'cron-crash', workflowsPath, logger });
    const running = worker.run();
    let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
    try {
      await client.workflow.start('cronCounter', {
        taskQueue: 'cron-crash', workflowId: 'cron-crash', cronSchedule: '@every 1s', workflowTaskTimeout: '1s',
      });
      assert.equal(await crashing.exited, 'SIGKILL');
      t.diagnostic(`server killed ${crashAt} committing the close of run 2`);
      server = await startServerProcess(database, port);
      // Wait (real time: the server's clock is the system's) until the chain has gone well past the crash.
      let runs: HistoryEvent[][] = [];
      for (let i = 0; i < 300; i++) {
        runs = await chain(client);
        if (runs.length >= 6) break;
        await sleep(100);
      }
      await client.workflow.getHandle('cron-crash').terminate('enough');
      runs = await chain(client);
      assert.ok(runs.length >= 6, `the chain went on after the restart (${runs.length} runs)`);

      const closes = runs.map((events) => events.at(-1)!);
      const open = closes.filter((e) => e.eventType !== 'WorkflowExecutionContinuedAsNew');
      assert.equal(open.length, 1, 'one run ends the chain (the terminated one)');
      assert.equal(open[0]!.eventType, 'WorkflowExecutionTerminated');
      const results = closes.flatMap((e) => (e.eventType === 'WorkflowExecutionContinuedAsNew' ? [e.attributes.lastCompletionResult] : []));
      assert.deepEqual([...results].sort((a, b) => Number(a) - Number(b)), results.map((_, i) => i + 1),
        'each run completed once, counting 1, 2, 3, … with no gap and no repeat');
      const from = runs.map((events) => (events[0]!.eventType === 'WorkflowExecutionStarted' ? events[0]!.attributes.continuedExecutionRunId : undefined));
      assert.equal(new Set(from).size, runs.length, 'no run was continued twice');
      assert.equal(from.filter((x) => x === undefined).length, 1, 'one first run');
    } finally {
      client.close();
      await worker.shutdown();
      await running.catch(() => undefined);
      await crashing.kill('SIGKILL');
      await server?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** The histories of every run of the workflow id. */
async function chain(client: Client): Promise<HistoryEvent[][]> {
  const out: HistoryEvent[][] = [];
  for await (const e of client.workflow.list({ workflowIdPrefix: 'cron-crash', pageSize: 500 })) {
    out.push((await client.workflow.getHandle(e.workflowId, e.runId).fetchHistory()).events);
  }
  return out;
}
