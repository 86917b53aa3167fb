import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { instrumentStore, ServerMetrics, startHttpServer } from '../../src/server/index.ts';
import { Client } from '../../src/client/index.ts';
import { Registry } from 'prom-client';
import { Worker, type Logger } from '../../src/worker/index.ts';
import { parsePrometheusText, total, type Sample } from './prometheus-text.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/e2e.ts', import.meta.url));

async function scrape(address: string): Promise<{ types: Map<string, string>; samples: Sample[] }> {
  const res = await fetch(`${address}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

test('GET /metrics: the named series are present, and move after a workflow with a retried activity and a timer runs over HTTP; the worker\'s series move in the registry it was given', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-metrics-'));
  const metrics = new ServerMetrics();
  const store = instrumentStore(SqliteStore.open(join(dir, 'm.sqlite')), metrics);
  const engine = await Engine.create({ store });
  const http = await startHttpServer({ service: engine, port: 0, metrics });
  try {
    const before = await scrape(http.address);
    for (const [name, type] of [
      ['steadfast_requests_total', 'counter'], ['steadfast_request_duration_seconds', 'histogram'],
      ['steadfast_store_operation_duration_seconds', 'histogram'], ['steadfast_store_errors_total', 'counter'],
      ['steadfast_workflows_started_total', 'counter'], ['steadfast_workflows_completed_total', 'counter'],
      ['steadfast_workflows_failed_total', 'counter'], ['steadfast_workflows_timed_out_total', 'counter'],
      ['steadfast_workflows_canceled_total', 'counter'], ['steadfast_workflows_terminated_total', 'counter'],
      ['steadfast_schedule_to_start_seconds', 'histogram'], ['steadfast_task_backlog', 'gauge'],
      ['steadfast_state_transitions_total', 'counter'], ['steadfast_history_events_at_close', 'histogram'],
      ['steadfast_history_bytes_at_close', 'histogram'],
    ] as const) {
      assert.equal(before.types.get(name), type, name);
    }
    assert.equal(total(before.samples, 'steadfast_workflows_started_total'), 0);

    const client = new Client({ address: http.address });
    // Started with no worker polling: the backlog shows the waiting workflow task.
    const handle = await client.workflow.start('flakyThenSleep', { taskQueue: 'metrics', workflowId: 'm-1', args: ['ada'] });
    const waiting = await scrape(http.address);
    assert.equal(total(waiting.samples, 'steadfast_task_backlog', { namespace: 'default', task_queue: 'metrics', kind: 'workflow' }), 1);

    let attempt = 0;
    const registry = new Registry();
    const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const worker = await Worker.create({
      address: http.address, taskQueue: 'metrics', workflowsPath, logger: quiet, metrics: { registry },
      activities: {
        async flaky(name: string) {
          if (++attempt < 3) throw new Error(`attempt ${attempt} failed`);
          return `hello ${name}`;
        },
      },
    });
    assert.equal(await worker.runUntil(handle.result()), 'hello ada, then slept');
    await client.workflow.start('flakyThenSleep', { taskQueue: 'metrics', workflowId: 'm-2', args: ['bob'] });
    await client.workflow.getHandle('m-2').terminate('enough');

    const { samples } = await scrape(http.address);
    const wf = { namespace: 'default', workflow_type: 'flakyThenSleep' };
    assert.equal(total(samples, 'steadfast_workflows_started_total', wf), 2);
    assert.equal(total(samples, 'steadfast_workflows_completed_total', wf), 1);
    assert.equal(total(samples, 'steadfast_workflows_terminated_total', wf), 1);
    assert.equal(total(samples, 'steadfast_workflows_failed_total', wf), 0);
    assert.equal(total(samples, 'steadfast_history_events_at_close_count', wf), 2);
    assert.ok(total(samples, 'steadfast_history_events_at_close_sum', wf) > 10);
    assert.ok(total(samples, 'steadfast_history_bytes_at_close_sum', wf) > 1000);
    assert.ok(total(samples, 'steadfast_state_transitions_total', { namespace: 'default' }) >= 8);
    // Three activity attempts and at least two workflow tasks were handed to the worker (the task
    // after the activity's success is run by the worker that completed it, continued-task.ts).
    assert.ok(total(samples, 'steadfast_schedule_to_start_seconds_count', { task_queue: 'metrics', kind: 'activity' }) >= 3);
    assert.ok(total(samples, 'steadfast_schedule_to_start_seconds_count', { task_queue: 'metrics', kind: 'workflow' }) >= 2);
    assert.equal(total(samples, 'steadfast_task_backlog', { task_queue: 'metrics' }), 0);
    assert.equal(total(samples, 'steadfast_requests_total', { method: 'startWorkflowExecution', status: '200' }), 2);
    assert.equal(total(samples, 'steadfast_requests_total', { method: 'terminateWorkflowExecution', status: '200' }), 1);
    assert.ok(total(samples, 'steadfast_request_duration_seconds_count', { method: 'respondActivityTaskFailed' }) >= 2);
    assert.ok(total(samples, 'steadfast_store_operation_duration_seconds_count', { operation: 'commit' }) >= 8);

    // A refused call is counted under the status of its answer.
    await assert.rejects(client.workflow.getHandle('nope').describe());
    const after = (await scrape(http.address)).samples;
    assert.equal(total(after, 'steadfast_requests_total', { method: 'describeWorkflowExecution', status: '404' }), 1);

    // The worker's own series, in the registry the application scrapes.
    const w = parsePrometheusText(await registry.metrics()).samples;
    const q = { task_queue: 'metrics' };
    // The first attempt came in the first task's completion (an eager activity), and the task after
    // the attempt that succeeded was run by the worker that completed it: neither was polled.
    assert.equal(worker.workflowStats.eagerActivities, 1);
    assert.equal(worker.workflowStats.continued, 1);
    assert.ok(total(w, 'steadfast_worker_polls_total', { ...q, kind: 'workflow', outcome: 'task' }) >= 2);
    assert.ok(total(w, 'steadfast_worker_polls_total', { ...q, kind: 'activity', outcome: 'task' }) >= 2);
    assert.equal(total(w, 'steadfast_worker_activity_duration_seconds_count', { ...q, activity_type: 'flaky', outcome: 'failed' }), 2);
    assert.equal(total(w, 'steadfast_worker_activity_duration_seconds_count', { ...q, activity_type: 'flaky', outcome: 'completed' }), 1);
    assert.ok(total(w, 'steadfast_worker_sticky_cache_total', { ...q, result: 'hit' }) >= 2);
    // A run's first task is a miss; m-2 may or may not have reached the worker before it was terminated.
    assert.ok(total(w, 'steadfast_worker_sticky_cache_total', { ...q, result: 'miss' }) >= 1);
    assert.equal(total(w, 'steadfast_worker_task_slots_used', { ...q, kind: 'activity' }), 0);
    assert.equal(total(w, 'steadfast_worker_task_slots_available', { ...q, kind: 'activity' }), 100);
    assert.ok(w.some((x) => x.name === 'steadfast_worker_sticky_cache_size' && x.labels.task_queue === 'metrics'));
    await worker.shutdown();
  } finally {
    await http.close();
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a scrape still answers when the store cannot be read: the backlog is left out and the failed read counted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-metrics-'));
  const metrics = new ServerMetrics({ processMetrics: false });
  const store = SqliteStore.open(join(dir, 'closed.sqlite'));
  instrumentStore(store, metrics);
  try {
    await store.close();
    const first = parsePrometheusText((await metrics.scrape()).text).samples;
    assert.equal(first.filter((s) => s.name === 'steadfast_task_backlog').length, 0);
    // prom-client renders the series side by side, so the count shows from the next scrape.
    const second = parsePrometheusText((await metrics.scrape()).text).samples;
    assert.ok(total(second, 'steadfast_store_errors_total', { operation: 'readyQueues' }) >= 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
