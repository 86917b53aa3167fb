import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { startHttpServer } from '../../src/server/index.ts';
import { Client } from '../../src/client/index.ts';
import { jsonLogger, Worker } from '../../src/worker/index.ts';
import { defaultPayloadConverter, headersFromWire } from '../../src/index.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/e2e.ts', import.meta.url));
const exporter = new InMemorySpanExporter();

before(() => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});

after(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});

test('one trace spans client, server and worker: the start travels as traceparent over HTTP and as the _tracer-data header in WorkflowExecutionStarted; failures log one JSON line with their ids', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-trace-'));
  const store = SqliteStore.open(join(dir, 't.sqlite'));
  const engine = await Engine.create({ store });
  const http = await startHttpServer({ service: engine, port: 0 });
  const lines: string[] = [];
  const logger = jsonLogger({ component: 'worker', destination: { write: (line: string) => void lines.push(line) } });
  try {
    const client = new Client({ address: http.address });
    let attempt = 0;
    const worker = await Worker.create({
      address: http.address, taskQueue: 'traced', workflowsPath, logger,
      activities: {
        async flaky(name: string) {
          if (++attempt < 3) throw new Error(`attempt ${attempt} failed`);
          return `hello ${name}`;
        },
      },
    });
    const handle = await client.workflow.start('flakyThenSleep', { taskQueue: 'traced', workflowId: 'traced-1', args: ['ada'] });
    assert.equal(await worker.runUntil(handle.result()), 'hello ada, then slept');
    const started = (await handle.fetchHistory()).events[0]!;
    assert.equal(started.eventType, 'WorkflowExecutionStarted');
    // The trace context travels as the `_tracer-data` header, as @temporalio/interceptors-opentelemetry writes it.
    const tracerData = headersFromWire(started.eventType === 'WorkflowExecutionStarted' ? started.attributes.header : undefined)['_tracer-data'];
    const header = tracerData ? defaultPayloadConverter.fromPayload<Record<string, string>>(tracerData) : undefined;
    assert.match(header?.traceparent ?? '', /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

    const spans = exporter.getFinishedSpans();
    const root = one(spans, 'StartWorkflow:flakyThenSleep');
    assert.equal(root.kind, SpanKind.CLIENT);
    const traceId = root.spanContext().traceId;
    assert.equal(header!.traceparent!.split('-')[1], traceId);
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);

    // Server: the start call, a child of the client's span through the HTTP traceparent.
    const serverStart = one(inTrace, 'steadfast.startWorkflowExecution');
    assert.equal(serverStart.kind, SpanKind.SERVER);
    assert.equal(parentOf(serverStart), root.spanContext().spanId);
    // Worker: workflow tasks and activity attempts, children of the start through history.
    const runs = inTrace.filter((s) => s.name === 'RunWorkflow:flakyThenSleep');
    assert.ok(runs.length >= 3, `workflow task spans: ${runs.length}`);
    for (const r of runs) assert.equal(parentOf(r), root.spanContext().spanId);
    const activities = inTrace.filter((s) => s.name === 'RunActivity:flaky');
    assert.deepEqual(activities.map((s) => s.status.code), [SpanStatusCode.ERROR, SpanStatusCode.ERROR, SpanStatusCode.UNSET]);
    assert.equal(activities[0]!.attributes['steadfast.workflow_id'], 'traced-1');
    for (const a of activities) assert.equal(parentOf(a), root.spanContext().spanId);
    // The commands a workflow task sent: the activity and the timer, under that task's span.
    const runIds = new Set(runs.map((r) => r.spanContext().spanId));
    for (const name of ['StartActivity:flaky', 'StartTimer:1']) {
      const s = inTrace.find((x) => x.name === name);
      assert.ok(s, `${name} span in the trace; have ${inTrace.map((x) => x.name).join(', ')}`);
      assert.ok(runIds.has(parentOf(s)!), `${name} under a workflow task span`);
    }
    // Server spans of the worker's own calls join the same trace.
    assert.ok(inTrace.some((s) => s.name === 'steadfast.respondWorkflowTaskCompleted' && runIds.has(parentOf(s)!)));
    assert.ok(inTrace.some((s) => s.name === 'steadfast.respondActivityTaskFailed'));

    // Logs: one JSON line per failed attempt, with the ids that find it.
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const failures = records.filter((r) => typeof r.msg === 'string' && r.msg.startsWith('activity flaky attempt'));
    assert.equal(failures.length, 2);
    const runId = (await handle.describe()).runId;
    for (const [i, f] of failures.entries()) {
      assert.equal(f.level, 'warn');
      assert.equal(f.component, 'worker');
      assert.equal(typeof f.time, 'string');
      assert.deepEqual(
        { namespace: f.namespace, workflowId: f.workflowId, runId: f.runId, activityId: f.activityId, attempt: f.attempt, errorType: f.errorType },
        { namespace: 'default', workflowId: 'traced-1', runId, activityId: '1', attempt: i + 1, errorType: 'Error' });
    }
    await worker.shutdown();
  } finally {
    await http.close();
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function one(spans: ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  assert.equal(found.length, 1, `one ${name} span; have ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
