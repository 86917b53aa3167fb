// kill -9 of the server while a parent's 100 children complete: every child's completion reaches
// the parent exactly once, and the parent completes with a contiguous history.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../src/client/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { freePort, spawnNode, startServerProcess, type Child } from '../helpers/processes.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

const CHILDREN = 100;

/** Polls (real time) until `fn` answers true; fails after `ms`. */
async function until(what: string, fn: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await fn().catch(() => false))) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function crashWhileChildrenComplete(database: string, log: (l: string) => void): Promise<void> {
  const port = await freePort();
  let server: Child & { address: string } = await startServerProcess(database, port);
  const worker = spawnNode(['--import', 'tsx', 'test/fixtures/crash/worker.ts'], {
    STEADFAST_ADDRESS: server.address, TASK_QUEUE: 'fan-out',
    WORKFLOWS: 'test/fixtures/workflows/fan-out.ts', ACTIVITIES: 'test/fixtures/workflows/fan-out-activities.ts',
  });
  const client = new Client({ address: server.address });
  try {
    await worker.waitFor(/worker ready/);
    const handle = await client.workflow.start('slowChildren', { taskQueue: 'fan-out', workflowId: 'crash-parent', args: [CHILDREN, 10] });
    const completed = async () => (await handle.fetchHistory()).events.filter((e) => e.eventType === 'ChildWorkflowExecutionCompleted').length;
    await until('the first children to complete', async () => (await completed()) >= 5);
    const before = await completed();
    await server.kill('SIGKILL');
    log(`kill -9 of the server with ${before} of ${CHILDREN} children's completions recorded`);
    server = await startServerProcess(database, port);
    assert.ok(before < CHILDREN, 'the server died while children were still completing');
    const result = await handle.result() as string[];
    assert.deepEqual(result, Array.from({ length: CHILDREN }, (_, i) => `hello c${i}`));
    const { events } = await handle.fetchHistory();
    events.forEach((e: HistoryEvent, i) => assert.equal(e.eventId, i + 1, 'event ids contiguous'));
    const done = events.filter((e) => e.eventType === 'ChildWorkflowExecutionCompleted').map((e) => (e.attributes as { workflowId: string }).workflowId).sort();
    assert.deepEqual(done, Array.from({ length: CHILDREN }, (_, i) => `crash-parent-child-${i}`).sort(), 'each child completed once');
    assert.equal(events.filter((e) => e.eventType === 'ChildWorkflowExecutionStarted').length, CHILDREN);
  } finally {
    client.close();
    await worker.kill('SIGKILL');
    await server.kill('SIGKILL');
  }
}

test('kill -9 of the SQLite server while 100 children complete loses no completion', { timeout: 180_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-fan-out-crash-'));
  try {
    await crashWhileChildrenComplete(`sqlite:${join(dir, 'crash.sqlite')}`, (l) => t.diagnostic(l));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('kill -9 of the PostgreSQL server while 100 children complete loses no completion', { timeout: 180_000, skip: await pgSkipReason('the fan-out crash test on PostgreSQL') }, async (t) => {
  const schema = freshSchema('sf_fan_crash');
  try {
    await crashWhileChildrenComplete(`${PG_URL}?schema=${schema}`, (l) => t.diagnostic(l));
  } finally {
    await dropSchema(schema);
  }
});
