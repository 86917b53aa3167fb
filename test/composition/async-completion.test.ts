/**
 * Asynchronous activity completion, written as Temporal's docs show it, on SQLite and PostgreSQL:
 * the activity saves its task token and throws CompleteAsyncError; another client completes,
 * fails, cancels or heartbeats it by token or by `{ workflowId, runId, activityId }`. Forged and
 * stale tokens and unknown ids are refused with ActivityNotFoundError; an attempt left open times
 * out by its heartbeat timeout and is retried.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ActivityCancelledError, ActivityNotFoundError, Client, type WorkflowHandle,
} from '../../src/client/index.ts';
import { ApplicationFailure, ValidationError } from '../../src/common/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import * as activities from '../fixtures/workflows/async-completion-activities.ts';
import { PG_URL, dropSchema, freshSchema, pgSkipReason } from '../store/pg-helpers.ts';
import { fixture, waitFor, waitForEvent } from './helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

const WORKFLOWS = fixture('async-completion.ts');

const backends = [
  { name: 'sqlite', skipReason: async (): Promise<string | false> => false, database: () => undefined },
  { name: 'postgres', skipReason: () => pgSkipReason('async completion tests on PostgreSQL'), database: (schema: string) => `${PG_URL}?schema=${schema}` },
];

const notFound = (err: unknown) => err instanceof ActivityNotFoundError;
const eventOf = (events: HistoryEvent[], type: string) => events.find((e) => e.eventType === type);

for (const backend of backends) {
  describe(`async activity completion on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    const schema = freshSchema('async_completion');
    let env: TestEnvironment;
    /** The "payment provider": a client of its own, apart from the one that starts workflows. */
    let provider: Client;
    let q = 0;
    const queue = (name: string) => `${backend.name}-${name}-${++q}`;
    const worker = (taskQueue: string, maxConcurrentActivityTaskExecutions = 10) => Worker.create({
      address: env.address, taskQueue, workflowsPath: WORKFLOWS, activities, logger: silentLogger, maxConcurrentActivityTaskExecutions,
    });
    const tokenOf = (h: WorkflowHandle, attempt = 1) =>
      waitFor(`attempt ${attempt}'s task token of ${h.workflowId}`, async () => activities.tokens.get(h.workflowId)?.[attempt - 1]);

    before(async () => {
      const database = backend.database(schema);
      if (skip) return;
      env = await TestEnvironment.createTimeSkipping(database ? { database } : {});
      provider = new Client({ address: env.address, identity: 'payment-provider' });
    });
    after(async () => {
      provider?.close();
      await env?.teardown();
      if (!skip && backend.name === 'postgres') await dropSchema(schema);
    });

    test('a client completes by task token what the activity left open; the worker frees its slot and reports nothing', { skip }, async () => {
      const tq = queue('complete');
      const w = await worker(tq, 1);
      const [a, b] = await Promise.all(['a', 'b'].map((o) => env.client.workflow.start('charge', { taskQueue: tq, workflowId: `${tq}-${o}`, args: [o] })));
      const results = await w.runUntil(async () => {
        // One slot: the second attempt runs only because the first one's slot was freed.
        const [ta, tb] = await Promise.all([tokenOf(a!), tokenOf(b!)]);
        assert.ok(ta instanceof Uint8Array && tb instanceof Uint8Array);
        await provider.activity.complete(ta, 'receipt-a');
        await provider.activity.complete(tb, { receipt: 'b' });
        return Promise.all([a!.result(), b!.result()]);
      });
      assert.deepEqual(results, ['receipt-a', { receipt: 'b' }]);
      const events = (await a!.fetchHistory()).events;
      assert.equal(eventOf(events, 'ActivityTaskFailed'), undefined);
      const completed = eventOf(events, 'ActivityTaskCompleted') as HistoryEvent<'ActivityTaskCompleted'>;
      assert.equal(completed.attributes.identity, 'payment-provider');

      const stale = (await tokenOf(a!))!;
      await assert.rejects(provider.activity.complete(stale, 'again'), notFound, 'a token of a closed activity is refused');
      await assert.rejects(provider.activity.heartbeat(stale), notFound);
      await assert.rejects(provider.activity.fail(stale, new Error('late')), notFound);
    });

    test('fail by token: the workflow sees an ActivityFailure caused by the ApplicationFailure', { skip }, async () => {
      const tq = queue('fail');
      const w = await worker(tq);
      const h = await env.client.workflow.start('charge', { taskQueue: tq, workflowId: tq, args: ['o-1'] });
      const result = await w.runUntil(async () => {
        await provider.activity.fail(await tokenOf(h), ApplicationFailure.create({ type: 'CardDeclined', message: 'card declined', details: ['insufficient funds'] }));
        return h.result();
      });
      assert.equal(result, 'failed:CardDeclined:card declined:["insufficient funds"]');
    });

    test('complete, heartbeat and fail by { workflowId, runId?, activityId }', { skip }, async () => {
      const tq = queue('by-id');
      const w = await worker(tq);
      const first = await env.client.workflow.start('charge', { taskQueue: tq, workflowId: `${tq}-1`, args: ['o-1'] });
      const second = await env.client.workflow.start('charge', { taskQueue: tq, workflowId: `${tq}-2`, args: ['o-2'] });
      const results = await w.runUntil(async () => {
        await Promise.all([tokenOf(first), tokenOf(second)]);
        const { activityId } = (await first.describe()).pendingActivities[0]!;
        await provider.activity.heartbeat({ workflowId: first.workflowId, activityId }, { step: 1 });
        assert.deepEqual((await first.describe()).pendingActivities[0]!.heartbeatDetails, { step: 1 });
        await provider.activity.complete({ workflowId: first.workflowId, runId: first.firstExecutionRunId!, activityId }, 'by id');
        await provider.activity.fail({ workflowId: second.workflowId, activityId }, ApplicationFailure.nonRetryable('no stock', 'OutOfStock'));
        return Promise.all([first.result(), second.result()]);
      });
      assert.deepEqual(results, ['by id', 'failed:OutOfStock:no stock:[]']);
      const { activityId } = (eventOf((await first.fetchHistory()).events, 'ActivityTaskScheduled') as HistoryEvent<'ActivityTaskScheduled'>).attributes;
      await assert.rejects(provider.activity.complete({ workflowId: first.workflowId, activityId }, 'again'), notFound, 'a closed activity');
      await assert.rejects(provider.activity.complete({ workflowId: `${tq}-nobody`, activityId }, 'x'), notFound, 'an unknown workflow');
      await assert.rejects(provider.activity.heartbeat({ workflowId: first.workflowId, activityId: 'no-such-activity' }), notFound);
    });

    test('a forged or altered token is refused; bad arguments name the field', { skip }, async () => {
      const tq = queue('forged');
      const w = await worker(tq);
      const h = await env.client.workflow.start('charge', { taskQueue: tq, workflowId: tq, args: ['o-1'] });
      await w.runUntil(async () => {
        const token = Buffer.from(await tokenOf(h)).toString('utf8');
        const [key, body, mac] = token.split('.') as [string, string, string];
        const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
        claims[4] = Number(claims[4]) + 1;
        const altered = `${key}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${mac}`;
        for (const forged of [altered, `${key}.${body}.${Buffer.from('x'.repeat(32)).toString('base64url')}`, 'not-a-token']) {
          await assert.rejects(provider.activity.complete(Buffer.from(forged), 'stolen'), notFound, forged);
        }
        await assert.rejects(provider.activity.complete(new Uint8Array(0), 'x'),
          (err) => err instanceof ValidationError && err.field === 'taskTokenOrFullActivityId');
        await assert.rejects(provider.activity.complete({ workflowId: tq } as never, 'x'),
          (err) => err instanceof ValidationError && err.field === 'taskTokenOrFullActivityId.activityId');
        await assert.rejects(provider.activity.complete('a string' as never, 'x'),
          (err) => err instanceof ValidationError && err.field === 'taskTokenOrFullActivityId');
        assert.equal((await h.describe()).pendingActivities[0]!.state, 'Started', 'the refused calls changed nothing');
        await provider.activity.complete(await tokenOf(h), 'paid');
        assert.equal(await h.result(), 'paid');
      });
    });

    test('reportCancellation after the workflow asked to cancel; heartbeat throws ActivityCancelledError', { skip }, async () => {
      const tq = queue('cancel');
      const w = await worker(tq);
      const h = await env.client.workflow.start('cancellableCharge', { taskQueue: tq, workflowId: tq, args: ['o-1'] });
      const result = await w.runUntil(async () => {
        const token = await tokenOf(h);
        await provider.activity.heartbeat(token, 'working');
        await h.signal('stop');
        await waitForEvent(h, 'ActivityTaskCancelRequested');
        await assert.rejects(provider.activity.heartbeat(token, 'still working'), (err) => err instanceof ActivityCancelledError);
        await provider.activity.reportCancellation(token, 'refunded');
        return h.result();
      });
      assert.equal(result, 'cancelled');
      const canceled = eventOf((await h.fetchHistory()).events, 'ActivityTaskCanceled') as HistoryEvent<'ActivityTaskCanceled'>;
      assert.equal(canceled.attributes.details, 'refunded');
    });

    test('a heartbeat by token pushes the heartbeat timeout back; an attempt left open times out and is retried, its token then stale', { skip }, async () => {
      const tq = queue('timeouts');
      const w = await worker(tq);
      const h = await env.client.workflow.start('chargeWithTimeouts', { taskQueue: tq, workflowId: tq, args: ['o-1'] });
      const result = await w.runUntil(async () => {
        const first = await tokenOf(h);
        const started = env.now();
        await env.sleep('800ms');
        await provider.activity.heartbeat(first, { progress: 80 });
        await env.sleep('700ms');
        let pending = (await h.describe()).pendingActivities[0]!;
        assert.equal(env.now() - started, 1500);
        assert.deepEqual([pending.attempt, pending.state], [1, 'Started'], 'past the 1s heartbeat timeout of the start, not of the heartbeat');
        await env.sleep('400ms');
        pending = (await h.describe()).pendingActivities[0]!;
        assert.equal(pending.attempt, 2, 'timed out 1s after the heartbeat');
        assert.equal(pending.lastFailure?.timeoutType, 'Heartbeat');
        await assert.rejects(provider.activity.heartbeat(first), notFound, 'the timed-out attempt');
        await env.sleep('1s');
        const second = await tokenOf(h, 2);
        await assert.rejects(provider.activity.complete(first, 'late'), notFound, 'the first attempt\'s token, after a retry started');
        await provider.activity.complete(second, 'second attempt');
        return h.result();
      });
      assert.equal(result, 'second attempt');
    });
  });
}
