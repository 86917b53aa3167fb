// Regression: with held commits, a workflow doing many things at once lost events (children's
// completions, timer firings, signals) and waited for ever; tasks handed out before their commit
// failed reached workers as runs that were never written. Every notice must be recorded once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Worker } from '../../src/worker/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import type { WorkflowService } from '../../src/protocol/index.ts';
import { onWorkflowPolls } from '../helpers/workflow-polls.ts';
import * as activities from '../fixtures/workflows/fan-out-activities.ts';
import { recordingLogger } from '../helpers/logger.ts';
import { backends, onBackend } from './helpers.ts';
import { assertContiguous } from '../engine/helpers.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/fan-out.ts', import.meta.url));

/** The service, remembering the run of every workflow task it hands out. */
function recordingRuns(service: WorkflowService): { service: WorkflowService; runIds: Map<string, string> } {
  const runIds = new Map<string, string>();
  const wrapped = onWorkflowPolls(service, (task) => {
    for (const t of [task, ...(task.moreTasks ?? [])]) runIds.set(t.runId, t.workflowId);
    return task;
  });
  return { service: wrapped, runIds };
}

/** How many events of each type. */
function counts(events: HistoryEvent[]): Record<string, number> {
  const c: Record<string, number> = {};
  for (const e of events) c[e.eventType] = (c[e.eventType] ?? 0) + 1;
  return c;
}

for (const backend of backends('fan_out')) {
  describe(`fan-out on ${backend.name}`, { timeout: 300_000 }, async () => {
    const s = await onBackend(backend);
    const { skip } = s;

    /** Runs `workflowType` on a fresh queue with one worker; checks that no completion was refused and every handed-out run exists. */
    async function run<T>(workflowType: string, args: unknown[], during?: (workflowId: string) => Promise<void>) {
      const taskQueue = s.queue('fan-out');
      const workflowId = `${workflowType}-${taskQueue}`;
      const logger = recordingLogger();
      const { service, runIds } = recordingRuns(s.env.connection);
      const worker = await Worker.create({ connection: service, taskQueue, workflowsPath, activities, logger });
      const handle = await s.env.client.workflow.start(workflowType, { taskQueue, workflowId, args });
      const result = await worker.runUntil(async () => {
        await during?.(workflowId);
        return await handle.result() as T;
      });
      const refused = logger.lines.filter((l) => /refused|not found|not contiguous/.test(l.message));
      assert.deepEqual(refused, [], 'no completion was refused and no history failed to line up');
      for (const [runId, id] of runIds) {
        const rec = await s.env.connection.getWorkflowExecutionHistory({ workflowId: id, runId, pageSize: 1 }).catch((err: Error) => err);
        assert.ok(!(rec instanceof Error), `run ${runId} handed to the worker was written: ${rec instanceof Error ? rec.message : ''}`);
      }
      const events = (await handle.fetchHistory()).events;
      assertContiguous(events);
      assert.ok(!events.some((e) => e.eventType === 'WorkflowTaskFailed' || e.eventType === 'WorkflowTaskTimedOut'), 'no workflow task failed');
      return { result, events, counts: counts(events) };
    }

    for (const n of [3, 10, 100, 500]) {
      test(`a parent that starts ${n} children at once hears each child's completion once`, { skip }, async () => {
        const { result, counts: c } = await run<string[]>('fanOutChildren', [n]);
        assert.deepEqual(result, Array.from({ length: n }, (_, i) => `hello c${i}`));
        assert.equal(c.ChildWorkflowExecutionStarted, n);
        assert.equal(c.ChildWorkflowExecutionCompleted, n);
      });
    }

    for (const n of [10, 100, 1000]) {
      test(`${n} timers in one Promise.all each fire once`, { skip }, async () => {
        const { result, counts: c } = await run<number>('fanOutTimers', [n]);
        assert.equal(result, n);
        assert.equal(c.TimerStarted, n);
        assert.equal(c.TimerFired, n);
      });

      test(`${n} activities in one Promise.all each complete once`, { skip }, async () => {
        const { result, counts: c } = await run<number[]>('fanOutActivities', [n]);
        assert.deepEqual(result, Array.from({ length: n }, (_, i) => i));
        assert.equal(c.ActivityTaskScheduled, n);
        assert.equal(c.ActivityTaskCompleted, n);
      });
    }

    for (const n of [10, 100, 1000]) {
      test(`${n} local operations (side effects) in one Promise.all are each recorded once`, { skip }, async () => {
        const { result, counts: c } = await run<number[]>('fanOutSideEffects', [n]);
        assert.deepEqual(result, Array.from({ length: n }, (_, i) => i * 2));
        assert.equal(c.MarkerRecorded, n);
      });
    }

    test('1,000 signals sent at once are each delivered once, in the order they were accepted', { skip }, async () => {
      const n = 1000;
      const { result, events } = await run<number[]>('fanInSignals', [n], async (workflowId) => {
        const h = s.env.client.workflow.getHandle(workflowId);
        await Promise.all(Array.from({ length: n }, (_, i) => h.signal('item', i)));
      });
      const signaled = events.filter((e) => e.eventType === 'WorkflowExecutionSignaled').map((e) => (e.attributes.args as number[])[0]);
      assert.equal(signaled.length, n);
      assert.deepEqual([...signaled].sort((a, b) => a! - b!), Array.from({ length: n }, (_, i) => i));
      assert.deepEqual(result, signaled, 'the workflow saw the signals in history order');
    });

    test('children, timers, activities, side effects and signals all at once: each recorded once', { skip }, async () => {
      const n = 100;
      const signals = 200;
      const { result, counts: c } = await run<{ children: number; activities: number; timers: number; sideEffects: number; signals: number[] }>(
        'fanOutMixed', [n, signals], async (workflowId) => {
          const h = s.env.client.workflow.getHandle(workflowId);
          await Promise.all(Array.from({ length: signals }, (_, i) => h.signal('item', i)));
        });
      assert.deepEqual({ ...result, signals: result.signals.length }, { children: n, activities: n, timers: n, sideEffects: n, signals });
      assert.equal(c.ChildWorkflowExecutionCompleted, n);
      assert.equal(c.ActivityTaskCompleted, n);
      assert.equal(c.TimerFired, n);
      assert.equal(c.MarkerRecorded, n);
      assert.equal(c.WorkflowExecutionSignaled, signals);
    });
  });
}
