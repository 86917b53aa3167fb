/**
 * Temporal's enum objects and spellings as values, on SQLite and PostgreSQL: parent close
 * policies and child cancellation types run by a real worker, schedule overlap policies.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildWorkflowCancellationType, ParentClosePolicy, ScheduleOverlapPolicy } from '../../src/client/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import type { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { backends, fixture, types } from '../composition/helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

const workflowsPath = fixture('temporal-enums.ts');
const HOUR = 3_600_000;

async function withWorker<T>(env: TestEnvironment, taskQueue: string, fn: () => Promise<T>): Promise<T> {
  const worker = await Worker.create({ address: env.address, taskQueue, workflowsPath, logger: silentLogger });
  return worker.runUntil(fn);
}

const initiated = (events: HistoryEvent[]) =>
  events.find((e) => e.eventType === 'StartChildWorkflowExecutionInitiated') as HistoryEvent<'StartChildWorkflowExecutionInitiated'>;

for (const backend of backends('temporal_enums')) {
  describe(`Temporal's enums as values on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    after(() => backend.cleanup());

    // ParentClosePolicy existed only as a type, and its values were refused.
    for (const [spelling, policy] of [
      ['ParentClosePolicy.ABANDON', ParentClosePolicy.ABANDON], ["'ABANDON'", 'ABANDON'], ["'PARENT_CLOSE_POLICY_ABANDON'", 'PARENT_CLOSE_POLICY_ABANDON'],
    ] as const) {
      test(`a child started with parentClosePolicy ${spelling} runs on after its parent closes`, { skip }, async () => {
        const env = await backend.env();
        try {
          const parent = await env.client.workflow.start('leaveChild', { taskQueue: 'pcp', workflowId: 'parent', args: ['child', policy] });
          const childRunId = await withWorker(env, 'pcp', async () => {
            const runId = await parent.result() as string;
            await env.sleep('1 minute');
            return runId;
          });
          assert.equal(initiated((await parent.fetchHistory()).events).attributes.parentClosePolicy, 'Abandon');
          const child = env.client.workflow.getHandle('child', childRunId);
          assert.equal((await child.describe()).status, 'Running', 'the closed parent left its child running');
          await child.terminate('checked');
        } finally {
          await env.teardown();
        }
      });
    }

    test("a child started with parentClosePolicy 'PARENT_CLOSE_POLICY_TERMINATE' is terminated with its parent", { skip }, async () => {
      const env = await backend.env();
      try {
        const parent = await env.client.workflow.start('leaveChild', {
          taskQueue: 'pcp-t', workflowId: 'parent', args: ['child', 'PARENT_CLOSE_POLICY_TERMINATE'],
        });
        await withWorker(env, 'pcp-t', async () => {
          await parent.result();
          await env.sleep('1 minute');
        });
        assert.equal((await env.client.workflow.getHandle('child').describe()).status, 'Terminated');
      } finally {
        await env.teardown();
      }
    });

    // ChildWorkflowCancellationType did not exist: every child was waited on until it closed.
    const expectations: Record<keyof typeof ChildWorkflowCancellationType, { wait: 'none' | 'close'; request: boolean }> = {
      ABANDON: { wait: 'none', request: false },
      TRY_CANCEL: { wait: 'none', request: true },
      WAIT_CANCELLATION_REQUESTED: { wait: 'none', request: true },
      WAIT_CANCELLATION_COMPLETED: { wait: 'close', request: true },
    };
    for (const [type, expect] of Object.entries(expectations) as [keyof typeof ChildWorkflowCancellationType, typeof expectations.ABANDON][]) {
      test(`child cancellationType ${type}: ${expect.request ? 'the child is asked to cancel' : 'no cancel request'}, `
        + `result() rejects ${expect.wait === 'close' ? 'once the child closed' : 'without waiting for the child to close'}`, { skip }, async () => {
        const env = await backend.env();
        try {
          const tq = `cct-${type}`;
          const parent = await env.client.workflow.start('cancelChild', { taskQueue: tq, workflowId: 'parent', args: ['child', type] });
          const outcome = await withWorker(env, tq, async () => {
            const r = await parent.result() as string;
            await env.sleep('1 minute');
            return r;
          });
          const waited = Number(/^cancelled after (\d+)$/.exec(outcome)?.[1]);
          assert.ok(Number.isFinite(waited), outcome);
          if (expect.wait === 'close') assert.ok(waited >= HOUR, `waited ${waited} ms for the child's hour of cleanup`);
          else assert.ok(waited < HOUR, `rejected after ${waited} ms, before the child closed`);
          const child = env.client.workflow.getHandle('child');
          const childEvents = types((await child.fetchHistory()).events);
          assert.equal(childEvents.includes('WorkflowExecutionCancelRequested'), expect.request, childEvents.join(' '));
          const parentEvents = types((await parent.fetchHistory()).events);
          if (type === 'WAIT_CANCELLATION_REQUESTED') {
            assert.ok(parentEvents.indexOf('ExternalWorkflowExecutionCancelRequested') >= 0, parentEvents.join(' '));
          }
          if (expect.wait !== 'close') await child.terminate('checked');
        } finally {
          await env.teardown();
        }
      });
    }

    // ScheduleOverlapPolicy existed only as a type, with steadfast's names.
    test('schedule overlap policies take Temporal\'s spellings on create, update, trigger and backfill, and name a bad one', { skip }, async () => {
      const env = await backend.env();
      try {
        const action = { type: 'startWorkflow' as const, workflowType: 'slowToCancel', taskQueue: 'nobody', workflowId: 'job' };
        const h = await env.client.schedule.create({
          scheduleId: 's', spec: { intervals: [{ every: '1h' }] }, action, policies: { overlap: ScheduleOverlapPolicy.BUFFER_ONE },
        });
        assert.equal((await h.describe()).policies.overlap, 'BufferOne');
        await h.update((prev) => ({ ...prev, policies: { ...prev.policies, overlap: 'SCHEDULE_OVERLAP_POLICY_ALLOW_ALL' } }));
        assert.equal((await h.describe()).policies.overlap, 'AllowAll');
        await h.update((prev) => ({ ...prev, policies: { ...prev.policies, overlap: 'TERMINATE_OTHER' } }));
        assert.equal((await h.describe()).policies.overlap, 'TerminateOther');
        await h.trigger(ScheduleOverlapPolicy.ALLOW_ALL);
        const now = await env.currentTimeMs();
        await h.backfill({ start: new Date(now - 2 * HOUR), end: new Date(now), overlap: 'BUFFER_ALL' });
        await assert.rejects(h.trigger('BUFFER_TWO' as never), /^ValidationError: overlap must be one of Skip, BufferOne, BufferAll, CancelOther, TerminateOther, AllowAll \(or Temporal's SKIP, BUFFER_ONE, BUFFER_ALL, CANCEL_OTHER, TERMINATE_OTHER, ALLOW_ALL, also as SCHEDULE_OVERLAP_POLICY_…\), got "BUFFER_TWO"$/);
        await assert.rejects(env.client.schedule.create({ scheduleId: 't', spec: { intervals: [{ every: '1h' }] }, action, policies: { overlap: 'skip' as never } }),
          /policies\.overlap must be one of/);
        await h.delete();
      } finally {
        await env.teardown();
      }
    });
  });
}
