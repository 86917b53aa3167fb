import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from '../../src/worker/index.ts';
import type { TestEnvironment } from '../../src/testing/index.ts';
import { WorkflowFailedError } from '../../src/common/index.ts';
import * as activities from '../fixtures/workflows/composition-activities.ts';
import { backends, COMPOSITION, fixture, types, waitFor, waitForEvent } from './helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

for (const backend of backends('composition')) {
  describe(`composition on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    let env: TestEnvironment;
    let q = 0;
    const queue = (name: string) => `${backend.name}-${name}-${++q}`;
    const worker = (taskQueue: string, workflowsPath = COMPOSITION, extra: Record<string, unknown> = {}) =>
      Worker.create({ address: env.address, taskQueue, workflowsPath, activities, logger: silentLogger, ...extra });
    before(async () => {
      if (!skip) env = await backend.env();
    });
    after(async () => {
      await env?.teardown();
      await backend.cleanup();
    });

    test('sideEffect runs once and its recorded result is replayed', { skip }, async () => {
      const tq = queue('side-effect');
      const w = await worker(tq, COMPOSITION, { maxCachedWorkflows: 0 });
      const handle = await env.client.workflow.start('sideEffectFlow', { taskQueue: tq, workflowId: `se-${tq}` });
      assert.equal(await w.runUntil(handle.result()), `A:se|se-se-${tq}`);
      const { events } = await handle.fetchHistory();
      const markers = events.filter((e) => e.eventType === 'MarkerRecorded');
      assert.deepEqual(markers.map((e) => e.eventType === 'MarkerRecorded' && [e.attributes.markerName, e.attributes.details]), [
        ['SideEffect', { seq: 1, result: 'echoA' }], ['SideEffect', { seq: 2, result: `se-se-${tq}` }],
      ]);
      assert.ok(w.workflowStats.replays >= 2, `every task replayed from scratch (replays ${w.workflowStats.replays})`);
    });

    test('patched: an old run replays without the marker and keeps the old path; a new run takes the new one', { skip }, async () => {
      const tq = queue('patch');
      const v1 = await worker(tq, fixture('composition-v1.ts'));
      const old = await env.client.workflow.start('patchFlow', { taskQueue: tq, workflowId: `patch-old-${tq}` });
      const running = v1.run();
      await waitForEvent(old, 'TimerStarted');
      await v1.shutdown();
      await running;
      const v2 = await worker(tq);
      const fresh = await env.client.workflow.start('patchFlow', { taskQueue: tq, workflowId: `patch-new-${tq}` });
      const [a, b] = await v2.runUntil(Promise.all([old.result(), fresh.result()]));
      assert.equal(a, 'old');
      assert.equal(b, 'new');
      const oldEvents = (await old.fetchHistory()).events;
      assert.ok(!types(oldEvents).includes('MarkerRecorded'));
      const marker = (await fresh.fetchHistory()).events.find((e) => e.eventType === 'MarkerRecorded');
      assert.ok(marker?.eventType === 'MarkerRecorded');
      assert.equal(marker.attributes.markerName, 'Version');
      assert.deepEqual(marker.attributes.details, { patchId: 'use-echo-b', deprecated: false });
    });

    test('a child workflow runs to its result; its failure reaches the parent as a ChildWorkflowFailure', { skip }, async () => {
      const tq = queue('child');
      const w = await worker(tq);
      const ok = await env.client.workflow.start('parentFlow', { taskQueue: tq, workflowId: `parent-ok-${tq}`, args: ['ok', `child-ok-${tq}`] });
      const bad = await env.client.workflow.start('parentFlow', { taskQueue: tq, workflowId: `parent-bad-${tq}`, args: ['fail', `child-bad-${tq}`] });
      const results = await w.runUntil(Promise.all([ok.result(), bad.result()]));
      assert.deepEqual(results, [`child:ok:child-ok-${tq}`, 'failed:ChildBoom']);
      assert.deepEqual(types((await ok.fetchHistory()).events).filter((t) => t.includes('Child')), [
        'StartChildWorkflowExecutionInitiated', 'ChildWorkflowExecutionStarted', 'ChildWorkflowExecutionCompleted',
      ]);
      assert.ok(types((await bad.fetchHistory()).events).includes('ChildWorkflowExecutionFailed'));
      const child = await env.client.workflow.getHandle(`child-ok-${tq}`).describe();
      assert.equal(child.parentExecution?.workflowId, `parent-ok-${tq}`);
      assert.equal(child.status, 'Completed');
    });

    test('a child that continues as new is one execution to the parent', { skip }, async () => {
      const tq = queue('child-can');
      const w = await worker(tq);
      const p = await env.client.workflow.start('parentFlow', { taskQueue: tq, workflowId: `parent-can-${tq}`, args: ['continue', `child-can-${tq}`] });
      assert.equal(await w.runUntil(p.result()), `child:continue:child-can-${tq}`);
      const childTypes = types((await p.fetchHistory()).events).filter((t) => t.startsWith('Child'));
      assert.deepEqual(childTypes, ['ChildWorkflowExecutionStarted', 'ChildWorkflowExecutionCompleted']);
      const runs = [];
      for await (const x of env.client.workflow.list({ workflowIdPrefix: `child-can-${tq}` })) runs.push(x.status);
      assert.deepEqual(runs.sort(), ['Completed', 'ContinuedAsNew', 'ContinuedAsNew']);
    });

    test('a child id that is running makes StartChildWorkflowExecutionFailed', { skip }, async () => {
      const tq = queue('child-taken');
      const w = await worker(tq);
      const taken = await env.client.workflow.start('childFlow', { taskQueue: tq, workflowId: `taken-${tq}`, args: ['sleep'] });
      const p = await env.client.workflow.start('parentFlow', { taskQueue: tq, workflowId: `parent-taken-${tq}`, args: ['ok', `taken-${tq}`] });
      assert.equal(await w.runUntil(p.result()), 'failed:WorkflowExecutionAlreadyStarted');
      const failed = (await p.fetchHistory()).events.find((e) => e.eventType === 'StartChildWorkflowExecutionFailed');
      assert.ok(failed?.eventType === 'StartChildWorkflowExecutionFailed');
      assert.equal(failed.attributes.cause, 'WorkflowAlreadyExists');
      await taken.terminate('test over');
    });

    test('parent close policies: Terminate (default), RequestCancel, Abandon', { skip }, async () => {
      const tq = queue('pcp');
      const w = await worker(tq);
      const outcome = await w.runUntil(async () => {
        const out: Record<string, string> = {};
        for (const policy of ['Terminate', 'RequestCancel', 'Abandon'] as const) {
          const childId = `pcp-${policy}-${tq}`;
          await env.client.workflow.execute('parentLeavesChild', { taskQueue: tq, workflowId: `parent-${childId}`, args: [childId, policy] });
          const child = env.client.workflow.getHandle(childId);
          if (policy === 'Abandon') {
            await new Promise((r) => setTimeout(r, 100));
            out[policy] = (await child.describe()).status;
            await child.terminate('test over');
          } else {
            await child.result().catch(() => undefined);
            out[policy] = (await child.describe()).status;
          }
        }
        return out;
      });
      assert.deepEqual(outcome, { Terminate: 'Terminated', RequestCancel: 'Canceled', Abandon: 'Running' });
    });

    test('describe shows the pending child; cancelling the parent cancels the child', { skip }, async () => {
      const tq = queue('cancel-child');
      const w = await worker(tq);
      const childId = `cc-child-${tq}`;
      const p = await env.client.workflow.start('parentAwaitsChild', { taskQueue: tq, workflowId: `cc-parent-${tq}`, args: [childId] });
      const err = await w.runUntil(async () => {
        await waitForEvent(p, 'ChildWorkflowExecutionStarted');
        const d = await p.describe();
        assert.equal(d.pendingChildren.length, 1);
        assert.equal(d.pendingChildren[0]!.workflowId, childId);
        assert.equal(d.pendingChildren[0]!.parentClosePolicy, 'Terminate');
        await p.cancel('stop');
        return p.result().then(() => undefined, (e: unknown) => e);
      });
      assert.ok(err instanceof WorkflowFailedError);
      assert.equal(err.status, 'Canceled');
      assert.equal((await env.client.workflow.getHandle(childId).describe()).status, 'Canceled');
      const ev = types((await p.fetchHistory()).events);
      assert.ok(ev.includes('RequestCancelExternalWorkflowExecutionInitiated'));
      assert.ok(ev.includes('ExternalWorkflowExecutionCancelRequested'));
      assert.ok(ev.includes('ChildWorkflowExecutionCanceled'));
      assert.deepEqual((await p.describe()).pendingChildren, []);
    });

    test('continue-as-new: same id, new run ids, fresh histories, chain links, result follows the chain', { skip }, async () => {
      const tq = queue('can');
      const w = await worker(tq);
      const h = await env.client.workflow.start('loopFlow', { taskQueue: tq, workflowId: `loop-${tq}`, args: [2] });
      assert.equal(await w.runUntil(h.result()), 3);
      const first = await env.client.workflow.getHandle(`loop-${tq}`, h.firstExecutionRunId).describe();
      const second = await env.client.workflow.getHandle(`loop-${tq}`, first.raw.continuedAsNewToRunId).describe();
      const third = await env.client.workflow.getHandle(`loop-${tq}`, second.raw.continuedAsNewToRunId).describe();
      assert.equal(first.status, 'ContinuedAsNew');
      assert.equal(second.raw.continuedFromRunId, first.runId);
      assert.equal(third.raw.continuedFromRunId, second.runId);
      assert.equal(third.raw.continuedAsNewToRunId, undefined);
      assert.equal(third.status, 'Completed');
      assert.equal(new Set([first, second, third].map((d) => d.runId)).size, 3);
      assert.equal(third.raw.execution.firstExecutionRunId, first.runId);
      const hist = (await env.client.workflow.getHandle(`loop-${tq}`, third.runId).fetchHistory()).events;
      assert.equal(hist[0]!.eventType, 'WorkflowExecutionStarted');
      assert.ok(hist.length < 15, `fresh history, got ${hist.length} events`);
    });

    test('cancel reaches the root scope: the heartbeating activity is aborted, cleanup runs, the run closes Canceled', { skip }, async () => {
      const tq = queue('cancel');
      const w = await worker(tq);
      const h = await env.client.workflow.start('cancellableFlow', { taskQueue: tq, workflowId: `cancel-${tq}` });
      activities.calls.length = 0;
      const err = await w.runUntil(async () => {
        await waitFor('the activity to heartbeat', async () => (await h.describe()).pendingActivities[0]?.lastHeartbeatTime);
        await h.cancel('enough');
        return h.result().then(() => undefined, (e: unknown) => e);
      });
      assert.ok(err instanceof WorkflowFailedError && err.status === 'Canceled');
      assert.ok(activities.calls.includes('cancelled:c'), activities.calls.join());
      assert.ok(activities.calls.includes('echoA:cleanup'), activities.calls.join());
      const ev = types((await h.fetchHistory()).events);
      assert.ok(ev.includes('ActivityTaskCancelRequested'));
      assert.equal(ev.at(-1), 'WorkflowExecutionCanceled');
    });

    test('reset: the open run is terminated, a new run replays up to the reset point, re-applies later signals and continues', { skip }, async () => {
      const tq = queue('reset');
      const w = await worker(tq);
      const h = await env.client.workflow.start('resetSignalFlow', { taskQueue: tq, workflowId: `reset-${tq}` });
      const result = await w.runUntil(async () => {
        await waitForEvent(h, 'TimerStarted');
        await h.signal('addItem', 'a');
        await waitFor('the signal to be handled', async () =>
          (await h.fetchHistory()).events.filter((e) => e.eventType === 'WorkflowTaskCompleted').length === 2);
        const newRunId = await h.reset({ type: 'FirstWorkflowTask', reason: 'test' });
        const fresh = env.client.workflow.getHandle(`reset-${tq}`, newRunId);
        await waitFor('the new run to start its timer', async () =>
          (await fresh.fetchHistory()).events.filter((e) => e.eventType === 'TimerStarted').length === 1);
        await fresh.signal('addItem', 'b');
        return { value: await h.result(), newRunId };
      });
      assert.equal(result.value, 'a,b');
      const old = await env.client.workflow.getHandle(`reset-${tq}`, h.firstExecutionRunId).describe();
      assert.equal(old.status, 'Terminated');
      const fresh = env.client.workflow.getHandle(`reset-${tq}`, result.newRunId);
      const d = await fresh.describe();
      assert.equal(d.status, 'Completed');
      assert.equal(d.raw.execution.firstExecutionRunId, result.newRunId);
      assert.equal(d.raw.execution.originalExecutionRunId, old.raw.execution.originalExecutionRunId);
      const ev = (await fresh.fetchHistory()).events;
      assert.deepEqual(types(ev).slice(0, 6), [
        'WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskFailed', 'WorkflowExecutionSignaled', 'WorkflowTaskScheduled',
      ]);
      const failed = ev[3]!;
      assert.ok(failed.eventType === 'WorkflowTaskFailed' && failed.attributes.cause === 'ResetWorkflow');
    });
  });
}
