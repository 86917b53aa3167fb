/**
 * Temporal users' code, run as written, on SQLite and PostgreSQL: activity ids and cancellation
 * types, Temporal's id reuse policy spellings, the flat describe, upsertMemo, external cancel
 * and child signals, query reject conditions, and the history size limit in bytes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client, QueryRejectCondition, QueryRejectedError, WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowIdReusePolicy,
} from '../../src/client/index.ts';
import { ServiceError, ValidationError } from '../../src/common/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import * as activities from '../fixtures/workflows/composition-activities.ts';
import { PG_URL, dropSchema, freshSchema, pgSkipReason } from '../store/pg-helpers.ts';
import { fixture, types, waitFor, waitForEvent } from './helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

const WORKFLOWS = fixture('temporal-api.ts');
/** Small byte limits, so a few large activity results cross them. */
const LIMITS = { historyWarnBytes: 1024 * 1024, historyMaxBytes: 40_000 };

const backends = [
  { name: 'sqlite', skipReason: async (): Promise<string | false> => false, database: () => undefined },
  { name: 'postgres', skipReason: () => pgSkipReason('Temporal API tests on PostgreSQL'), database: (schema: string) => `${PG_URL}?schema=${schema}` },
];

const scheduledIn = (events: HistoryEvent[], activityType: string) =>
  events.find((e) => e.eventType === 'ActivityTaskScheduled' && e.attributes.activityType === activityType) as HistoryEvent<'ActivityTaskScheduled'>;

for (const backend of backends) {
  describe(`Temporal API on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    const schema = freshSchema('temporal_api');
    let env: TestEnvironment;
    let q = 0;
    const queue = (name: string) => `${backend.name}-${name}-${++q}`;
    const worker = (taskQueue: string) => Worker.create({ address: env.address, taskQueue, workflowsPath: WORKFLOWS, activities, logger: silentLogger });
    before(async () => {
      const database = backend.database(schema);
      if (!skip) env = await TestEnvironment.createTimeSkipping({ limits: LIMITS, ...(database ? { database } : {}) });
    });
    after(async () => {
      await env?.teardown();
      if (!skip && backend.name === 'postgres') await dropSchema(schema);
    });

    for (const type of ['TRY_CANCEL', 'WAIT_CANCELLATION_COMPLETED', 'ABANDON'] as const) {
      test(`activity cancellationType ${type}, with a chosen activityId`, { skip }, async () => {
        const tq = queue(`cancel-${type}`);
        const w = await worker(tq);
        const h = await env.client.workflow.start('cancelTypeFlow', { taskQueue: tq, workflowId: `cancel-${tq}`, args: [type] });
        const result = await w.runUntil(async () => {
          await waitFor('a heartbeat', async () => (await h.describe()).pendingActivities[0]?.lastHeartbeatTime);
          await h.signal('go', 'now');
          return h.result();
        });
        assert.equal(result, `cancelled|A:${type}`);
        const events = (await h.fetchHistory()).events;
        const waiter = scheduledIn(events, 'waitForCancel');
        assert.equal(waiter.attributes.activityId, `waiter-${type}`);
        const after = scheduledIn(events, 'echoA');
        const cancelRequested = events.find((e) => e.eventType === 'ActivityTaskCancelRequested');
        const canceled = events.find((e) => e.eventType === 'ActivityTaskCanceled');
        if (type === 'ABANDON') {
          assert.equal(cancelRequested, undefined, 'no cancel request is sent');
          assert.equal(canceled, undefined);
        } else if (type === 'TRY_CANCEL') {
          assert.ok(cancelRequested?.eventType === 'ActivityTaskCancelRequested');
          assert.equal(after.attributes.workflowTaskCompletedEventId, cancelRequested.attributes.workflowTaskCompletedEventId,
            'the promise rejected in the task that sent the cancel request');
        } else {
          assert.ok(cancelRequested && canceled, 'the cancel was requested and reported');
          assert.ok(after.eventId > canceled.eventId, 'the promise settled only after the activity reported its cancellation');
        }
      });
    }

    test('Temporal id reuse policy spellings on start and signalWithStart; bad values name the option', { skip }, async () => {
      const tq = queue('reuse');
      const w = await worker(tq);
      const workflowId = `reuse-${tq}`;
      const first = await env.client.workflow.start('childAwaitsGo', { taskQueue: tq, workflowId });
      // The worker keeps polling throughout: tasks of the runs terminated below are never left ready.
      await w.runUntil(async () => {
        await first.signal('go', 'x');
        await first.result();
        await assert.rejects(env.client.workflow.start('childAwaitsGo', {
          taskQueue: tq, workflowId, workflowIdReusePolicy: WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
        }), WorkflowExecutionAlreadyStartedError);
        await assert.rejects(env.client.workflow.start('childAwaitsGo', {
          taskQueue: tq, workflowId, workflowIdReusePolicy: 'WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY',
        }), /already completed .* AllowDuplicateFailedOnly/);
        await assert.rejects(env.client.workflow.signalWithStart('childAwaitsGo', {
          taskQueue: tq, workflowId, workflowIdReusePolicy: 'REJECT_DUPLICATE', signal: 'go', signalArgs: ['y'],
        }), WorkflowExecutionAlreadyStartedError);
        const second = await env.client.workflow.start('childAwaitsGo', {
          taskQueue: tq, workflowId, workflowIdReusePolicy: 'WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE',
        });
        const third = await env.client.workflow.start('childAwaitsGo', {
          taskQueue: tq, workflowId, workflowIdReusePolicy: WorkflowIdReusePolicy.TERMINATE_IF_RUNNING,
        });
        assert.equal((await env.client.workflow.getHandle(workflowId, second.firstExecutionRunId).describe()).status, 'Terminated');
        await third.terminate('test over');
      });
      await assert.rejects(
        env.client.workflow.start('childAwaitsGo', { taskQueue: tq, workflowIdReusePolicy: 'REJECT' as never }),
        (err: unknown) => err instanceof ValidationError && /^workflowIdReusePolicy must be one of AllowDuplicate, .* got "REJECT"$/.test(err.message),
      );
    });

    test('describe is flat like Temporal\'s: ids, type, status, Dates, memo, parent, pending work, raw', { skip }, async () => {
      const tq = queue('describe');
      const w = await worker(tq);
      const childId = `describe-child-${tq}`;
      const parent = await env.client.workflow.start('parentOfWaiter', { taskQueue: tq, workflowId: `describe-parent-${tq}`, args: [childId] });
      const waiter = await env.client.workflow.start('cancelTypeFlow', { taskQueue: tq, workflowId: `describe-waiter-${tq}`, args: ['TRY_CANCEL'], memo: { team: 'a' } });
      await w.runUntil(async () => {
        const d = await waitFor('a heartbeat', async () => {
          const x = await waiter.describe();
          return x.pendingActivities[0]?.lastHeartbeatTime ? x : undefined;
        });
        assert.equal(d.type, 'cancelTypeFlow');
        assert.equal(d.workflowId, `describe-waiter-${tq}`);
        assert.equal(d.runId, waiter.firstExecutionRunId);
        assert.equal(d.taskQueue, tq);
        assert.equal(d.status, 'Running');
        assert.ok(d.startTime instanceof Date && d.executionTime instanceof Date);
        assert.equal(d.startTime.getTime(), Date.parse(d.raw.execution.startTime));
        assert.equal(d.closeTime, undefined);
        assert.deepEqual(d.memo, { team: 'a' });
        assert.equal(d.parentExecution, undefined);
        assert.equal(d.historyLength, d.raw.execution.historyLength);
        assert.deepEqual(d.pendingActivities.map((a) => [a.activityId, a.activityType, a.state]), [['waiter-TRY_CANCEL', 'waitForCancel', 'Started']]);
        assert.equal(d.raw.config.workflowTaskTimeoutMs, 10_000);
        const p = await waitFor('the child to start', async () => {
          const x = await parent.describe();
          return x.pendingChildren[0]?.runId ? x : undefined;
        });
        assert.deepEqual(p.pendingChildren.map((c) => [c.workflowId, c.workflowType]), [[childId, 'waitForever']]);
        const child = await env.client.workflow.getHandle(childId).describe();
        assert.deepEqual(child.parentExecution, { workflowId: parent.workflowId, runId: parent.firstExecutionRunId });
        await waiter.signal('go', 'now');
        await waiter.result();
        await parent.terminate('test over');
        await waitFor('the child to close', async () => (await env.client.workflow.getHandle(childId).describe()).status === 'Terminated');
      });
      const closed = await waiter.describe();
      assert.equal(closed.status, 'Completed');
      assert.ok(closed.closeTime instanceof Date && closed.closeTime.getTime() >= closed.startTime.getTime());
    });

    test('upsertMemo: recorded in history, seen by workflowInfo, describe, list and queries', { skip }, async () => {
      const tq = queue('memo');
      const w = await worker(tq);
      const h = await env.client.workflow.start('memoFlow', { taskQueue: tq, workflowId: `memo-${tq}`, memo: { customer: 'c-9', draft: true } });
      const result = await w.runUntil(async () => {
        await waitFor('the first upsert', async () => (await h.describe()).memo?.stage === 'one');
        assert.deepEqual((await h.describe()).memo, { customer: 'c-9', stage: 'one' });
        assert.deepEqual(await h.query('memo'), { customer: 'c-9', stage: 'one' });
        await h.signal('go', 'on');
        return h.result();
      });
      const memo = { customer: 'c-9', stage: 'two', step: 2 };
      assert.deepEqual(result, memo);
      assert.deepEqual((await h.describe()).memo, memo);
      const listed = [];
      for await (const e of env.client.workflow.list({ workflowIdPrefix: `memo-${tq}` })) listed.push(e);
      assert.deepEqual(listed.map((e) => e.memo), [memo]);
      const modified = (await h.fetchHistory()).events.filter((e) => e.eventType === 'WorkflowPropertiesModified');
      assert.deepEqual(modified.map((e) => e.eventType === 'WorkflowPropertiesModified' && e.attributes.upsertedMemo), [
        { stage: 'one', draft: null }, { stage: 'two', step: 2 },
      ]);
    });

    test('getExternalWorkflowHandle().cancel() cancels another workflow, or rejects when it is not found', { skip }, async () => {
      const tq = queue('ext-cancel');
      const w = await worker(tq);
      const target = await env.client.workflow.start('waitForever', { taskQueue: tq, workflowId: `target-${tq}` });
      const [ok, missing, targetErr] = await w.runUntil(async () => {
        await waitForEvent(target, 'WorkflowTaskCompleted');
        const canceller = await env.client.workflow.start('cancelOther', { taskQueue: tq, workflowId: `canceller-${tq}`, args: [target.workflowId] });
        const lost = await env.client.workflow.start('cancelOther', { taskQueue: tq, workflowId: `lost-${tq}`, args: [`nobody-${tq}`] });
        return Promise.all([canceller.result(), lost.result(), target.result().catch((e: unknown) => e)]);
      });
      assert.equal(ok, 'requested');
      assert.equal(missing, 'failed:ExternalWorkflowExecutionNotFound');
      assert.ok(targetErr instanceof WorkflowFailedError && targetErr.status === 'Canceled');
      const sent = types((await env.client.workflow.getHandle(`canceller-${tq}`).fetchHistory()).events);
      assert.ok(sent.includes('RequestCancelExternalWorkflowExecutionInitiated') && sent.includes('ExternalWorkflowExecutionCancelRequested'));
      assert.ok(types((await env.client.workflow.getHandle(`lost-${tq}`).fetchHistory()).events).includes('RequestCancelExternalWorkflowExecutionFailed'));
    });

    test('a child handle signals its child; a child id reuse policy refuses a closed child\'s id', { skip }, async () => {
      const tq = queue('child-signal');
      const w = await worker(tq);
      const childId = `signalled-child-${tq}`;
      const [first, refused, allowed] = await w.runUntil(async () => {
        const a = await env.client.workflow.execute('parentSignalsChild', { taskQueue: tq, workflowId: `p1-${tq}`, args: [childId] });
        const b = await env.client.workflow.execute('parentSignalsChild', {
          taskQueue: tq, workflowId: `p2-${tq}`, args: [childId, 'WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE'],
        });
        const c = await env.client.workflow.execute('parentSignalsChild', { taskQueue: tq, workflowId: `p3-${tq}`, args: [childId, 'AllowDuplicate'] });
        return [a, b, c];
      });
      assert.equal(first, 'child got hello');
      assert.equal(refused, 'failed:WorkflowExecutionAlreadyStarted');
      assert.equal(allowed, 'child got hello');
      const signalled = (await env.client.workflow.getHandle(childId).fetchHistory()).events.find((e) => e.eventType === 'WorkflowExecutionSignaled');
      assert.ok(signalled?.eventType === 'WorkflowExecutionSignaled');
      assert.equal(signalled.attributes.externalWorkflowExecution?.workflowId, `p3-${tq}`);
    });

    test('query reject conditions refuse closed runs with QueryRejectedError; __stack_trace refuses a closed run', { skip }, async () => {
      const tq = queue('query-reject');
      const w = await worker(tq);
      const done = await env.client.workflow.start('memoFlow', { taskQueue: tq, workflowId: `q-done-${tq}` });
      const cancelled = await env.client.workflow.start('waitForever', { taskQueue: tq, workflowId: `q-cancel-${tq}` });
      await w.runUntil(async () => {
        assert.deepEqual(await done.queryWithOptions('memo', { queryRejectCondition: 'NotOpen' }), { stage: 'one' });
        await done.signal('go', 'on');
        await done.result();
        await cancelled.cancel();
        await cancelled.result().catch(() => undefined);
        await assert.rejects(done.queryWithOptions('memo', { queryRejectCondition: QueryRejectCondition.QUERY_REJECT_CONDITION_NOT_OPEN }),
          (err: unknown) => err instanceof QueryRejectedError && err.status === 'Completed' && /rejected: the run is Completed/.test(err.message));
        assert.deepEqual(await done.queryWithOptions('memo', { queryRejectCondition: 'QUERY_REJECT_CONDITION_NOT_COMPLETED_CLEANLY' }), { stage: 'two', step: 2 });
        assert.deepEqual(await done.query('memo'), { stage: 'two', step: 2 }, 'without a condition a closed run is answered');
        await assert.rejects(cancelled.queryWithOptions('__stack_trace', { queryRejectCondition: 'NotCompletedCleanly' }),
          (err: unknown) => err instanceof QueryRejectedError && err.status === 'Canceled');
        await assert.rejects(done.query('__stack_trace'),
          (err: unknown) => err instanceof ServiceError && err.code === 'FailedPrecondition' && /running workflows only; .* is closed \(Completed\)/.test(err.message));
        await assert.rejects(done.queryWithOptions('memo', { queryRejectCondition: 'Closed' as never }),
          (err: unknown) => err instanceof ValidationError && err.field === 'queryRejectCondition');
        const overHttp = new Client({ address: env.address });
        try {
          const remote = overHttp.workflow.getHandle(done.workflowId);
          await assert.rejects(remote.queryWithOptions('memo', { queryRejectCondition: 'NotOpen' }),
            (err: unknown) => err instanceof QueryRejectedError && err.status === 'Completed');
          await assert.rejects(remote.query('__stack_trace'), (err: unknown) => err instanceof ServiceError && err.code === 'FailedPrecondition');
          assert.equal((await remote.describe()).status, 'Completed');
        } finally {
          overHttp.close();
        }
      });
    });

    test('history size in bytes: describe reports it, and a run past historyMaxBytes is terminated', { skip }, async () => {
      const tq = queue('bytes');
      const w = await worker(tq);
      const h = await env.client.workflow.start('memoFlow', { taskQueue: tq, workflowId: `bytes-${tq}`, memo: { big: 'x'.repeat(50_000) } });
      const err = await w.runUntil(h.result().catch((e: unknown) => e));
      assert.ok(err instanceof WorkflowFailedError && err.status === 'Terminated', String(err));
      const events = (await h.fetchHistory()).events;
      const last = events.at(-1)!;
      assert.ok(last.eventType === 'WorkflowExecutionTerminated');
      assert.match(last.attributes.reason, /^history has \d+ bytes, over the limit of 40000 \(historyMaxBytes\)$/);
      const d = await h.describe();
      const counted = events.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e), 'utf8'), 0);
      assert.equal(d.historySize, counted, 'historySize is the bytes of the events as JSON');
    });
  });
}
