import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { instrumentStore, ServerMetrics, startHttpServer } from '../../src/server/index.ts';
import { Client } from '../../src/client/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { silentLogger } from '../helpers/logger.ts';
import { waitFor } from '../composition/helpers.ts';
import { parsePrometheusText, total as sum } from './prometheus-text.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/task-failures.ts', import.meta.url));


test('steadfast_workflow_task_failures_total moves on the server and the worker; steadfast_task_queue_pollers counts a queue\'s workers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-task-metrics-'));
  const metrics = new ServerMetrics({ processMetrics: false });
  const store = instrumentStore(SqliteStore.open(join(dir, 'm.sqlite')), metrics);
  const engine = await Engine.create({ store });
  const http = await startHttpServer({ service: engine, port: 0, metrics });
  const registry = new Registry();
  const worker = await Worker.create({ address: http.address, taskQueue: 'tm', workflowsPath, logger: silentLogger, metrics: { registry } });
  const client = new Client({ address: http.address });
  const scrape = async () => parsePrometheusText(await (await fetch(`${http.address}/metrics`)).text()).samples;
  try {
    const before = await scrape();
    assert.equal(sum(before, 'steadfast_workflow_task_failures_total'), 0);
    await worker.runUntil(async () => {
      await client.workflow.start('throwsString', { taskQueue: 'tm', workflowId: 'broken' });
      await waitFor('a failed workflow task on the server', async () => sum(await scrape(), 'steadfast_workflow_task_failures_total', { cause: 'WorkflowError' }) >= 1);
      const samples = await scrape();
      assert.equal(sum(samples, 'steadfast_task_queue_pollers', { task_queue: 'tm', kind: 'workflow' }), 1);
      const w = parsePrometheusText(await registry.metrics()).samples;
      assert.ok(sum(w, 'steadfast_workflow_task_failures_total', { task_queue: 'tm', cause: 'WorkflowError' }) >= 1);
      await client.workflow.getHandle('broken').terminate('done');
    });
  } finally {
    client.close();
    await http.close();
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('schedule series follow each schedule\'s actions and skips, and stop when it is deleted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-schedule-metrics-'));
  const metrics = new ServerMetrics({ processMetrics: false });
  const store = instrumentStore(SqliteStore.open(join(dir, 's.sqlite')), metrics);
  const engine = await Engine.create({ store });
  const samples = async () => parsePrometheusText(await metrics.registry.metrics()).samples;
  try {
    await engine.createSchedule({
      scheduleId: 'hourly', spec: { intervals: [{ every: '1h' }] }, action: { workflowType: 'neverRuns', taskQueue: 'nobody', workflowId: 'from-hourly' },
    });
    await engine.patchSchedule({ scheduleId: 'hourly', trigger: {} });
    await waitFor('the first action', async () => sum(await samples(), 'steadfast_schedule_actions_total', { schedule_id: 'hourly' }) === 1);
    // The first run is still open: a second trigger is skipped (overlap Skip).
    await engine.patchSchedule({ scheduleId: 'hourly', trigger: { overlap: 'Skip' } });
    await waitFor('a skip', async () => sum(await samples(), 'steadfast_schedule_skipped_total', { namespace: 'default', schedule_id: 'hourly' }) === 1);
    assert.equal(sum(await samples(), 'steadfast_schedule_actions_total', { schedule_id: 'hourly' }), 1);
    await engine.deleteSchedule({ scheduleId: 'hourly' });
    assert.equal((await samples()).filter((x) => x.labels.schedule_id === 'hourly').length, 0);
  } finally {
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
