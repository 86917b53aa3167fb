import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { Client } from '../../src/client/index.ts';
import { startHttpServer } from '../../src/server/index.ts';
import { AesGcmCodec } from '../../src/codec/index.ts';
import { Replayer } from '../../src/testing/index.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import { silentLogger } from '../helpers/logger.ts';

const WORKFLOWS = fileURLToPath(new URL('../fixtures/workflows/continued.ts', import.meta.url));
const activities = { step: async (i: number) => `r${i}` };
const codec = () => new AesGcmCodec({ keys: { k1: Buffer.alloc(32, 1) }, currentKeyId: 'k1' });

/** An engine on a fresh SQLite file, served over HTTP too; closed after `body`. */
async function withEngine(body: (engine: Engine, address: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-continued-'));
  const store = SqliteStore.open(join(dir, 'continued.sqlite'));
  const engine = await Engine.create({ store });
  const http = await startHttpServer({ service: engine, port: 0 });
  try {
    await body(engine, http.address);
  } finally {
    await http.close();
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const startedTasks = (events: HistoryEvent[]) => events.filter((e) => e.eventType === 'WorkflowTaskStarted').length;

for (const [over, withCodec] of [['in process', false], ['over HTTP', false], ['over HTTP with an AesGcmCodec', true]] as const) {
  test(`${over}: the worker that completes an activity runs the next workflow task with it`, async () => {
    await withEngine(async (engine, address) => {
      const dataConverter = withCodec ? { payloadCodecs: [codec()] } : undefined;
      const connection = over === 'in process' ? { connection: engine } : { address };
      const worker = await Worker.create({
        ...connection, taskQueue: 'cont', workflowsPath: WORKFLOWS, activities, logger: silentLogger, ...(dataConverter ? { dataConverter } : {}),
      });
      const client = new Client({ ...connection, ...(dataConverter ? { dataConverter } : {}) });
      const events = await worker.runUntil(async () => {
        const handle = await client.workflow.start('steps', { workflowId: 'five', taskQueue: 'cont', args: [5] });
        assert.equal(await handle.result(), 'r0,r1,r2,r3,r4');
        return (await engine.getWorkflowExecutionHistory({ workflowId: 'five', pageSize: 1000 })).events;
      });
      // One task to start, then one per activity, each recorded with the activity's completion.
      assert.equal(startedTasks(events), 6);
      assert.deepEqual(worker.workflowStats, { cacheHits: 0, replays: 1, cached: 0, continued: 5, continuedRefused: 0, eagerActivities: 5, ranAhead: 0, droppedAhead: 0 });
      assert.deepEqual(events.map((e) => e.eventId), events.map((_, i) => i + 1));
      // Stored encoded when the worker has a codec; the history replays against the code either way.
      const completed = events.find((e) => e.eventType === 'ActivityTaskCompleted')!;
      const stored = completed.eventType === 'ActivityTaskCompleted' ? completed.attributes.result : undefined;
      assert.equal(typeof stored === 'string', !withCodec);
      await Replayer.replayHistory(events, { workflowsPath: WORKFLOWS, ...(dataConverter ? { dataConverter } : {}) });
    });
  });
}

test('activities at once: each completion continues or falls back, and the run completes with every result', async () => {
  await withEngine(async (engine, address) => {
    const worker = await Worker.create({ address, taskQueue: 'par', workflowsPath: WORKFLOWS, activities, logger: silentLogger });
    const client = new Client({ address });
    const events = await worker.runUntil(async () => {
      const handles = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        client.workflow.start('parallelSteps', { workflowId: `par-${i}`, taskQueue: 'par', args: [4] })));
      for (const h of handles) assert.equal(await h.result(), 'r0,r1,r2,r3');
      return (await engine.getWorkflowExecutionHistory({ workflowId: 'par-0', pageSize: 1000 })).events;
    });
    assert.deepEqual(events.map((e) => e.eventId), events.map((_, i) => i + 1));
    await Replayer.replayHistory(events, { workflowsPath: WORKFLOWS });
    const s = worker.workflowStats;
    assert.ok(s.continued > 0, `no task was continued: ${JSON.stringify(s)}`);
  });
});
