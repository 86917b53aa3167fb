/**
 * Search attributes from workflow code, on SQLite and PostgreSQL through the public API:
 * upsertSearchAttributes seen by workflowInfo, describe, list and queries; refused names and
 * types failing the workflow task (BadSearchAttributes) with the run left open; replay; child
 * workflows started with attributes; continue-as-new and retries carrying the current ones.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '../../src/client/index.ts';
import { DeterminismViolationError } from '../../src/common/errors.ts';
import { Replayer, type TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { silentLogger } from '../helpers/logger.ts';
import { backends, fixture, waitFor } from './helpers.ts';

const WORKFLOWS = fixture('search-attributes.ts');
const ATTRIBUTES = [['CustomerId', 'Keyword'], ['Tags', 'KeywordList'], ['Amount', 'Int'], ['Due', 'Datetime'], ['Vip', 'Bool']] as const;

for (const backend of backends('upsert_attrs')) {
  describe(`search attributes from workflow code on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    let env: TestEnvironment;
    let q = 0;
    const queue = (name: string) => `${backend.name}-${name}-${++q}`;
    const worker = (taskQueue: string) => Worker.create({ address: env.address, taskQueue, workflowsPath: WORKFLOWS, logger: silentLogger });
    /** Workflow ids a query lists, among the runs of one task queue. */
    const listed = async (tq: string, query: string) => {
      const ids: string[] = [];
      for await (const e of env.client.workflow.list({ query: `TaskQueue = '${tq}' AND ${query}` })) ids.push(e.workflowId);
      return ids;
    };
    before(async () => {
      if (skip) return;
      env = await backend.env();
      for (const [name, type] of ATTRIBUTES) await env.client.searchAttributes.create({ name, type });
    });
    after(async () => {
      await env?.teardown();
      await backend.cleanup();
    });

    test('upsertSearchAttributes: recorded, seen by workflowInfo and queries at once, by describe and list after the task', { skip }, async () => {
      const tq = queue('upsert');
      const w = await worker(tq);
      const h = await env.client.workflow.start('upsertFlow', { taskQueue: tq, workflowId: `upsert-${tq}`, searchAttributes: { Vip: true } });
      const seen = await w.runUntil(async () => {
        await waitFor('the first upsert', async () => (await h.describe()).searchAttributes?.CustomerId === 'c2');
        assert.deepEqual((await h.describe()).searchAttributes, { Vip: true, CustomerId: 'c2', Tags: ['red', 'big'], Amount: 5 });
        assert.deepEqual(await listed(tq, "CustomerId = 'c2'"), [h.workflowId]);
        assert.deepEqual(await listed(tq, "Tags = 'red' AND Amount = 5"), [h.workflowId]);
        assert.deepEqual(await h.query('searchAttributes'), { Vip: true, CustomerId: 'c2', Tags: ['red', 'big'], Amount: [5] });
        await h.signal('go');
        return h.result();
      });
      assert.deepEqual(seen, [
        { Vip: true },
        { Vip: true, CustomerId: 'c2', Tags: ['red', 'big'], Amount: [5] },
        { Vip: true, CustomerId: 'c2', Amount: [5], Due: '2026-03-01T00:00:00.000Z' },
      ], 'workflowInfo shows each upsert at once, values as given');
      assert.deepEqual((await h.describe()).searchAttributes, { Vip: true, CustomerId: 'c2', Amount: 5, Due: '2026-03-01T00:00:00.000Z' });
      assert.deepEqual(await listed(tq, "Tags = 'red'"), [], '[] removed Tags');
      assert.deepEqual(await listed(tq, "Due = '2026-03-01T01:00:00+01:00' AND ExecutionStatus = 'Completed'"), [h.workflowId]);
      const upserts = (await h.fetchHistory()).events.flatMap((e) => (e.eventType === 'UpsertWorkflowSearchAttributes' ? [e.attributes] : []));
      assert.deepEqual(upserts.map((a) => a.searchAttributes), [
        { CustomerId: 'c2', Tags: ['red', 'big'], Amount: 5 }, { Tags: null, Due: '2026-03-01T00:00:00.000Z' },
      ]);
    });

    test('an unregistered or built-in name, or a value of the wrong type, fails the workflow task and leaves the run open until fixed', { skip }, async () => {
      const tq = queue('bad');
      const w = await worker(tq);
      const cases = [
        [{ Nope: 'x' }, 'upsertSearchAttributes.Nope is not a registered search attribute of this namespace, got "x"'],
        [{ Amount: 'lots' }, 'upsertSearchAttributes.Amount is an Int attribute and must be an integer between -(2^53 - 1) and 2^53 - 1, got "lots"'],
        [{ Amount: [1, 2] }, 'upsertSearchAttributes.Amount is an Int attribute and takes a single value, got array of 2'],
        [{ WorkflowId: 'x' }, 'upsertSearchAttributes.WorkflowId is a built-in attribute and cannot be set, got "x"'],
        [{ ExecutionStatus: [] }, 'upsertSearchAttributes.ExecutionStatus is a built-in attribute and cannot be set'],
      ] as const;
      await w.runUntil(async () => {
        for (const [i, [attributes, message]] of cases.entries()) {
          const h = await env.client.workflow.start('upsertGiven', { taskQueue: tq, workflowId: `bad-${i}-${tq}`, args: [attributes] });
          const d = await waitFor('the failed task', async () => {
            const x = await h.describe();
            return x.pendingWorkflowTask?.lastFailure ? x : undefined;
          });
          assert.equal(d.status, 'Running');
          assert.equal(d.pendingWorkflowTask!.lastFailure!.cause, 'BadSearchAttributes');
          assert.ok(d.pendingWorkflowTask!.lastFailure!.message.startsWith(message), d.pendingWorkflowTask!.lastFailure!.message);
          assert.equal(d.searchAttributes, undefined, 'nothing was applied');
          const failed = (await h.fetchHistory()).events.find((e) => e.eventType === 'WorkflowTaskFailed');
          assert.ok(failed?.eventType === 'WorkflowTaskFailed' && failed.attributes.cause === 'BadSearchAttributes');
          await h.terminate('checked');
        }
        const late = await env.client.workflow.start('upsertGiven', { taskQueue: tq, workflowId: `late-${tq}`, args: [{ LateName: 'x' }] });
        await waitFor('the failed task', async () => (await late.describe()).pendingWorkflowTask?.lastFailure);
        await env.client.searchAttributes.create({ name: 'LateName', type: 'Keyword' });
        await env.sleep('10m'); // the longest delay between attempts of a failing workflow task
        await waitFor('the retried task', async () => (await late.describe()).searchAttributes?.LateName === 'x');
        await late.signal('go');
        assert.deepEqual(await late.result(), { LateName: 'x' }, 'registering the attribute lets the retried task through');
      });
    });

    test('a history with upserts replays; code that no longer upserts fails replay with a non-determinism error', { skip }, async () => {
      const tq = queue('replay');
      const w = await worker(tq);
      const h = await env.client.workflow.start('upsertFlow', { taskQueue: tq, workflowId: `replay-${tq}` });
      await w.runUntil(async () => {
        await waitFor('the first upsert', async () => (await h.describe()).searchAttributes !== undefined);
        await h.signal('go');
        await h.result();
      });
      const history = await h.fetchHistory();
      await Replayer.replayHistory(history, { workflowsPath: WORKFLOWS });
      await assert.rejects(Replayer.replayHistory(history, { workflowsPath: fixture('search-attributes-no-upsert.ts') }), (err: unknown) => {
        assert.ok(err instanceof DeterminismViolationError, String(err));
        assert.match(err.message, /UpsertWorkflowSearchAttributes/);
        return true;
      });
    });

    test('a child starts with the searchAttributes option; bad ones fail the parent\'s task', { skip }, async () => {
      const tq = queue('child');
      const w = await worker(tq);
      const childId = `child-${tq}`;
      const [seen, bad] = await w.runUntil(async () => {
        const seenByChild = await env.client.workflow.execute('parentWithAttributes', {
          taskQueue: tq, workflowId: `parent-${tq}`, args: [childId, { CustomerId: 'c-child', Amount: [7], Tags: [] }],
        });
        const refused = await env.client.workflow.start('parentWithAttributes', { taskQueue: tq, workflowId: `bad-parent-${tq}`, args: [`no-${childId}`, { Nope: 1 }] });
        const d = await waitFor('the failed task', async () => (await refused.describe()).pendingWorkflowTask?.lastFailure);
        await refused.terminate('checked');
        return [seenByChild, d];
      });
      assert.deepEqual(seen, { CustomerId: 'c-child', Amount: 7 }, 'the child starts with the values as stored');
      assert.deepEqual((await env.client.workflow.getHandle(childId).describe()).searchAttributes, { CustomerId: 'c-child', Amount: 7 });
      assert.deepEqual(await listed(tq, "CustomerId = 'c-child'"), [childId]);
      const initiated = (await env.client.workflow.getHandle(`parent-${tq}`).fetchHistory()).events.find((e) => e.eventType === 'StartChildWorkflowExecutionInitiated');
      assert.ok(initiated?.eventType === 'StartChildWorkflowExecutionInitiated');
      assert.deepEqual(initiated.attributes.searchAttributes, { CustomerId: 'c-child', Amount: 7 });
      assert.equal(bad.cause, 'BadSearchAttributes');
      assert.match(bad.message, /^startChild\.searchAttributes\.Nope is not a registered search attribute/);
    });

    test('continue-as-new carries the current attributes, upserts included, unless its options give new ones', { skip }, async () => {
      const tq = queue('chain');
      const w = await worker(tq);
      const h = await env.client.workflow.start('chain', { taskQueue: tq, workflowId: `chain-${tq}`, args: [1, []], searchAttributes: { Vip: true } });
      const seen = await w.runUntil(h.result());
      assert.deepEqual(seen, [{ Vip: true, CustomerId: 'c-chain' }, { Amount: 9 }]);
      const runs: Record<string, unknown>[] = [];
      for await (const e of env.client.workflow.list({ query: `WorkflowId = '${h.workflowId}' ORDER BY StartTime ASC` })) runs.push({ ...e.searchAttributes });
      assert.deepEqual(runs, [{ Vip: true, CustomerId: 'c-chain' }, { Vip: true, CustomerId: 'c-chain' }, { Amount: 9 }]);
      assert.deepEqual(await listed(tq, "CustomerId = 'c-chain' AND ExecutionStatus = 'ContinuedAsNew'"), [h.workflowId, h.workflowId]);
    });

    test('a retried run starts with the attributes the failed run had, upserts included', { skip }, async () => {
      const tq = queue('retry');
      const w = await worker(tq);
      const h: WorkflowHandle = await env.client.workflow.start('failOnceAfterUpsert', {
        taskQueue: tq, workflowId: `retry-${tq}`, searchAttributes: { Vip: false }, retry: { maximumAttempts: 2, initialInterval: '1s' },
      });
      assert.deepEqual(await w.runUntil(h.result()), { Vip: false, CustomerId: 'c-retry' });
      assert.deepEqual((await h.describe()).searchAttributes, { Vip: false, CustomerId: 'c-retry' });
    });
  });
}
