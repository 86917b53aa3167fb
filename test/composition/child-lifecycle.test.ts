import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from '../../src/worker/index.ts';
import type { TestEnvironment } from '../../src/testing/index.ts';
import { WorkflowNotFoundError } from '../../src/common/index.ts';
import * as activities from '../fixtures/workflows/composition-activities.ts';
import { backends, COMPOSITION, types, waitFor, waitForEvent } from './helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

for (const backend of backends('child_lifecycle')) {
  describe(`child lifecycle on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    let env: TestEnvironment;
    let q = 0;
    const queue = (name: string) => `${backend.name}-${name}-${++q}`;
    before(async () => {
      if (!skip) env = await backend.env();
    });
    after(async () => {
      await env?.teardown();
      await backend.cleanup();
    });

    test('a child initiated but not started when its parent closes: Abandon still starts it, Terminate and RequestCancel drop it', { skip }, async () => {
      const tq = queue('unstarted');
      const w = await Worker.create({ address: env.address, taskQueue: tq, workflowsPath: COMPOSITION, activities, logger: silentLogger });
      const childId = (policy: string) => `unstarted-${policy}-${tq}`;
      const result = await w.runUntil(async () => {
        for (const policy of ['Terminate', 'RequestCancel', 'Abandon'] as const) {
          const parent = await env.client.workflow.start('parentClosesBeforeChildStarts', {
            taskQueue: tq, workflowId: `parent-${childId(policy)}`, args: [childId(policy), policy],
          });
          assert.equal(await parent.result(), 'closed');
          const ev = types((await parent.fetchHistory()).events);
          assert.ok(ev.includes('StartChildWorkflowExecutionInitiated') && !ev.includes('ChildWorkflowExecutionStarted'), ev.join());
        }
        const child = env.client.workflow.getHandle(childId('Abandon'));
        await waitFor('the abandoned child to start', () => child.describe().then(() => true, () => false));
        return child.result();
      });
      assert.equal(result, `child:ok:${childId('Abandon')}`);
      const abandoned = await env.client.workflow.getHandle(childId('Abandon')).describe();
      assert.equal(abandoned.parentExecution?.workflowId, `parent-${childId('Abandon')}`);
      for (const policy of ['Terminate', 'RequestCancel']) {
        await assert.rejects(env.client.workflow.getHandle(childId(policy)).describe(), WorkflowNotFoundError, `${policy} child must not start`);
      }
    });

    test('reset after a child started: the child moves to the new run, which completes with its result', { skip }, async () => {
      const tq = queue('reset-child');
      const w = await Worker.create({ address: env.address, taskQueue: tq, workflowsPath: COMPOSITION, activities, logger: silentLogger });
      const childId = `reset-child-${tq}`;
      const p = await env.client.workflow.start('parentAwaitsFinishingChild', { taskQueue: tq, workflowId: `reset-parent-${tq}`, args: [childId] });
      const child = env.client.workflow.getHandle(childId);
      const out = await w.runUntil(async () => {
        const started = await waitForEvent(p, 'ChildWorkflowExecutionStarted');
        const point = await waitFor('the task after the child started', async () =>
          (await p.fetchHistory()).events.find((e) => e.eventType === 'WorkflowTaskCompleted' && e.eventId > started.eventId));
        const newRunId = await p.reset({ eventId: point.eventId, reason: 'test' });
        await waitFor('the new run to replay', async () =>
          (await env.client.workflow.getHandle(p.workflowId, newRunId).fetchHistory()).events.some((e) => e.eventType === 'WorkflowTaskCompleted' && e.eventId > point.eventId));
        await child.signal('finish', 'x');
        return { value: await p.result(), newRunId };
      });
      assert.equal(out.value, 'parent:finished:x');
      const d = await child.describe();
      assert.equal(d.status, 'Completed', 'the reset applied no parent close policy to the moved child');
      assert.equal(d.parentExecution?.runId, out.newRunId);
      const old = await env.client.workflow.getHandle(p.workflowId, p.firstExecutionRunId).describe();
      assert.equal(old.status, 'Terminated');
      const fresh = env.client.workflow.getHandle(p.workflowId, out.newRunId);
      assert.equal((await fresh.describe()).status, 'Completed');
      const ev = types((await fresh.fetchHistory()).events).filter((t) => t.includes('Child'));
      assert.deepEqual(ev, ['StartChildWorkflowExecutionInitiated', 'ChildWorkflowExecutionStarted', 'ChildWorkflowExecutionCompleted']);
    });
  });
}
