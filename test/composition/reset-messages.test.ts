import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from '../../src/worker/index.ts';
import type { TestEnvironment } from '../../src/testing/index.ts';
import type { WorkflowHandle } from '../../src/client/index.ts';
import { WorkflowUpdateFailedError } from '../../src/client/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { addItem, collector, finish, limiter, limitQuery, setLimit } from '../fixtures/workflows/messages.ts';
import { backends, fixture, waitFor, waitForEvent } from './helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

const workflowsPath = fixture('messages.ts');
type Point = 'FirstWorkflowTask' | 'LastWorkflowTask';
const POINTS: Point[] = ['FirstWorkflowTask', 'LastWorkflowTask'];

/** Workflow task failures of a run other than the reset's own. */
function failedTasks(events: HistoryEvent[]): string[] {
  return events.flatMap((e) => (e.eventType === 'WorkflowTaskFailed' && e.attributes.cause !== 'ResetWorkflow'
    ? [`${e.attributes.cause}: ${e.attributes.failure?.message ?? ''}`] : []));
}

function updateCompletions(events: HistoryEvent[]): string[] {
  return events.flatMap((e) => (e.eventType === 'WorkflowExecutionUpdateCompleted' ? [e.attributes.updateId] : []));
}

for (const backend of backends('reset_messages')) {
  describe(`reset after signals and updates on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    let env: TestEnvironment;
    let q = 0;
    const queue = (name: string) => `${backend.name}-${name}-${++q}`;
    /** `echo` waits for `gate` while one is set, so an update's handler can be held between acceptance and completion. */
    let gate: Promise<void> | undefined;
    const activities = { echo: async (s: string) => { await gate; return s; } };
    const worker = (taskQueue: string) => Worker.create({ address: env.address, taskQueue, workflowsPath, activities, logger: silentLogger });
    before(async () => {
      if (!skip) env = await backend.env();
    });
    after(async () => {
      await env?.teardown();
      await backend.cleanup();
    });

    /** Resets, then checks that the new run's workflow tasks complete (none failed) once it has caught up. */
    async function reset(h: WorkflowHandle, type: Point): Promise<WorkflowHandle> {
      const runId = await h.reset({ type, reason: 'test' });
      const fresh = env.client.workflow.getHandle(h.workflowId, runId);
      await waitFor('the new run to complete a workflow task', async () => {
        const events = (await fresh.fetchHistory()).events;
        const resetAt = events.findIndex((e) => e.eventType === 'WorkflowTaskFailed');
        assert.deepEqual(failedTasks(events), []);
        return events.slice(resetAt).some((e) => e.eventType === 'WorkflowTaskCompleted');
      });
      return fresh;
    }

    test('resetReapplyExcludeTypes: excluding Signal re-applies the update but not the signal, excluding Update the reverse', { skip }, async () => {
      const tq = queue('exclude');
      const w = await worker(tq);
      const h = await env.client.workflow.start(limiter, { taskQueue: tq, workflowId: `wf-${tq}` });
      await w.runUntil(async () => {
        assert.equal(await h.executeUpdate(setLimit, { args: [5], updateId: 'five' }), 0);
        await h.signal(finish);
        assert.equal(await h.result(), 5);
        const original = (await h.describe()).runId;
        const base = env.client.workflow.getHandle(h.workflowId, original);
        /** The event types of `runId` after its reset's WorkflowTaskFailed. */
        const reapplied = async (runId: string) => {
          const events = (await env.client.workflow.getHandle(h.workflowId, runId).fetchHistory()).events;
          const at = events.findIndex((e) => e.eventType === 'WorkflowTaskFailed' && e.attributes.cause === 'ResetWorkflow');
          return events.slice(at + 1).map((e) => e.eventType);
        };

        const noSignals = await base.reset({ type: 'FirstWorkflowTask', resetReapplyExcludeTypes: ['Signal'] });
        const withUpdate = env.client.workflow.getHandle(h.workflowId, noSignals);
        await waitFor('the re-applied update to complete in the new run', async () => updateCompletions((await withUpdate.fetchHistory()).events).includes('five'));
        assert.equal(await withUpdate.query(limitQuery), 5, "the update's handler ran again in the new run");
        assert.equal((await withUpdate.describe()).status, 'Running', 'the finish signal was not re-applied');
        const first = await reapplied(noSignals);
        assert.ok(first.includes('WorkflowExecutionUpdateAccepted') && !first.includes('WorkflowExecutionSignaled'), first.join());

        const noUpdates = await base.reset({ type: 'FirstWorkflowTask', resetReapplyExcludeTypes: ['Update'] });
        const withSignal = env.client.workflow.getHandle(h.workflowId, noUpdates);
        assert.equal(await withSignal.result(), 0, 'the finish signal was re-applied, the update was not');
        const second = await reapplied(noUpdates);
        assert.ok(second.includes('WorkflowExecutionSignaled') && !second.includes('WorkflowExecutionUpdateAccepted'), second.join());
        assert.equal((await withUpdate.describe()).status, 'Terminated', 'the second reset ended the open run');

        const neither = await base.reset({ type: 'FirstWorkflowTask', resetReapplyExcludeTypes: ['Signal', 'Update'] });
        const none = await reapplied(neither);
        assert.ok(!none.includes('WorkflowExecutionSignaled') && !none.includes('WorkflowExecutionUpdateAccepted'), none.join());
        await env.client.workflow.getHandle(h.workflowId, neither).terminate('done');

        await assert.rejects(base.reset({ type: 'FirstWorkflowTask', resetReapplyExcludeTypes: ['Signals'] as never }),
          /^ValidationError: resetReapplyExcludeTypes\[0\] must be one of Signal, Update/);
        await assert.rejects(base.reset({ type: 'FirstWorkflowTask', resetReapplyExcludeTypes: ['Signal', 'Signal'] }),
          /^ValidationError: resetReapplyExcludeTypes must name each kind at most once/);
        await assert.rejects(env.client.connection.resetWorkflowExecution({ workflowId: h.workflowId, resetType: 'FirstWorkflowTask', resetReapplyExcludeTypes: ['All'] as never }),
          /resetReapplyExcludeTypes\.0 must be one of Signal, Update|resetReapplyExcludeTypes\[0\] must be one of Signal, Update/);
      });
    });

    for (const type of POINTS) {
      test(`reset to ${type} after a completed update: the new run completes its tasks and keeps the update's effect`, { skip }, async () => {
        const tq = queue(`completed-${type}`);
        const w = await worker(tq);
        const h = await env.client.workflow.start(limiter, { taskQueue: tq, workflowId: `wf-${tq}` });
        await w.runUntil(async () => {
          assert.equal(await h.executeUpdate(setLimit, { args: [5], updateId: 'five' }), 0);
          const fresh = await reset(h, type);
          // Reset to last copies the acceptance and replays the handler, which completes it again; reset to
          // first re-applies the acceptance after the reset point, and the handler runs in the new run.
          await waitFor('the update to complete in the new run', async () => updateCompletions((await fresh.fetchHistory()).events).includes('five'));
          assert.equal(await fresh.executeUpdate(setLimit, { args: [7], updateId: 'seven' }), 5);
          // The repeat of an update id the new run knows answers its outcome.
          assert.equal(await fresh.executeUpdate(setLimit, { args: [7], updateId: 'seven' }), 5);
          await fresh.signal(finish);
          assert.equal(await h.result(), 7);
          assert.deepEqual(failedTasks((await fresh.fetchHistory()).events), []);
        });
      });

      test(`reset to ${type} while an update is accepted and its handler runs: the handler completes it in the new run`, { skip }, async () => {
        const tq = queue(`accepted-${type}`);
        const w = await worker(tq);
        const h = await env.client.workflow.start(limiter, { taskQueue: tq, workflowId: `wf-${tq}` });
        let open!: () => void;
        gate = new Promise((r) => (open = r));
        try {
          await w.runUntil(async () => {
            const u = await h.startUpdate(setLimit, { args: [5], updateId: 'five' });
            await waitForEvent(h, 'ActivityTaskScheduled');
            const fresh = await reset(h, type);
            open();
            await waitFor('the update to complete in the new run', async () => updateCompletions((await fresh.fetchHistory()).events).includes('five'));
            // The caller of the reset run learns that it closed before its update completed.
            await assert.rejects(u.result(), /closed \(Terminated\) before update five completed/);
            assert.equal(await fresh.executeUpdate(setLimit, { args: [7] }), 5);
            await fresh.signal(finish);
            assert.equal(await h.result(), 7);
          });
        } finally {
          gate = undefined;
        }
      });

      test(`reset to ${type} after a rejected update: nothing to carry, the new run goes on`, { skip }, async () => {
        const tq = queue(`rejected-${type}`);
        const w = await worker(tq);
        const h = await env.client.workflow.start(limiter, { taskQueue: tq, workflowId: `wf-${tq}` });
        await w.runUntil(async () => {
          await assert.rejects(h.executeUpdate(setLimit, { args: [-1] }), (err: unknown) => err instanceof WorkflowUpdateFailedError);
          await assert.rejects(h.executeUpdate(setLimit, { args: [13], updateId: 'unlucky' }), /unlucky limit/);
          const fresh = await reset(h, type);
          if (type === 'LastWorkflowTask') {
            // The failed handler's completion was copied: its id answers the same failure.
            await assert.rejects(fresh.executeUpdate(setLimit, { args: [13], updateId: 'unlucky' }), /unlucky limit/);
          }
          assert.equal(await fresh.executeUpdate(setLimit, { args: [2] }), 0);
          await fresh.signal(finish);
          assert.equal(await h.result(), 2);
        });
      });

      test(`reset to ${type} after signals: each signal reaches the new run once, and a repeated request id stays a no-op`, { skip }, async () => {
        const tq = queue(`signals-${type}`);
        const w = await worker(tq);
        const h = await env.client.workflow.start(collector, { taskQueue: tq, workflowId: `wf-${tq}`, args: [0] });
        const repeated = { workflowId: h.workflowId, signalName: 'addItem', args: ['b'], requestId: `b-${tq}` };
        await w.runUntil(async () => {
          await h.signal(addItem, 'a');
          await env.client.connection.signalWorkflowExecution(repeated);
          await waitFor('a workflow task to complete after both signals', async () => {
            const events = (await h.fetchHistory()).events;
            const signaled = events.filter((e) => e.eventType === 'WorkflowExecutionSignaled').at(-1)?.eventId ?? Infinity;
            return events.some((e) => e.eventType === 'WorkflowTaskCompleted' && e.eventId > signaled);
          });
          const fresh = await reset(h, type);
          await env.client.connection.signalWorkflowExecution(repeated);
          await fresh.signal(addItem, 'c');
          await fresh.signal(finish);
          assert.deepEqual(await h.result(), ['a', 'b', 'c']);
        });
      });
    }
  });
}
