import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from '../../src/client/index.ts';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import { Replayer } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { silentLogger } from '../helpers/logger.ts';
import { COMPAT_DB, COMPAT_MANIFEST, COMPAT_WORKFLOWS, type CompatManifest } from './fixture.ts';

const manifest = JSON.parse(readFileSync(COMPAT_MANIFEST, 'utf8')) as CompatManifest;
const DAY = 86_400_000;

test('histories recorded in the fixture replay against today\'s workflow code', async () => {
  for (const run of manifest.runs) {
    await Replayer.replayHistory(manifest.histories[run.runId]!, { workflowsPath: COMPAT_WORKFLOWS, workflowId: run.workflowId });
  }
});

test('a database file written by steadfast 0.1 is read, listed, described and driven to completion', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-compat-'));
  const path = join(dir, 'old.sqlite');
  copyFileSync(fileURLToPath(COMPAT_DB), path);
  const clock = new ManualClock(manifest.clock);
  const store = SqliteStore.open(path);
  const engine = await Engine.create({ store, clock, identity: 'compat-reader' });
  const client = new Client({ connection: engine });
  let worker: Worker | undefined;
  try {
    const listed = [];
    for await (const e of client.workflow.list({ pageSize: 1000 })) listed.push({ workflowId: e.workflowId, runId: e.runId, workflowType: e.workflowType, status: e.status });
    listed.sort((a, b) => a.workflowId.localeCompare(b.workflowId) || a.runId.localeCompare(b.runId));
    assert.deepEqual(listed, manifest.runs, 'every run of the old file is listed with its type and status');

    for (const run of manifest.runs) {
      const d = await client.workflow.getHandle(run.workflowId, run.runId).describe();
      assert.equal(d.status, run.status, `${run.workflowId} ${run.runId} describes with its status`);
      const stored = await engine.getWorkflowExecutionHistory({ workflowId: run.workflowId, runId: run.runId, pageSize: 10_000 });
      assert.deepEqual(stored.events, manifest.histories[run.runId], `${run.workflowId} ${run.runId} reads back its history`);
    }
    const searched = await client.workflow.getHandle('compat-search').describe();
    assert.deepEqual(searched.searchAttributes, { CustomerId: 'c-42', Priority: 3 });
    const byAttribute = [];
    for await (const e of client.workflow.list({ query: "CustomerId = 'c-42'" })) byAttribute.push(e.workflowId);
    assert.deepEqual(byAttribute, ['compat-search']);
    const retrying = await client.workflow.getHandle('compat-retry').describe();
    assert.equal(retrying.pendingActivities[0]?.attempt, 3, 'the activity waits in its backoff before attempt 3');
    const schedule = client.schedule.getHandle('compat-schedule');
    const before = await schedule.describe();
    assert.deepEqual(before.info.recentActions.map((a) => a.workflowId), ['compat-scheduled-2026-01-01T01:00:00Z']);
    await schedule.pause('compat test');

    const activities = { echo: async (s: string) => `echo ${s}`, flaky: async (s: string) => `flaky ${s}` };
    worker = await Worker.create({
      connection: engine, taskQueue: 'compat', workflowsPath: COMPAT_WORKFLOWS, activities, logger: silentLogger,
    });
    const running = worker.run();
    const settle = async () => {
      for (let idle = 0; idle < 5;) {
        await delay(5);
        idle = engine.isIdle() ? idle + 1 : 0;
      }
    };
    await settle();
    assert.deepEqual(await client.workflow.getHandle('compat-signals').query('items'), ['a', 'b']);
    for (const id of ['compat-signals', 'compat-update', 'compat-child', 'compat-search', 'compat-chain']) {
      await client.workflow.getHandle(id).signal('finish');
    }
    const target = clock.now() + 31 * DAY;
    for (;;) {
      await settle();
      const due = clock.nextDue();
      if (due === undefined || due > target) break;
      await clock.set(Math.max(due, clock.now()));
    }
    const results: Record<string, unknown> = {};
    for (const id of ['compat-timer', 'compat-signals', 'compat-update', 'compat-parent', 'compat-child', 'compat-chain', 'compat-search', 'compat-retry']) {
      results[id] = await client.workflow.getHandle(id).result();
    }
    assert.deepEqual(results, {
      'compat-timer': `echo woke after ${30 * DAY}`,
      'compat-signals': ['a', 'b'],
      'compat-update': 7,
      'compat-parent': 'parent saw done compat-child',
      'compat-child': 'done compat-child',
      'compat-chain': 3,
      'compat-search': 'done sa',
      'compat-retry': 'flaky r',
    });
    const after = await schedule.describe();
    assert.equal(after.info.recentActions.length, 1, 'the paused schedule took no action');
    assert.equal(after.state.paused, true);
    await worker.shutdown();
    await running;
    worker = undefined;
  } finally {
    await worker?.shutdown();
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
