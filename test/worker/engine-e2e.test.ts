import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import { activityInfo } from '../../src/activity/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { startHttpServer } from '../../src/server/index.ts';
import { Client } from '../../src/client/index.ts';
import { silentLogger } from '../helpers/logger.ts';

test('a worker on an in-process engine runs an activity that fails twice, then a sleep, on a real SQLite file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-e2e-'));
  const store = SqliteStore.open(join(dir, 'e2e.sqlite'));
  const engine = await Engine.create({ store });
  try {
    const attempts: number[] = [];
    const worker = await Worker.create({
      connection: engine, taskQueue: 'e2e', logger: silentLogger,
      workflowsPath: fileURLToPath(new URL('../fixtures/workflows/e2e.ts', import.meta.url)),
      activities: {
        async flaky(name: string): Promise<string> {
          attempts.push(activityInfo().attempt);
          if (activityInfo().attempt < 3) throw new Error(`attempt ${activityInfo().attempt} failed`);
          return `hello ${name}`;
        },
      },
    });
    await engine.startWorkflowExecution({ workflowId: 'e2e-1', workflowType: 'flakyThenSleep', taskQueue: 'e2e', args: ['ada'] });
    await worker.runUntil(engine.getWorkflowExecutionHistory({ workflowId: 'e2e-1', waitForClose: true, waitTimeoutMs: 20_000 }));
    const events: HistoryEvent[] = [];
    let nextPageToken: string | undefined;
    do {
      const page = await engine.getWorkflowExecutionHistory({ workflowId: 'e2e-1', ...(nextPageToken ? { nextPageToken } : {}) });
      events.push(...page.events);
      nextPageToken = page.nextPageToken;
    } while (nextPageToken);
    assert.deepEqual(attempts, [1, 2, 3]);
    const types = events.map((e) => e.eventType);
    assert.ok(types.includes('TimerFired'));
    const started = events.find((e) => e.eventType === 'ActivityTaskStarted');
    assert.equal(started?.eventType === 'ActivityTaskStarted' && started.attributes.attempt, 3);
    const closed = events.at(-1)!;
    assert.equal(closed.eventType, 'WorkflowExecutionCompleted');
    assert.equal(closed.eventType === 'WorkflowExecutionCompleted' && closed.attributes.result, 'hello ada, then slept');
    assert.ok(types.indexOf('ActivityTaskCompleted') < types.indexOf('TimerStarted'));
  } finally {
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('3 × 400 one-activity workflows at once over HTTP on SQLite: every one completes', { timeout: 60_000 }, async () => {
  // Group commit, cached execution rows, eager dispatch and batched calls all under load: a
  // claimed task must never be judged against a row older than the task (that would lose it).
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-e2e-'));
  const store = SqliteStore.open(join(dir, 'load.sqlite'));
  const engine = await Engine.create({ store });
  const http = await startHttpServer({ service: engine, port: 0 });
  const client = new Client({ address: http.address });
  try {
    const worker = await Worker.create({
      address: http.address, taskQueue: 'load', maxConcurrentWorkflowTaskExecutions: 200, maxConcurrentActivityTaskExecutions: 200,
      workflowsPath: fileURLToPath(new URL('../fixtures/workflows/e2e.ts', import.meta.url)),
      activities: { echo: async (n: number) => n },
    });
    // Three waves: the later ones find the runs' rows cached, as a long-running server does.
    await worker.runUntil((async () => {
      for (let wave = 0; wave < 3; wave++) {
        const ids = Array.from({ length: 400 }, (_, i) => wave * 1000 + i);
        const results = await Promise.all(ids.map(async (i) => {
          const handle = await client.workflow.start('echoOnce', { workflowId: `load-${i}`, taskQueue: 'load', args: [i] });
          return handle.result();
        }));
        assert.deepEqual(results, ids);
      }
    })());
  } finally {
    client.close();
    await http.close();
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
