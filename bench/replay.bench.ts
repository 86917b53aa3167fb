/**
 * `npm run bench -- replay [--activities 1666] [--iterations 7] [--json]`: replays a
 * 10,000-event history (a workflow running 1,666 activities one after another) from scratch
 * in a fresh sandbox, the work a worker does on a cache miss, and measures the cost of one
 * sandbox (new vm context + evaluation of the precompiled bundle).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleWorkflows } from '../src/worker/bundler.ts';
import { WorkflowRun } from '../src/worker/workflow-run.ts';
import { WorkflowSandbox } from '../src/worker/sandbox.ts';
import type { HistoryEvent } from '../src/history/events.ts';
import { harness } from '../test/workflow/harness.ts';

const WORKFLOWS = fileURLToPath(new URL('../test/fixtures/workflows/sequential.ts', import.meta.url));

async function buildHistory(activities: number): Promise<HistoryEvent[]> {
  const h = await harness({ workflowType: 'sequential', args: [activities] }, WORKFLOWS);
  for (let i = 0; ; i++) {
    const commands = await h.next();
    if (commands[0]?.commandType !== 'ScheduleActivityTask') break;
    h.history.activityCompleted(String(i + 1), i);
  }
  return h.history.events;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { activities: { type: 'string' }, iterations: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log('Usage: npm run bench -- replay [--activities 1666] [--iterations 7] [--json]');
    return 0;
  }
  const activities = Number(values.activities ?? 1666);
  const iterations = Number(values.iterations ?? 7);
  const bundle = await bundleWorkflows(WORKFLOWS);
  const events = await buildHistory(activities);

  const replays: number[] = [];
  for (let i = 0; i < iterations + 1; i++) {
    const t0 = performance.now();
    const r = new WorkflowRun(bundle, { namespace: 'default', workflowId: 'bench', runId: 'run-1' });
    await r.apply(events);
    r.finish();
    const ms = performance.now() - t0;
    if (i > 0) replays.push(ms); // the first pass warms up the JIT
  }

  const info = { namespace: 'default', workflowId: 'w', runId: 'r', workflowType: 'sequential', taskQueue: 'q', attempt: 1, firstExecutionRunId: 'r', startTime: new Date(0).toISOString(),
    executionTime: new Date(0).toISOString(), workflowTaskTimeoutMs: 10_000 };
  /** ms per new run: in the bundle's shared realm (the default), or in a realm of its own. */
  const perRun = (reuseV8Context: boolean, count: number) => {
    WorkflowSandbox.create(bundle, { info, randomnessSeed: 'r', now: 0 }, { reuseV8Context });
    const t1 = performance.now();
    for (let i = 0; i < count; i++) WorkflowSandbox.create(bundle, { info, randomnessSeed: 'r', now: 0 }, { reuseV8Context });
    return (performance.now() - t1) / count;
  };
  const perSharedRun = perRun(true, 2000);
  const perSandbox = perRun(false, 200);

  const result = {
    events: events.length, activities, iterations,
    replayMedianMs: Number(median(replays).toFixed(1)), replayMinMs: Number(Math.min(...replays).toFixed(1)),
    eventsPerSecond: Math.round(events.length / (median(replays) / 1000)),
    runCreateMs: Number(perSharedRun.toFixed(3)), sandboxCreateMs: Number(perSandbox.toFixed(3)),
    bundleBytes: bundle.code.length, runtimeBytes: bundle.runtimeCode.length,
    node: process.version,
  };
  if (values.json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`replay of a ${result.events}-event history (${activities} sequential activities), ${iterations} runs, node ${process.version}`);
    console.table({
      'full replay, median (ms)': result.replayMedianMs,
      'full replay, best (ms)': result.replayMinMs,
      'events replayed per second': result.eventsPerSecond,
      'new run in the shared realm: module evaluation (ms)': result.runCreateMs,
      'new run in a realm of its own: vm context + runtime + module (ms)': result.sandboxCreateMs,
      'workflows module size (bytes)': result.bundleBytes,
      'runtime size (bytes)': result.runtimeBytes,
    });
  }
  return 0;
}
